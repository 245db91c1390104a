package storetest

import (
	"fmt"
	"sort"
	"testing"

	"github.com/runsvc/runsvc/internal/store"
)

// testCountRuns: CountRuns counts every tenant's Runs in the states asked
// for, by state and suspension, as CreateRun, Append and SetIndex last
// left each index; GetRun returns the suspension stored.
func testCountRuns(t *testing.T, s store.Store) {
	c := ctx(t)
	if got, err := s.CountRuns(c, []string{"QUEUED", "RUNNING", "SUSPENDED"}); err != nil || len(got) != 0 {
		t.Fatalf("CountRuns of an empty store = %v, %v", got, err)
	}
	approval := store.Index{State: "SUSPENDED", Suspension: "APPROVAL", Summary: []byte(`{"n":2}`)}
	for _, id := range []string{"run_q1", "run_q2", "run_r", "run_a1", "run_a2", "run_d", "run_done"} {
		mustCreate(t, s, newRun(id, true))
	}
	other := newRun("run_other", false)
	other.Tenant, other.Index = "other", store.Index{State: "SUSPENDED", Suspension: "QUESTION"}
	mustCreate(t, s, other)
	appendIndex(t, s, "run_r", store.Index{State: "RUNNING"})
	appendIndex(t, s, "run_a1", approval)
	appendIndex(t, s, "run_a2", approval)
	appendIndex(t, s, "run_done", store.Index{State: "COMPLETED", Settled: true})
	if err := s.SetIndex(c, tenant, "run_d", 1, store.Index{State: "SUSPENDED", Suspension: "IN_DOUBT"}, t0); err != nil {
		t.Fatal(err)
	}
	if run, err := s.GetRun(c, tenant, "run_a1"); err != nil || run.Index.Suspension != "APPROVAL" {
		t.Errorf("GetRun of a Run suspended for APPROVAL: suspension %q, %v", run.Index.Suspension, err)
	}
	cases := []struct {
		name   string
		states []string
		want   []string
	}{
		{"every unsettled state", []string{"QUEUED", "RUNNING", "SUSPENDED"},
			[]string{"QUEUED/=2", "RUNNING/=1", "SUSPENDED/APPROVAL=2", "SUSPENDED/IN_DOUBT=1", "SUSPENDED/QUESTION=1"}},
		{"suspended only", []string{"SUSPENDED"}, []string{"SUSPENDED/APPROVAL=2", "SUSPENDED/IN_DOUBT=1", "SUSPENDED/QUESTION=1"}},
		{"settled", []string{"COMPLETED"}, []string{"COMPLETED/=1"}},
		{"no state", nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.CountRuns(c, tc.states)
			if err != nil {
				t.Fatal(err)
			}
			if g, w := countStrings(got), fmt.Sprint(tc.want); g != w {
				t.Errorf("CountRuns(%v) = %s, want %s", tc.states, g, w)
			}
		})
	}
	t.Run("resumed", func(t *testing.T) {
		appendIndex(t, s, "run_a1", store.Index{State: "RUNNING"})
		got, err := s.CountRuns(c, []string{"RUNNING", "SUSPENDED"})
		if g, w := countStrings(got), "[RUNNING/=2 SUSPENDED/APPROVAL=1 SUSPENDED/IN_DOUBT=1 SUSPENDED/QUESTION=1]"; err != nil || g != w {
			t.Errorf("after a resume CountRuns = %s, %v; want %s", g, err, w)
		}
	})
}

// appendIndex appends one Record to a Run, leaving idx as its index.
func appendIndex(t *testing.T, s store.Store, runID string, idx store.Index) {
	t.Helper()
	run, err := s.GetRun(ctx(t), tenant, runID)
	if err != nil {
		t.Fatal(err)
	}
	r := rec(run.LastSeq+1, "x")
	if err := s.Append(ctx(t), store.Append{Tenant: tenant, RunID: runID, Records: []store.Record{r}, Index: idx}); err != nil {
		t.Fatalf("Append to %s: %v", runID, err)
	}
}

// countStrings renders counts as sorted "STATE/suspension=n".
func countStrings(counts []store.RunCount) string {
	out := []string{}
	for _, c := range counts {
		out = append(out, fmt.Sprintf("%s/%s=%d", c.State, c.Suspension, c.Count))
	}
	sort.Strings(out)
	if len(out) == 0 {
		return fmt.Sprint([]string(nil))
	}
	return fmt.Sprint(out)
}
