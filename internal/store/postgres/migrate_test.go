package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
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

// TestMigrationFillsSuspension: a database from before migration 3 (the
// suspension column) holding suspended Runs comes out of it with each
// one's suspension read from its summary, so CountRuns is right at once.
func TestMigrationFillsSuspension(t *testing.T) {
	t.Parallel()
	dsn := pgtest.Start(t).NewDatabase(t)
	_ = open(t, dsn).Close()
	// Back to schema 2: undo migrations 12 (evaluations), 11 (aliases), 10
	// (concurrency), 9 (fairness), 7 (schedules), 6 (thread history), 5
	// (list indexes), 4 (threads) and 3, as a database that never had them
	// (8, webhooks, creates its tables if missing).
	exec(t, dsn, `DROP TABLE evaluations; DROP INDEX runs_evaluation; ALTER TABLE runs DROP COLUMN evaluation_id;
		DROP TABLE spec_aliases; DROP TABLE spec_alias_moves; DROP TABLE fair_keys; DROP INDEX runs_claim; CREATE INDEX runs_runnable ON runs (update_time) WHERE runnable;
		ALTER TABLE runs DROP COLUMN priority, DROP COLUMN fairness_key, DROP COLUMN fair_pass;
		DROP TABLE schedules; DROP TABLE schedule_ticks; DROP INDEX runs_schedule;
		ALTER TABLE runs DROP COLUMN schedule_id, DROP COLUMN schedule_tick;
		DROP TABLE thread_history; DROP INDEX runs_due; DROP INDEX runs_spec; DROP INDEX runs_state_newest;
		DROP TABLE threads; DROP INDEX runs_thread_active; DROP INDEX runs_thread;
		ALTER TABLE runs DROP COLUMN thread_id, DROP COLUMN thread_seq, DROP COLUMN continues_run_id, DROP COLUMN waiting;
		DROP INDEX runs_state; ALTER TABLE runs DROP COLUMN suspension; ALTER TABLE tool_calls DROP COLUMN traceparent;
		DELETE FROM schema_migrations WHERE version >= 3`)
	rows := []struct{ id, state, summary string }{
		{"run_approval", "SUSPENDED", `{"status":"SUSPENDED","suspension":{"reason":"APPROVAL"}}`},
		{"run_doubt", "SUSPENDED", `{"status":"SUSPENDED","suspension":{"reason":"APPROVAL","inDoubt":true}}`},
		{"run_children", "SUSPENDED", `{"status":"SUSPENDED","suspension":{"reason":"CHILDREN"}}`},
		{"run_queued", "QUEUED", `{"status":"QUEUED"}`},
	}
	conn := connect(t, dsn)
	for _, r := range rows {
		_, err := conn.Exec(context.Background(), `INSERT INTO runs (tenant, run_id, spec, version, state, runnable, summary, last_seq, create_time, update_time)
			VALUES ('default', $1, 's', 'v', $2, false, $3, 1, 1, 1)`, r.id, r.state, []byte(r.summary))
		if err != nil {
			t.Fatal(err)
		}
	}
	db := open(t, dsn)
	got, err := db.CountRuns(context.Background(), []string{"QUEUED", "SUSPENDED"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"QUEUED/": 1, "SUSPENDED/APPROVAL": 1, "SUSPENDED/IN_DOUBT": 1, "SUSPENDED/CHILDREN": 1}
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

// TestMigrationFillsPushRuns: a database from before push configs named
// their Run (migration 12) comes out of migration 13 with each config's
// run_id read from its id (a config id may hold '-'), the tenant's own
// subscriptions following no Run, and the configs of Runs already gone
// deleted with their deliveries.
func TestMigrationFillsPushRuns(t *testing.T) {
	t.Parallel()
	dsn := pgtest.Start(t).NewDatabase(t)
	_ = open(t, dsn).Close()
	sql := `DROP INDEX webhook_subscriptions_run; ALTER TABLE webhook_subscriptions DROP COLUMN run_id, DROP COLUMN live;
		DELETE FROM schema_migrations WHERE version >= 13;
		INSERT INTO runs (tenant, run_id, spec, version, state, runnable, summary, last_seq, create_time, update_time) VALUES
			('default', 'run_live', 's', 'v', 'RUNNING', false, '{}', 1, 1, 1), ('default', 'run_done', 's', 'v', 'COMPLETED', false, '{}', 1, 1, 1);`
	for _, s := range [][2]string{{"a2a-run_live-c-1", `["a2a.task"]`}, {"a2a-run_done-c", `["a2a.task"]`}, {"a2a-run_gone-c", `["a2a.task"]`}, {"a2a-own", `["run.settled"]`}} {
		sql += `INSERT INTO webhook_subscriptions (tenant, id, url, event_types, enabled, secrets, create_time, update_time)
			VALUES ('default', '` + s[0] + `', 'https://example.com', '` + s[1] + `', true, '{}', 1, 1);
			INSERT INTO webhook_deliveries (tenant, id, subscription_id, type, body, create_time, period_start, next_time)
			VALUES ('default', 'msg-` + s[0] + `', '` + s[0] + `', 'a2a.task', '{}', 1, 1, 1);`
	}
	exec(t, dsn, sql)
	db := open(t, dsn)
	ctx := context.Background()
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
	live := []string{"QUEUED", "RUNNING", "SUSPENDED"}
	if subs, _, err := db.ListLiveSubscriptions(ctx, live); err != nil || len(subs) != 2 {
		t.Errorf("ListLiveSubscriptions after the migration = %d, %v; want a2a-own and a2a-run_live-c-1", len(subs), err)
	}
	// The settled Run's config is retired already: nothing is left to.
	if n, err := db.RetireSubscriptions(ctx, live); err != nil || n != 0 {
		t.Errorf("RetireSubscriptions after the migration = %d, %v; want 0", n, err)
	}
}
