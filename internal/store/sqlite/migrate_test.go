package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/store"
)

// TestMigrateFromFirstSchema opens a file an earlier runsvc made (the
// first schema only): the later migrations apply, and what it held stays.
func TestMigrateFromFirstSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runsvc.db")
	old, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{
		migrations[0],
		`INSERT INTO specs (tenant, name, version, body, create_time, ord) VALUES ('default', 'alpha', 'a1', '{}', 1, 1)`,
		`PRAGMA user_version = 1`,
	} {
		if _, err := old.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := OpenFile(path, Options{})
	if err != nil {
		t.Fatalf("opening a file of the first schema: %v", err)
	}
	t.Cleanup(func() { _ = db.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var version int
	if err := db.read.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&version); err != nil || version != len(migrations) {
		t.Errorf("user_version = %d, %v; want %d", version, err, len(migrations))
	}
	if _, err := db.GetSpec(ctx, store.DefaultTenant, "alpha", "a1"); err != nil {
		t.Errorf("the spec written before the migration: %v", err)
	}
	if _, created, err := db.EnqueueToolCall(ctx, store.ToolCall{Tenant: store.DefaultTenant, CallID: "c1", Tool: "t", Arguments: []byte(`{}`)}); err != nil || !created {
		t.Errorf("enqueueing a tool call after the migration: created %v, %v", created, err)
	}
}
