package runs_test

import (
	"strings"
	"testing"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/store"
)

// TestStartQueueing: a start's priority and fairness key are kept on the
// Run (the defaults when it names none), and wrong ones are refused
// together, one violation each.
func TestStartQueueing(t *testing.T) {
	h := newHarness(t)
	ctx := ctxOf(t)
	tests := []struct {
		name         string
		priority     int
		key          string
		wantPriority int
		wantKey      string
	}{
		{"defaults", 0, "", store.DefaultPriority, tenant},
		{"named", 5, "team-a", 5, "team-a"},
		{"lowest", 1, "", 1, tenant},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run, _, err := h.m.Start(ctx, runs.StartRequest{Tenant: tenant, Spec: "s", Input: tt.name, Priority: tt.priority, FairnessKey: tt.key})
			if err != nil {
				t.Fatal(err)
			}
			got := h.get(t, run.RunID)
			if got.Priority != tt.wantPriority || got.FairnessKey != tt.wantKey {
				t.Errorf("Run has priority %d, key %q; want %d, %q", got.Priority, got.FairnessKey, tt.wantPriority, tt.wantKey)
			}
		})
	}
	_, _, err := h.m.Start(ctx, runs.StartRequest{Tenant: tenant, Spec: "s", Priority: 6, FairnessKey: strings.Repeat("k", runs.MaxFairnessKeyBytes+1)})
	bad, ok := err.(*errs.InvalidRequest)
	if !ok || len(bad.Violations) != 2 || bad.Violations[0].Field != "priority" || bad.Violations[1].Field != "fairness_key" {
		t.Fatalf("a start with priority 6 and a long key: %v, want INVALID_REQUEST on priority and fairness_key", err)
	}
}
