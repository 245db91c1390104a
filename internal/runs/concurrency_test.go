package runs_test

import (
	"errors"
	"testing"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/spec"
)

// startKeyed starts a Run of Spec name with input and the start's key.
func (h *harness) startKeyed(t *testing.T, name, input, key string) (runs.Run, error) {
	t.Helper()
	run, _, err := h.m.Start(ctxOf(t), runs.StartRequest{Tenant: tenant, Spec: name, Input: input, ConcurrencyKey: key})
	return run, err
}

func (h *harness) publishKeyed(t *testing.T, name, mode string) {
	t.Helper()
	h.publish(t, spec.Spec{Name: name, Model: spec.Model{Provider: spec.ProviderScripted, Script: []spec.Turn{{Text: "ok"}}},
		Concurrency: &spec.Concurrency{Key: "input.ticket", Limit: 1, Mode: mode}})
}

// TestConcurrencyModes: each mode over the limit, the key and the place
// GetRun shows, and an input without the key's field not limited.
func TestConcurrencyModes(t *testing.T) {
	h := newHarness(t)
	h.publishKeyed(t, "queue", spec.ConcurrencyQueue)
	h.publishKeyed(t, "reject", spec.ConcurrencyReject)
	h.publishKeyed(t, "replace", spec.ConcurrencyReplace)
	const ticket = `{"ticket": "T-1"}`

	holder, _ := h.startKeyed(t, "queue", ticket, "")
	second, _ := h.startKeyed(t, "queue", ticket, "")
	third, _ := h.startKeyed(t, "queue", ticket, "")
	if holder.ConcurrencyKey != "input.ticket=T-1" || h.get(t, holder.RunID).ConcurrencyPlace != 0 {
		t.Fatalf("holder = key %q, place %d", holder.ConcurrencyKey, h.get(t, holder.RunID).ConcurrencyPlace)
	}
	if got := h.get(t, third.RunID); got.ConcurrencyPlace != 2 || got.WaitingOn != "concurrency:input.ticket=T-1" || got.WaitingSince.IsZero() {
		t.Fatalf("third = place %d, waiting on %q since %v; want place 2 on the key", got.ConcurrencyPlace, got.WaitingOn, got.WaitingSince)
	}
	if _, err := h.startKeyed(t, "reject", ticket, ""); !isA[*errs.ConcurrencyLimited](err) {
		t.Fatalf("a REJECT start over the limit = %v; want ConcurrencyLimited", err)
	}
	if run, err := h.startKeyed(t, "reject", `{"other": 1}`, ""); err != nil || run.ConcurrencyKey != "" {
		t.Fatalf("a start without the key's field = key %q, %v; want no key, started", run.ConcurrencyKey, err)
	}
	replacing, _ := h.startKeyed(t, "replace", ticket, "")
	for _, id := range []string{second.RunID, third.RunID} {
		if got := h.get(t, id); got.Status != runlog.StatusAborted || got.AbortCause != runlog.CauseReplaced {
			t.Errorf("waiting run %s after a REPLACE start = %s (%s); want ABORTED, REPLACED", id, got.Status, got.AbortCause)
		}
	}
	if got := h.get(t, holder.RunID); got.Settled() {
		t.Errorf("the holder settled (%s); a REPLACE start replaces only waiting Runs", got.Status)
	}
	if got := h.get(t, replacing.RunID); got.ConcurrencyPlace != 1 {
		t.Errorf("the replacing run's place = %d; want 1", got.ConcurrencyPlace)
	}
	h.finish(t, holder.RunID, 1)
	if got := h.get(t, replacing.RunID); got.ConcurrencyPlace != 0 || got.WaitingOn != "" {
		t.Errorf("after the holder settled, the replacing run = place %d, waiting on %q; want its slot", got.ConcurrencyPlace, got.WaitingOn)
	}
}

// TestConcurrencyStartKey: a start's own key limits a Spec without
// concurrency, and bad key fields are refused all at once.
func TestConcurrencyStartKey(t *testing.T) {
	h := newHarness(t)
	first, _ := h.startKeyed(t, "s", "a", "user:ann")
	second, _ := h.startKeyed(t, "s", "b", "user:ann")
	if first.ConcurrencyKey != "user:ann" || h.get(t, second.RunID).ConcurrencyPlace != 1 {
		t.Fatalf("start keys = %q, second place %d", first.ConcurrencyKey, h.get(t, second.RunID).ConcurrencyPlace)
	}
	_, _, err := h.m.Start(ctxOf(t), runs.StartRequest{Tenant: tenant, Spec: "s", ConcurrencyKey: string(make([]byte, 300)), ConcurrencyLimit: -1})
	var bad *errs.InvalidRequest
	if !errors.As(err, &bad) || len(bad.Violations) != 2 {
		t.Fatalf("bad key fields = %v; want InvalidRequest with both", err)
	}
}

// TestConcurrencyChildOfTheKey: a delegated child of the key's holder,
// with the same key, takes no slot (it would wait for its parent's).
func TestConcurrencyChildOfTheKey(t *testing.T) {
	h := newHarness(t)
	h.publishKeyed(t, "queue", spec.ConcurrencyQueue)
	parent, _ := h.startKeyed(t, "queue", `{"ticket": "T-1"}`, "")
	child, _, err := h.m.Start(ctxOf(t), runs.StartRequest{Tenant: tenant, Spec: "queue", Input: `{"ticket": "T-1"}`,
		Parent: &runs.Parent{RunID: parent.RunID, RootRunID: parent.RunID, DelegationID: "del_1", Depth: 1}})
	if err != nil || child.ConcurrencyKey != "" {
		t.Fatalf("child = key %q, %v; want no key", child.ConcurrencyKey, err)
	}
}
