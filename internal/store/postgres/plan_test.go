package postgres

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/pagetoken"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
)

// fillPlanRuns is 20,000 Runs of ten Specs, 40% SUSPENDED with a wake
// time, some children of one Run, some on three threads: enough for the
// planner to prefer an index to reading the table.
const fillPlanRuns = `INSERT INTO runs (tenant, run_id, spec, version, state, runnable, wake_at, last_seq, create_time, update_time,
	parent_run_id, thread_id, thread_seq, schedule_id)
SELECT 'default', 'run_' || lpad(i::text, 6, '0'), 'spec_' || (i % 10), 'v1',
	CASE WHEN i % 10 < 4 THEN 'SUSPENDED' WHEN i % 10 < 9 THEN 'COMPLETED' ELSE 'RUNNING' END,
	false, CASE WHEN i % 10 < 4 THEN 1000000 + i ELSE 0 END, 1, i, i,
	CASE WHEN i % 20 = 0 THEN 'run_000001' ELSE '' END,
	CASE WHEN i % 10 = 5 THEN 'th_' || (i % 3) ELSE '' END, i,
	CASE WHEN i % 10 = 7 THEN 'sch_' || (i % 2) ELSE '' END
FROM generate_series(1, 20000) AS i`

// planCase is one query whose plan is checked.
type planCase struct {
	name  string
	query string
	args  []any
	// index is the index the plan must use.
	index string
	// ordered: the plan must not sort (the index gives the order).
	ordered bool
	// keyset: the page's position bounds the index range searched.
	keyset bool
}

// listPlanCases are ListRuns with every filter the API offers, on its
// first page and deep in the list, then NextWake.
func listPlanCases() []planCase {
	deep := pagetoken.RunPosition{Created: 2000, RunID: "run_002000"}
	token := pagetoken.Encode(deep)
	var out []planCase
	for _, c := range []struct {
		name    string
		q       store.RunQuery
		index   string
		ordered bool
	}{
		{"all", store.RunQuery{}, "runs_newest", true},
		{"spec", store.RunQuery{Spec: "absent"}, "runs_spec", true},
		{"state", store.RunQuery{States: []string{"SUSPENDED"}}, "runs_state_newest", true},
		{"states", store.RunQuery{States: []string{"SUSPENDED", "RUNNING"}}, "runs_state_newest", false},
		{"states of a spec", store.RunQuery{Spec: "spec_1", States: []string{"SUSPENDED", "RUNNING"}}, "", false},
		// A thousand children, or a thread's Runs, are few enough that
		// the planner may fetch them all from the index and sort them.
		{"parent", store.RunQuery{ParentRunID: "run_000001"}, "runs_parent", false},
		{"thread", store.RunQuery{ThreadID: "th_1"}, "runs_thread", false},
		{"schedule", store.RunQuery{ScheduleID: "sch_1"}, "runs_schedule", false},
		{"spec and state", store.RunQuery{Spec: "spec_1", States: []string{"SUSPENDED"}}, "", true},
	} {
		for _, page := range []struct {
			name  string
			token string
		}{{"first page", ""}, {"deep page", token}} {
			q := c.q
			q.PageToken = page.token
			query, args := listRunsSQL(store.DefaultTenant, q, deep, 51)
			keyset := page.token != "" && q.ThreadID == ""
			out = append(out, planCase{name: "ListRuns " + c.name + ", " + page.name, query: query, args: args, index: c.index, ordered: c.ordered, keyset: keyset})
		}
	}
	return append(out, planCase{name: "NextWake", query: nextWakeSQL, index: "runs_due", ordered: true})
}

