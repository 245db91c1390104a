package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/postgres"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
)

// TestConcurrentMigrations opens one database from several replicas at
// once: every Open succeeds and each migration is applied exactly once, or,
// on a database a newer runsvc migrated, every Open refuses it.
func TestConcurrentMigrations(t *testing.T) {
	t.Parallel()
	cluster := pgtest.Start(t)
	files, err := os.ReadDir("migrations")
	if err != nil {
		t.Fatal(err)
	}
	known := make([]int, len(files))
	for i := range files {
		known[i] = i + 1
	}
	for _, tc := range []struct {
		name     string
		prepare  func(t *testing.T, dsn string)
		versions []int // in schema_migrations afterwards
		newer    bool  // Open fails with *postgres.SchemaError
	}{
		{
			name:     "fresh database",
			prepare:  func(*testing.T, string) {},
			versions: known,
		},
		{
			name:     "migrated database",
			prepare:  func(t *testing.T, dsn string) { _ = open(t, dsn).Close() },
			versions: known,
		},
		{
			name: "database a newer runsvc migrated",
			prepare: func(t *testing.T, dsn string) {
				_ = open(t, dsn).Close()
				exec(t, dsn, `INSERT INTO schema_migrations (version, name) VALUES (9999, '9999_future.sql')`)
			},
			versions: append(append([]int{}, known...), 9999),
			newer:    true,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dsn := cluster.NewDatabase(t)
			tc.prepare(t, dsn)
			const replicas = 4
			dbs := make([]*postgres.DB, replicas)
			errs := make([]error, replicas)
			var wg sync.WaitGroup
			for i := range replicas {
				wg.Go(func() {
					ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
					defer cancel()
					dbs[i], errs[i] = postgres.Open(ctx, dsn, postgres.Options{Logger: discard})
				})
			}
			wg.Wait()
			for i, err := range errs {
				if dbs[i] != nil {
					t.Cleanup(func() { _ = dbs[i].Close() })
				}
				var se *postgres.SchemaError
				switch {
				case tc.newer && !errors.As(err, &se):
					t.Errorf("replica %d: Open = %v, want *postgres.SchemaError", i, err)
				case !tc.newer && err != nil:
					t.Errorf("replica %d: Open: %v", i, err)
				}
			}
			if got := appliedVersions(t, dsn); fmt.Sprint(got) != fmt.Sprint(tc.versions) {
				t.Errorf("schema_migrations holds %v, want %v", got, tc.versions)
			}
			if tc.newer || t.Failed() {
				return
			}
			spec := store.Spec{Tenant: store.DefaultTenant, Name: "s", Version: "v1", Body: []byte(`{}`), CreateTime: time.Now()}
			if _, _, err := dbs[0].PutSpec(context.Background(), spec); err != nil {
				t.Errorf("the migrated store does not work: %v", err)
			}
		})
	}
}

func appliedVersions(t *testing.T, dsn string) []int {
	t.Helper()
	rows, err := connect(t, dsn).Query(context.Background(), `SELECT version FROM schema_migrations ORDER BY version`)
	if err != nil {
		t.Fatal(err)
	}
	versions, err := pgx.CollectRows(rows, pgx.RowTo[int])
	if err != nil {
		t.Fatal(err)
	}
	return versions
}

func exec(t *testing.T, dsn, sql string) {
	t.Helper()
	if _, err := connect(t, dsn).Exec(context.Background(), sql); err != nil {
		t.Fatal(err)
	}
}

func connect(t *testing.T, dsn string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return conn
}
