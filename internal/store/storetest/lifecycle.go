package storetest

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
)

var settledStates = []string{"COMPLETED", "FAILED", "ABORTED", "ABANDONED"}

func runLifecycle(t *testing.T, open Opener) {
	t.Run("DeleteRunsWholeAndConditional", func(t *testing.T) { testDeleteRuns(t, open(t)) })
	t.Run("ExpiredRunsKeepActiveParentsChildren", func(t *testing.T) { testExpiredRuns(t, open(t)) })
}

// settledRun is a Run created settled, updated at t0+age.
func settledRun(id, parent, state string, at time.Duration) store.NewRun {
	nr := newRun(id, false)
	nr.ParentRunID, nr.Index.State, nr.CreateTime = parent, state, t0.Add(at)
	nr.Records = []store.Record{rec(1, "admitted"), rec(2, "settled")}
	nr.Index.Settled, nr.Ends = true, true
	return nr
}

func testDeleteRuns(t *testing.T, s store.Store) {
	c := ctx(t)
	parent := settledRun("run_p", "", "COMPLETED", 0)
	parent.RequestID, parent.RequestHash = "req-1", "h1"
	mustCreate(t, s, parent)
	mustCreate(t, s, settledRun("run_c", "run_p", "COMPLETED", 0))
	mustCreate(t, s, settledRun("run_other", "", "COMPLETED", 0))
	for _, ns := range []string{"family/run_p", "family/run_other"} {
		if _, err := s.SetValue(c, tenant, ns, "k", []byte(`"secret"`), t0); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := s.EnqueueToolCall(c, store.ToolCall{Tenant: tenant, CallID: "run_p/c1", RunID: "run_p", Tool: "t", Arguments: []byte(`{}`), CreateTime: t0}); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name    string
		d       store.RunDeletion
		deleted []string
	}{
		{"log moved on", store.RunDeletion{Tenant: tenant, RunID: "run_p", LastSeq: 1}, nil},
		{"other tenant", store.RunDeletion{Tenant: "other", RunID: "run_p", LastSeq: 2}, nil},
		{"unknown run", store.RunDeletion{Tenant: tenant, RunID: "run_nope", LastSeq: 2}, nil},
		{"settled run", store.RunDeletion{Tenant: tenant, RunID: "run_p", LastSeq: 2, Namespaces: []string{"family/run_p"}}, []string{"run_p"}},
		{"again", store.RunDeletion{Tenant: tenant, RunID: "run_p", LastSeq: 2}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.DeleteRuns(c, []store.RunDeletion{tc.d})
			if err != nil || !slices.Equal(got, tc.deleted) {
				t.Fatalf("DeleteRuns = %v, %v; want %v", got, err, tc.deleted)
			}
		})
	}
	var nf *errs.RunNotFound
	if _, err := s.GetRun(c, tenant, "run_p"); !errors.As(err, &nf) {
		t.Errorf("GetRun after delete = %v, want RunNotFound", err)
	}
	if _, err := s.ReadLog(c, tenant, "run_p", 1, 0); !errors.As(err, &nf) {
		t.Errorf("ReadLog after delete = %v, want RunNotFound", err)
	}
	if _, found, err := s.GetToolCall(c, tenant, "run_p/c1"); err != nil || found {
		t.Errorf("GetToolCall after delete = found %v, %v", found, err)
	}
	if e, err := s.GetValues(c, tenant, "family/run_p", []string{"k"}); err != nil || len(e) != 0 {
		t.Errorf("owned memory after delete = %v, %v", e, err)
	}
	if e, err := s.GetValues(c, tenant, "family/run_other", []string{"k"}); err != nil || len(e) != 1 {
		t.Errorf("another Run's memory after delete = %v, %v", e, err)
	}
	if child, err := s.GetRun(c, tenant, "run_c"); err != nil || child.ParentRunID != "" {
		t.Errorf("child after its parent's delete = parent %q, %v", child.ParentRunID, err)
	}
	if list, _, err := s.ListRuns(c, tenant, store.RunQuery{ParentRunID: "run_p"}); err != nil || len(list) != 0 {
		t.Errorf("ListRuns(parent) after delete = %d, %v", len(list), err)
	}
	again := settledRun("run_p2", "", "COMPLETED", 0)
	again.RequestID, again.RequestHash = "req-1", "h2"
	if r, created, err := s.CreateRun(c, again); err != nil || !created || r.RunID != "run_p2" {
		t.Errorf("CreateRun with the deleted Run's request id = %s created %v, %v", r.RunID, created, err)
	}
	if err := s.Compact(c); err != nil {
		t.Errorf("Compact = %v", err)
	}
}

func testExpiredRuns(t *testing.T, s store.Store) {
	c := ctx(t)
	mustCreate(t, s, settledRun("run_old1", "", "COMPLETED", 0))
	mustCreate(t, s, settledRun("run_old2", "", "FAILED", time.Second))
	mustCreate(t, s, settledRun("run_new", "", "COMPLETED", time.Hour))
	active := newRun("run_active", false)
	active.Index.State = "RUNNING"
	mustCreate(t, s, active)
	mustCreate(t, s, settledRun("run_kept", "run_active", "COMPLETED", 0))
	mustCreate(t, s, settledRun("run_orphan", "run_gone", "COMPLETED", 2*time.Second))
	other := settledRun("run_v2", "", "COMPLETED", 0)
	other.Version = "v2"
	mustCreate(t, s, other)

	groups, err := s.SettledGroups(c, settledStates)
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(groups, func(a, b store.RunGroup) int { return strings.Compare(a.Version, b.Version) })
	if want := []store.RunGroup{{Tenant: tenant, Spec: "s", Version: "v1"}, {Tenant: tenant, Spec: "s", Version: "v2"}}; !slices.Equal(groups, want) {
		t.Errorf("SettledGroups = %v, want %v", groups, want)
	}
	for _, tc := range []struct {
		name  string
		limit int
		want  []string
	}{
		// run_kept's parent is active: it stays; run_orphan's is gone.
		{"all", 0, []string{"run_old1", "run_old2", "run_orphan"}},
		{"bounded", 2, []string{"run_old1", "run_old2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := store.ExpiryQuery{RunGroup: groups[0], Settled: settledStates, Before: t0.Add(time.Minute), Limit: tc.limit}
			got, err := s.ExpiredRuns(c, q)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, r := range got {
				ids = append(ids, r.RunID)
			}
			if !slices.Equal(ids, tc.want) {
				t.Errorf("ExpiredRuns = %v, want %v", ids, tc.want)
			}
		})
	}
}
