package sqlite

import (
	"context"
	"database/sql"
	"maps"
	"path/filepath"
	"slices"
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

// TestMigrationFillsSuspension: a file made before the suspension column
// (schema 2) holding suspended Runs comes out of the migration with each
// one's suspension read from its summary, so CountRuns is right at once.
func TestMigrationFillsSuspension(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runsvc.db")
	old, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	insert := `INSERT INTO runs (tenant, run_id, spec, version, state, runnable, summary, last_seq, create_time, update_time)
		VALUES ('default', ?, 's', 'v', ?, 0, ?, 1, 1, 1)`
	rows := []struct{ id, state, summary string }{
		{"run_approval", "SUSPENDED", `{"status":"SUSPENDED","suspension":{"reason":"APPROVAL"}}`},
		{"run_doubt", "SUSPENDED", `{"status":"SUSPENDED","suspension":{"reason":"APPROVAL","inDoubt":true}}`},
		{"run_results", "SUSPENDED", `{"status":"SUSPENDED","suspension":{"reason":"TOOL_RESULTS"}}`},
		{"run_running", "RUNNING", `{"status":"RUNNING"}`},
	}
	for _, stmt := range []string{migrations[0], migrations[1], `PRAGMA user_version = 2`} {
		if _, err := old.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range rows {
		if _, err := old.Exec(insert, r.id, r.state, []byte(r.summary)); err != nil {
			t.Fatal(err)
		}
	}
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := OpenFile(path, Options{})
	if err != nil {
		t.Fatalf("opening a file of schema 2: %v", err)
	}
	t.Cleanup(func() { _ = db.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	got, err := db.CountRuns(ctx, []string{"RUNNING", "SUSPENDED"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"RUNNING/": 1, "SUSPENDED/APPROVAL": 1, "SUSPENDED/IN_DOUBT": 1, "SUSPENDED/TOOL_RESULTS": 1}
	for _, c := range got {
		key := c.State + "/" + c.Suspension
		t.Run(key, func(t *testing.T) {
			if c.Count != want[key] {
				t.Errorf("%s counted %d, want %d", key, c.Count, want[key])
			}
		})
		delete(want, key)
	}
	if len(want) != 0 {
		t.Errorf("groups missing after the migration: %v (got %+v)", want, got)
	}
}

// TestMigrationFillsPushRuns: a file from before push configs named their
// Run (schema 12) comes out of migration 13 with each config's run_id read
// from its id (a config id may hold '-'), the tenant's own subscriptions
// following no Run, and the configs of Runs already gone deleted with
// their deliveries: the live list holds the live Run's config alone.
func TestMigrationFillsPushRuns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runsvc.db")
	old, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	stmts := append([]string{}, migrations[:12]...)
	for _, r := range [][2]string{{"run_live", "RUNNING"}, {"run_done", "COMPLETED"}} {
		stmts = append(stmts, `INSERT INTO runs (tenant, run_id, spec, version, state, runnable, last_seq, create_time, update_time)
			VALUES ('default', '`+r[0]+`', 's', 'v', '`+r[1]+`', 0, 1, 1, 1)`)
	}
	for _, s := range [][2]string{{"a2a-run_live-c-1", `["a2a.task"]`}, {"a2a-run_done-c", `["a2a.task"]`}, {"a2a-run_gone-c", `["a2a.task"]`}, {"a2a-own", `["run.settled"]`}} {
		stmts = append(stmts, `INSERT INTO webhook_subscriptions (tenant, id, url, event_types, enabled, secrets, create_time, update_time)
			VALUES ('default', '`+s[0]+`', 'https://example.com', '`+s[1]+`', 1, x'7b7d', 1, 1)`,
			`INSERT INTO webhook_deliveries (tenant, id, subscription_id, type, body, create_time, period_start, next_time)
			VALUES ('default', 'msg-`+s[0]+`', '`+s[0]+`', 'a2a.task', x'7b7d', 1, 1, 1)`)
	}
	for _, stmt := range append(stmts, `PRAGMA user_version = 12`) {
		if _, err := old.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := OpenFile(path, Options{})
	if err != nil {
		t.Fatalf("opening a file of schema 12: %v", err)
	}
	t.Cleanup(func() { _ = db.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	all, err := db.ListSubscriptions(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	runs := map[string]string{}
	for _, s := range all {
		runs[s.ID] = s.RunID
	}
	want := map[string]string{"a2a-run_live-c-1": "run_live", "a2a-run_done-c": "run_done", "a2a-own": ""}
	if !maps.Equal(runs, want) {
		t.Errorf("subscriptions and their Runs = %v, want %v", runs, want)
	}
	if ds, err := db.ListDeliveries(ctx, store.DefaultTenant, "a2a-run_gone-c", store.DeliveryQuery{Limit: 10}); err != nil || len(ds) != 0 {
		t.Errorf("the gone Run's config keeps %d deliveries (%v)", len(ds), err)
	}
	live, _, err := db.ListLiveSubscriptions(ctx, []string{"QUEUED", "RUNNING", "SUSPENDED"})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range live {
		ids = append(ids, s.ID)
	}
	if slices.Sort(ids); !slices.Equal(ids, []string{"a2a-own", "a2a-run_live-c-1"}) {
		t.Errorf("ListLiveSubscriptions = %v, want a2a-own and a2a-run_live-c-1", ids)
	}
	// The settled Run's config is retired already: nothing is left to.
	if n, err := db.RetireSubscriptions(ctx, []string{"QUEUED", "RUNNING", "SUSPENDED"}); err != nil || n != 0 {
		t.Errorf("RetireSubscriptions after the migration = %d, %v; want 0", n, err)
	}
}