// TestListPlans: with 20,000 Runs analyzed, every list query the API
// offers and NextWake use an index, in its order where it has the list's,
// in the plan for the values given and in the generic plan a prepared
// planConn migrates the database at dsn and connects to it for EXPLAIN.
func planConn(ctx context.Context, t *testing.T, dsn string) *pgx.Conn {
	t.Helper()
	db, err := Open(ctx, dsn, Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	_ = db.Close()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return conn
}

// statement falls back to: no query reads every Run.
func TestListPlans(t *testing.T) {
	t.Parallel()
	cluster := pgtest.Start(t)
	dsn := cluster.NewDatabase(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	conn := planConn(ctx, t, dsn)
	for _, stmt := range []string{fillPlanRuns, `ANALYZE runs`} {
		if _, err := conn.Exec(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	for _, mode := range []string{"force_custom_plan", "force_generic_plan"} {
		if _, err := conn.Exec(ctx, "SET plan_cache_mode = "+mode); err != nil {
			t.Fatal(err)
		}
		for i, c := range listPlanCases() {
			t.Run(mode+"/"+c.name, func(t *testing.T) {
				plan := explain(ctx, t, conn, fmt.Sprintf("plan_%s_%d", mode, i), c)
				checkPlan(t, c, plan)
			})
		}
	}
}

// explain prepares c's query as name and returns the lines of EXPLAIN
// EXECUTE with c's values, so that plan_cache_mode applies.
func explain(ctx context.Context, t *testing.T, conn *pgx.Conn, name string, c planCase) []string {
	t.Helper()
	if _, err := conn.Exec(ctx, "PREPARE "+name+" AS "+c.query); err != nil {
		t.Fatal(err)
	}
	var values []string
	for _, a := range c.args {
		values = append(values, literal(a))
	}
	execute := "EXPLAIN EXECUTE " + name
	if len(values) > 0 {
		execute += "(" + strings.Join(values, ", ") + ")"
	}
	rows, err := conn.Query(ctx, execute, pgx.QueryExecModeSimpleProtocol)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, strings.TrimSpace(line))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return plan
}

// literal is a value of listRunsSQL's arguments as SQL.
func literal(v any) string {
	switch v := v.(type) {
	case string:
		return "'" + strings.ReplaceAll(v, "'", "''") + "'"
	case []string:
		var quoted []string
		for _, s := range v {
			quoted = append(quoted, literal(s))
		}
		return "ARRAY[" + strings.Join(quoted, ", ") + "]"
	default:
		return fmt.Sprint(v)
	}
}

// keysetCond is an index condition bounded by a page's position.
var keysetCond = regexp.MustCompile(`Index Cond: \(.*ROW\(create_time, run_id\) < ROW\(`)

// checkPlan fails t when plan reads all of runs, uses another index than
// c's, sorts where c is ordered, or searches a deep page's index from its
// start.
func checkPlan(t *testing.T, c planCase, plan []string) {
	t.Helper()
	all := strings.Join(plan, "\n")
	if strings.Contains(all, "Seq Scan on runs") {
		t.Errorf("%s reads the table:\n%s", c.name, all)
	}
	if c.ordered && strings.Contains(all, "Sort") {
		t.Errorf("%s sorts:\n%s", c.name, all)
	}
	if c.keyset && !keysetCond.MatchString(all) {
		t.Errorf("%s reads the index from the newest, not from the page's position:\n%s", c.name, all)
	}
	if c.index != "" && !strings.Contains(all, " "+c.index+" ") {
		t.Errorf("%s does not use %s:\n%s", c.name, c.index, all)
	}
}

// TestLiveSubscriptionsPlan: with 20,000 Runs, half of them live, a push
// config for every hundredth and 200,000 retired configs, analyzed, the
// copy's refresh (ListLiveSubscriptions) reads the live configs from
// webhook_subscriptions_live, probing each one's Run by its key, and the
// tenant's own subscriptions through webhook_subscriptions_run, in custom
// and generic plans: it reads neither the retired configs nor the live
// Runs.
func TestLiveSubscriptionsPlan(t *testing.T) {
	t.Parallel()
	dsn := pgtest.Start(t).NewDatabase(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	conn := planConn(ctx, t, dsn)
	// 20,000 Runs, half live; a config for each hundredth, and 200,000
	// retired configs of settled Runs: history far larger than what is
	// live, as on a long-lived server.
	for _, stmt := range []string{fillPlanRuns, `INSERT INTO webhook_subscriptions (` + subscriptionColumns + `)
		SELECT tenant, 'a2a-' || run_id || '-c', 'https://example.com', '["a2a.task"]', '', true, '', '{}', 1, 1, run_id FROM runs WHERE run_id LIKE '%00'`,
		`INSERT INTO webhook_subscriptions (` + subscriptionColumns + `, live)
		SELECT 'default', 'a2a-run_old' || i || '-c', 'https://example.com', '["a2a.task"]', '', true, '', '{}', 1, 1, 'run_old' || i, false FROM generate_series(1, 200000) AS i`,
		`ANALYZE`} {
		if _, err := conn.Exec(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	for _, mode := range []string{"force_custom_plan", "force_generic_plan"} {
		if _, err := conn.Exec(ctx, "SET plan_cache_mode = "+mode); err != nil {
			t.Fatal(err)
		}
		c := planCase{name: "ListLiveSubscriptions", query: liveSubscriptionsSQL([]string{"QUEUED", "RUNNING", "SUSPENDED"})}
		plan := strings.Join(explain(ctx, t, conn, "live_"+mode, c), "\n")
		for _, bad := range []string{"Seq Scan"} {
			if strings.Contains(plan, bad) {
				t.Errorf("%s: the plan has a %s:\n%s", mode, bad, plan)
			}
		}
		t.Logf("%s:\n%s", mode, plan)
		if !strings.Contains(plan, "webhook_subscriptions_live") || !strings.Contains(plan, "runs_pkey") || strings.Contains(plan, "runs_state") {
			t.Errorf("%s: the plan does not read the configs from webhook_subscriptions_live, probing runs_pkey for each:\n%s", mode, plan)
		}
	}
}
