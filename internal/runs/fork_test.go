package runs_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/store"
)

// rawLog is a Run's log as the store holds it, to compare byte for byte.
func (h *harness) rawLog(t *testing.T, runID string) []store.Record {
	t.Helper()
	recs, err := h.db.ReadLog(ctxOf(t), tenant, runID, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func sameLog(a, b []store.Record) bool {
	return slices.EqualFunc(a, b, func(x, y store.Record) bool {
		return x.Seq == y.Seq && x.Time.Equal(y.Time) && x.Attempt == y.Attempt && x.Kind == y.Kind && bytes.Equal(x.Body, y.Body)
	})
}

// TestForkAtTurnTwo: a Run forked at turn 2 of 3 starts from the source's
// state before turn 2's TurnStarted (its transcript holds turn 1's call
// and result, its origin names the source, the seq and the turn), waits
// for a worker, and the source's log is byte-identical before and after.
func TestForkAtTurnTwo(t *testing.T) {
	h := newHarness(t)
	src := h.start(t, "go", "", "")
	h.finish(t, src.RunID, 3)
	before := h.rawLog(t, src.RunID)

	fork, created, err := h.m.Fork(ctxOf(t), runs.ForkRequest{Tenant: tenant, RunID: src.RunID, Turn: 2})
	if err != nil || !created {
		t.Fatalf("Fork = created %v, %v", created, err)
	}
	if !sameLog(before, h.rawLog(t, src.RunID)) {
		t.Error("the source's log changed when it was forked")
	}
	st, recs := h.records(t, fork.RunID)
	origin := recs[0].Op.(*runlog.Admitted).Fork
	if origin == nil || origin.RunID != src.RunID || origin.Turn != 2 || before[origin.Seq-1].Kind != "turn_started" {
		t.Fatalf("fork origin %+v; want run %s turn 2 at a turn_started seq", origin, src.RunID)
	}
	var roles []string
	for _, m := range st.Transcript {
		roles = append(roles, m.Role)
	}
	if !slices.Equal(roles, []string{runlog.RoleUser, runlog.RoleAssistant, runlog.RoleTool}) {
		t.Errorf("the fork's transcript has roles %v, want turn 1's [user assistant tool]", roles)
	}
	if st.Status != runlog.StatusQueued || fork.Spec != src.Spec || fork.Version != src.Version {
		t.Errorf("fork is %s of %s@%s, want QUEUED of the source's %s@%s", st.Status, fork.Spec, fork.Version, src.Spec, src.Version)
	}
}

// TestForkRefusals: what Fork refuses, and that a repeated request with
// the same request id returns the same fork.
func TestForkRefusals(t *testing.T) {
	h := newHarness(t)
	ctx := ctxOf(t)
	older := h.get(t, h.start(t, "warm", "", "").RunID).Version
	src := h.start(t, "go", "", "")
	h.finish(t, src.RunID, 2)
	newer := h.publish(t, spec.Spec{Name: "s", Instructions: "v2", Model: spec.Model{Provider: spec.ProviderScripted, Script: []spec.Turn{{Text: "ok"}}}})
	newest := h.start(t, "later", "", "")
	h.finish(t, newest.RunID, 1)
	for _, tc := range []struct {
		name string
		req  runs.ForkRequest
		ok   func(error) bool
	}{
		{"unknown run", runs.ForkRequest{RunID: "run_missing", Turn: 1}, isA[*errs.RunNotFound]},
		{"no fork point", runs.ForkRequest{RunID: src.RunID}, isA[*errs.InvalidRequest]},
		{"a turn it never made", runs.ForkRequest{RunID: src.RunID, Turn: 9}, isA[*errs.InvalidRequest]},
		{"a seq inside a turn", runs.ForkRequest{RunID: src.RunID, AtSeq: 1}, isA[*errs.InvalidRequest]},
		{"an older version", runs.ForkRequest{RunID: newest.RunID, Turn: 1, Version: older}, isA[*errs.InvalidRequest]},
		{"a newer version", runs.ForkRequest{RunID: src.RunID, Turn: 2, Version: newer.Version, Input: "and then?"}, func(err error) bool { return err == nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.Tenant = tenant
			run, _, err := h.m.Fork(ctx, tc.req)
			if !tc.ok(err) {
				t.Fatalf("Fork: %v", err)
			}
			if err == nil && run.Version != newer.Version {
				t.Errorf("fork runs version %s, want %s", run.Version, newer.Version)
			}
		})
	}
	t.Run("same request id", func(t *testing.T) {
		req := runs.ForkRequest{Tenant: tenant, RunID: src.RunID, Turn: 2, RequestID: "fork-once"}
		first, _, err := h.m.Fork(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		again, created, err := h.m.Fork(ctx, req)
		if err != nil || created || again.RunID != first.RunID {
			t.Errorf("repeated fork: %v, created %v, run %s; want run %s not created", err, created, again.RunID, first.RunID)
		}
		req.Input = "other"
		if _, _, err := h.m.Fork(ctx, req); !isA[*errs.RequestIDReused](err) {
			t.Errorf("request id reused with another body: %v, want RequestIDReused", err)
		}
	})
}
