package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/pagetoken"
)

// fillPlanRuns is 2,000 Runs of ten Specs, 40% SUSPENDED with a wake
// time, some children of one Run, some on three threads: enough for
// ANALYZE to tell the indexes apart.
const fillPlanRuns = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
INSERT INTO runs (tenant, run_id, spec, version, state, runnable, wake_at, last_seq, create_time, update_time,
	parent_run_id, thread_id, thread_seq, schedule_id)
SELECT 'default', printf('run_%06d', i), 'spec_' || (i % 10), 'v1',
	CASE WHEN i % 10 < 4 THEN 'SUSPENDED' WHEN i % 10 < 9 THEN 'COMPLETED' ELSE 'RUNNING' END,
	0, CASE WHEN i % 10 < 4 THEN 1000000 + i ELSE 0 END, 1, i, i,
	CASE WHEN i % 20 = 0 THEN 'run_000001' ELSE '' END,
	CASE WHEN i % 10 = 5 THEN 'th_' || (i % 3) ELSE '' END, i,
	CASE WHEN i % 10 = 7 THEN 'sch_' || (i % 2) ELSE '' END
FROM n`

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
	// firstKey: an ordered scan of index that stops at its first entry
	// (LIMIT 1) is the plan, not a search.
	firstKey bool
}

// listPlanCases are ListRuns with every filter the API offers, on its
// first page and deep in the list, then NextWake and PutSpec's next
// publish order.
func listPlanCases() []planCase {
	deep := pagetoken.RunPosition{Created: 200, RunID: "run_000200"}
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
		{"parent", store.RunQuery{ParentRunID: "run_000001"}, "runs_parent", true},
		{"thread", store.RunQuery{ThreadID: "th_1"}, "runs_thread", true},
		{"schedule", store.RunQuery{ScheduleID: "sch_1"}, "runs_schedule", true},
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
	return append(out,
		planCase{name: "NextWake", query: nextWakeSQL, index: "runs_due", ordered: true, firstKey: true},
		// A claim reads runs_claim in order from its first key and stops
		// at its limit of Runs whose lease is free.
		planCase{name: "Claim, by priority and fairness", query: claimRunnable, args: []any{int64(0), 32}, index: "runs_claim", ordered: true, firstKey: true},
		planCase{name: "a priority's head of the queue", query: strings.Replace(fairHeadSQL, "?2", "?", 1), args: []any{3}, index: "runs_claim", ordered: true, firstKey: true},
		planCase{name: "PutSpec's next ord", query: nextOrdSQL, args: []any{store.DefaultTenant}, index: "specs_ord"},
	)
}

// planDB is a new store's file, opened raw (one connection) for EXPLAIN.
func planDB(t *testing.T) *sql.DB {
	t.Helper()
	path := filepath.Join(t.TempDir(), "runsvc.db")
	db, err := OpenFile(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	raw.SetMaxOpenConns(1)
	t.Cleanup(func() { _ = raw.Close() })
	return raw
}

// TestListPlans: with 2,000 Runs, before and after ANALYZE, every list
// query the API offers and NextWake search an index (or read the first
// key of one) and, where the index has the list's order, do not sort: no
// query reads every Run.
func TestListPlans(t *testing.T) {
	raw := planDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := raw.ExecContext(ctx, fillPlanRuns); err != nil {
		t.Fatal(err)
	}
	for _, stats := range []string{"no statistics", "analyzed"} {
		if stats == "analyzed" {
			if _, err := raw.ExecContext(ctx, `ANALYZE`); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range listPlanCases() {
			t.Run(stats+"/"+c.name, func(t *testing.T) {
				plan := explain(ctx, t, raw, c)
				checkPlan(t, c, plan)
			})
		}
	}
}

// explain returns the lines of c's EXPLAIN QUERY PLAN.
func explain(ctx context.Context, t *testing.T, db *sql.DB, c planCase) []string {
	t.Helper()
	rows, err := db.QueryContext(ctx, "EXPLAIN QUERY PLAN "+c.query, c.args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return plan
}

// checkPlan fails t when plan scans runs, uses another index than c's,
// sorts where c is ordered, or searches a deep page's index from its
// start.
func checkPlan(t *testing.T, c planCase, plan []string) {
	t.Helper()
	all := strings.Join(plan, "; ")
	for _, line := range plan {
		// A scan of a subquery reads the rows a search returned.
		scan := line == "SCAN runs" || strings.HasPrefix(line, "SCAN runs ")
		if scan && !(c.firstKey && strings.Contains(line, "INDEX "+c.index)) {
			t.Errorf("%s scans: %s", c.name, all)
		}
		if c.ordered && strings.Contains(line, "TEMP B-TREE") {
			t.Errorf("%s sorts: %s", c.name, all)
		}
	}
	if c.keyset && !strings.Contains(all, "(create_time,run_id)<(?,?)") {
		t.Errorf("%s reads the index from the newest, not from the page's position: %s", c.name, all)
	}
	if c.index != "" && !strings.Contains(all, "INDEX "+c.index+" ") && !strings.HasSuffix(all, "INDEX "+c.index) {
		t.Errorf("%s does not use %s: %s", c.name, c.index, all)
	}
}

// TestLiveSubscriptionsPlan: with 2,000 Runs, each with a push config,
// before and after ANALYZE, the copy's refresh (ListLiveSubscriptions)
// reads the live configs from webhook_subscriptions_live, probing each
// one's Run by its key, and the tenant's own subscriptions through
// webhook_subscriptions_run: it scans neither the retired configs nor the
// Runs. Retiring reads only the live configs too, and a Run's deletion
// finds its configs through webhook_subscriptions_run.
func TestLiveSubscriptionsPlan(t *testing.T) {
	raw := planDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, q := range []string{fillPlanRuns, `INSERT INTO webhook_subscriptions (` + subscriptionColumns + `)
		SELECT tenant, 'a2a-' || run_id || '-c', 'https://example.com', '["a2a.task"]', '', 1, '', x'7b7d', 1, 1, run_id FROM runs`} {
		if _, err := raw.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	live := planCase{name: "ListLiveSubscriptions", query: liveSubscriptionsSQL(3), args: []any{"QUEUED", "RUNNING", "SUSPENDED"}}
	del := planCase{name: "a Run's deletion", query: deleteRunSubscriptionsSQL, args: []any{"run_000001", "default"}}
	for _, stats := range []string{"no statistics", "analyzed"} {
		if stats == "analyzed" {
			if _, err := raw.ExecContext(ctx, `ANALYZE`); err != nil {
				t.Fatal(err)
			}
		}
		t.Run(stats, func(t *testing.T) {
			plan := strings.Join(explain(ctx, t, raw, live), "; ")
			// The live configs are a scan of their partial index, each
			// Run's state a primary-key probe: no other scan.
			const liveScan = "SCAN s USING INDEX webhook_subscriptions_live"
			for _, want := range []string{liveScan, "SEARCH r EXISTS USING INDEX sqlite_autoindex_runs_1 (tenant=? AND run_id=?)", "SEARCH webhook_subscriptions USING INDEX webhook_subscriptions_run (run_id=?)"} {
				if !strings.Contains(plan, want) {
					t.Errorf("the plan lacks %q: %s", want, plan)
				}
			}
			if strings.Contains(strings.ReplaceAll(plan, liveScan, ""), "SCAN ") {
				t.Errorf("the plan scans: %s", plan)
			}
			retire := strings.Join(explain(ctx, t, raw, planCase{query: retireSubscriptionsSQL(3), args: []any{"QUEUED", "RUNNING", "SUSPENDED"}}), "; ")
			if retire != "SCAN s USING INDEX webhook_subscriptions_live; CORRELATED SCALAR SUBQUERY 1; SEARCH r USING INDEX sqlite_autoindex_runs_1 (tenant=? AND run_id=?)" {
				t.Errorf("retiring reads: %s", retire)
			}
			if plan := strings.Join(explain(ctx, t, raw, del), "; "); plan != "SEARCH webhook_subscriptions USING INDEX webhook_subscriptions_run (run_id=? AND tenant=?)" {
				t.Errorf("%s's configs are found by: %s", del.name, plan)
			}
			if plan := strings.Join(explain(ctx, t, raw, planCase{query: followedSQL}), "; "); !strings.Contains(plan, "SEARCH webhook_subscriptions USING INDEX webhook_subscriptions_run (run_id>?)") {
				t.Errorf("whether a config is stored is found by: %s", plan)
			}
		})
	}
}
