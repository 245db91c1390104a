//go:build goldenwrite

package scenario_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	_ "modernc.org/sqlite" // the SQLite driver the dump reads with

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
	"github.com/runsvc/runsvc/internal/testing/scenario"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// goldenWriteEnv names the directory TestWriteGolden writes the golden
// corpus to. The corpus under testdata/golden was written once, by the
// build before the stored format became versioned; rewriting it with a
// later build defeats its purpose, so this file builds only with the
// goldenwrite tag: go test -tags goldenwrite -run 'TestWriteGolden'
// ./internal/testing/scenario/ with RUNSVC_GOLDEN_WRITE=<dir>.
const goldenWriteEnv = "RUNSVC_GOLDEN_WRITE"

// goldenKeptEnv names a directory of SQLite stores kept by earlier test
// runs (one subdirectory per test, each with a runsvc.db) to dump instead.
const goldenKeptEnv = "RUNSVC_GOLDEN_KEPT"

// goldenRow is one stored row of the records or runs table.
type goldenRow = scenario.GoldenRow

// scanRecord reads one row of a records query selecting tenant, run_id,
// seq, time, attempt, kind and the body as text, through scan.
func scanRecord(t *testing.T, scan func(dest ...any) error) goldenRow {
	t.Helper()
	var r goldenRow
	if err := scan(&r.Tenant, &r.RunID, &r.Seq, &r.Time, &r.Attempt, &r.Kind, &r.Body); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestWriteGolden runs every scenario against a server on SQLite and one
// on PostgreSQL and dumps the rows they stored.
func TestWriteGolden(t *testing.T) {
	out := os.Getenv(goldenWriteEnv)
	if out == "" {
		t.Skip("skipped: set " + goldenWriteEnv + "=<dir> to rewrite the golden corpus")
	}
	if kept := os.Getenv(goldenKeptEnv); kept != "" {
		t.Run("engine", func(t *testing.T) { dumpKept(t, kept, filepath.Join(out, "engine")) })
		return
	}
	t.Run("sqlite", func(t *testing.T) {
		dir := t.TempDir()
		t.Cleanup(func() { dumpSQLite(t, filepath.Join(dir, "runsvc.db"), filepath.Join(out, "sqlite")) })
		runAll(t, func(c *server.Config) { c.Data = dir })
	})
	t.Run("postgres", func(t *testing.T) {
		dsn := pgtest.Start(t).DSN()
		t.Cleanup(func() { dumpPostgres(t, dsn, filepath.Join(out, "postgres")) })
		runAll(t, func(c *server.Config) { c.Store = dsn })
	})
}

func runAll(t *testing.T, opt testserver.Option) {
	f, err := scenario.Load(repoFile(t, "testdata/scenarios.json"))
	if err != nil {
		t.Fatal(err)
	}
	srv := testserver.Start(t, func(c *server.Config) { c.PolicyFile = repoFile(t, "testdata/policy.json") }, opt)
	r := &scenario.Runner{Conn: srv.Conn, Suite: "golden"}
	ctx := testserver.Context(t)
	if err := r.Setup(ctx, f); err != nil {
		t.Fatal(err)
	}
	for _, s := range f.Scenarios {
		if s.Server != "" {
			continue // the golden corpus is the default server's rows
		}
		if _, err := r.Run(ctx, s); err != nil {
			t.Logf("%s: %v", s.Name, err)
		}
	}
	time.Sleep(2 * time.Second) // let the worker settle what it can
}

func writeRows(t *testing.T, dir string, name string, rows []goldenRow) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := json.MarshalIndent(rows, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// dumpKept dumps every store under kept into one corpus.
func dumpKept(t *testing.T, kept, dir string) {
	dbs, err := filepath.Glob(filepath.Join(kept, "*", "runsvc.db"))
	if err != nil || len(dbs) == 0 {
		t.Fatalf("no stores under %s: %v", kept, err)
	}
	var recs, runs []goldenRow
	for _, db := range dbs {
		r, u := readSQLite(t, db)
		recs, runs = append(recs, r...), append(runs, u...)
	}
	writeRows(t, dir, "records.json", recs)
	writeRows(t, dir, "runs.json", runs)
}

func dumpSQLite(t *testing.T, path, dir string) {
	recs, runs := readSQLite(t, path)
	writeRows(t, dir, "records.json", recs)
	writeRows(t, dir, "runs.json", runs)
}

func readSQLite(t *testing.T, path string) ([]goldenRow, []goldenRow) {
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var recs, runs []goldenRow
	rows, err := db.Query(`SELECT tenant, run_id, seq, time, attempt, kind, CAST(body AS TEXT) FROM records ORDER BY tenant, run_id, seq`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		recs = append(recs, scanRecord(t, rows.Scan))
	}
	rows, err = db.Query(`SELECT tenant, run_id, state, CAST(summary AS TEXT) FROM runs ORDER BY tenant, run_id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var r goldenRow
		var body sql.NullString
		if err := rows.Scan(&r.Tenant, &r.RunID, &r.State, &body); err != nil {
			t.Fatal(err)
		}
		r.Body = body.String
		runs = append(runs, r)
	}
	return recs, runs
}

func dumpPostgres(t *testing.T, dsn, dir string) {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var recs, runs []goldenRow
	rows, err := conn.Query(ctx, `SELECT tenant, run_id, seq, time, attempt, kind, convert_from(body, 'UTF8') FROM records ORDER BY tenant, run_id, seq`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		recs = append(recs, scanRecord(t, rows.Scan))
	}
	rows.Close()
	rows, err = conn.Query(ctx, `SELECT tenant, run_id, state, coalesce(convert_from(summary, 'UTF8'), '') FROM runs ORDER BY tenant, run_id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var r goldenRow
		var body string
		if err := rows.Scan(&r.Tenant, &r.RunID, &r.State, &body); err != nil {
			t.Fatal(err)
		}
		r.Body = body
		runs = append(runs, r)
	}
	rows.Close()
	writeRows(t, dir, "records.json", recs)
	writeRows(t, dir, "runs.json", runs)
}

// goldenKinds are the typed errors of the build that wrote the corpus, by
// the names that build stored them under.
var goldenKinds = []string{
	"InvalidRequest", "SpecInvalid", "SpecUnbuildable", "ValueNotPortable",
	"ConfigurationInvalid", "DependencyMissing",
	"RunNotFound", "SpecNotFound", "DelegationNotFound", "ToolNotFound", "RequestIDReused",
	"RunNotSuspended", "RunAlreadySettled", "SuspensionExpired",
	"RunEndedWithoutAnswer", "RunFailed", "RunAborted",
	"AccessDenied", "ToolNarrowed", "Unauthenticated", "CredentialNotFound",
	"BudgetExceeded", "BudgetOverrun", "ToolLoopLimit",
	"InferenceRateLimited", "InferenceFailed", "TransientFailure", "StoreUnavailable",
	"Overloaded", "ToolFailed", "MCPFailed",
	"SeqConflict", "LeaseLost", "CorruptLog",
	"RunDeadlineExceeded", "AwaitTimeout", "DelegationTimeout",
	"BusNotConfigured", "ChannelNotFound", "Internal",
}

// TestWriteGoldenKinds writes one Run per typed error, failed with it
// (every field set, retryable and not), as that build stored it.
func TestWriteGoldenKinds(t *testing.T) {
	out := os.Getenv(goldenWriteEnv)
	if out == "" {
		t.Skip("skipped: set " + goldenWriteEnv + "=<dir> to rewrite the golden corpus")
	}
	at := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	var recs []goldenRow
	for i, kind := range goldenKinds {
		for _, flag := range []bool{false, true} {
			e := errs.New(kind)
			if e == nil {
				t.Fatalf("kind %s is gone", kind)
			}
			fill(reflect.ValueOf(e).Elem(), kind, flag)
			runID := fmt.Sprintf("run_golden_%02d_%t", i, flag)
			stored := errs.Store(e, "errid-"+kind)
			call := runlog.ToolCall{ID: "c1", Name: "t", Arguments: json.RawMessage(`{"q":1}`)}
			ops := []runlog.Op{
				&runlog.Admitted{Tenant: "golden", Spec: "s", Version: "v", Input: "in", Deadline: at.Add(time.Hour), RootRunID: runID},
				&runlog.AttemptStarted{Attempt: 1, WorkerID: "w"},
				&runlog.TurnStarted{Turn: 1},
				&runlog.ModelCallStarted{Turn: 1},
				&runlog.ModelCallFailed{Turn: 1, Failure: stored, WillRetry: true, RetryAfter: time.Second},
				&runlog.ModelCallStarted{Turn: 1},
				&runlog.ModelCallFinished{Turn: 1, ToolCalls: []runlog.ToolCall{call}},
				&runlog.ToolCallStarted{CallID: "c1", Name: "t"},
				&runlog.ToolCallFailed{CallID: "c1", Name: "t", Error: stored, RetryAfter: time.Second},
				&runlog.ToolCallStarted{CallID: "c1", Name: "t"},
				&runlog.ToolCallFinished{CallID: "c1", Name: "t", Error: &stored},
				&runlog.Settled{State: runlog.StatusFailed, Failure: &stored},
			}
			for seq, op := range ops {
				k, body, err := runlog.Encode(op)
				if err != nil {
					t.Fatal(err)
				}
				recs = append(recs, goldenRow{Tenant: "golden", RunID: runID, Seq: int64(seq + 1), Time: at.UnixNano(), Kind: k, Body: string(body)})
			}
		}
	}
	writeRows(t, filepath.Join(out, "kinds"), "records.json", recs)
}

// fill sets every field of an error's struct to a value derived from its
// name, so each shows in what is stored.
func fill(v reflect.Value, kind string, flag bool) {
	for i := 0; i < v.NumField(); i++ {
		f, name := v.Field(i), v.Type().Field(i).Name
		if !f.CanSet() {
			continue
		}
		switch {
		case f.Type() == reflect.TypeOf(time.Duration(0)):
			f.SetInt(int64(1500 * time.Millisecond))
		case f.Type() == reflect.TypeOf(time.Time{}):
			f.Set(reflect.ValueOf(time.Date(2026, 12, 1, 13, 0, 0, 0, time.UTC)))
		case f.Type() == reflect.TypeOf([]errs.FieldViolation{}):
			f.Set(reflect.ValueOf([]errs.FieldViolation{{Field: "a.b", Description: "is wrong"}, {Field: "c", Description: "is missing"}}))
		case f.Kind() == reflect.String:
			f.SetString(strings.ToLower(kind) + "-" + name)
		case f.Kind() == reflect.Bool:
			f.SetBool(flag)
		case f.Kind() >= reflect.Int && f.Kind() <= reflect.Int64:
			f.SetInt(7)
		case f.Kind() == reflect.Float64 || f.Kind() == reflect.Float32:
			f.SetFloat(2.5)
		case f.Kind() == reflect.Slice && f.Type().Elem().Kind() == reflect.String:
			f.Set(reflect.ValueOf([]string{"one", "two"}))
		}
	}
}
