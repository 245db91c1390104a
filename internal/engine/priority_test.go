package engine_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"testing"
	"time"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/engine"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/model/scripted"
	"github.com/runsvc/runsvc/internal/policy"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/spec/versions"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/sqlite"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestSaturatedWorkerStartsByPriorityThenFairly queues Runs for a worker
// of one slot (saturated by the first): the priority-5 Run started last
// runs before every waiting lower-priority Run; among equal priorities
// the keys take turns, so the small key's two Runs run among the first
// of the big key's six, not after them; priority 1 runs last.
func TestSaturatedWorkerStartsByPriorityThenFairly(t *testing.T) {
	errs.SetFailureEncoder(errdetails.StoredFailure)
	db, err := sqlite.Open(t.TempDir(), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	ctx := context.Background()
	clk, log := clock.Real{}, slog.New(slog.NewTextHandler(io.Discard, nil))
	reg := versions.New(db, clk, versions.Options{})
	mgr := runs.New(runs.Deps{Store: db, Specs: reg, Policy: policy.AllowAll{}, Clock: clk, Log: log})
	sp := spec.Spec{Name: "one-turn", Instructions: "Answer.", Model: spec.Model{Provider: spec.ProviderScripted, Script: []spec.Turn{{Text: "Done."}}}}
	if _, _, err := reg.Publish(ctx, store.DefaultTenant, sp); err != nil {
		t.Fatal(err)
	}
	var ids []string
	start := func(id string, priority int, key string) {
		t.Helper()
		if _, _, err := mgr.Start(ctx, runs.StartRequest{Tenant: store.DefaultTenant, RunID: id, Spec: sp.Name, Input: id, Priority: priority, FairnessKey: key}); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	start("run_low", 1, "")
	for i := range 6 {
		start(fmt.Sprintf("run_big_%d", i), 0, "big")
	}
	start("run_small_0", 0, "small")
	start("run_small_1", 0, "small")
	start("run_high", 5, "")
	cfg := engine.Config{WorkerID: "one-slot", MaxConcurrent: 1}
	eng := engine.New(engine.Deps{Store: db, Writer: mgr.Writer(), Runs: mgr, Specs: reg,
		Models: model.Providers{spec.ProviderScripted: scripted.New(clk)}, Clock: clk, Log: log}, cfg)
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); eng.Run(runCtx) }()
	t.Cleanup(func() { cancel(); <-done })
	settled := map[string]time.Time{}
	for _, id := range ids {
		got, err := mgr.WaitSettled(ctx, store.DefaultTenant, id, 30*time.Second)
		if err != nil || !got.Settled() {
			t.Fatalf("run %s: %v, settled %v", id, err, got.Settled())
		}
		settled[id] = got.SettleTime
	}
	order := slices.Clone(ids)
	slices.SortFunc(order, func(a, b string) int { return settled[a].Compare(settled[b]) })
	if order[0] != "run_high" || order[len(order)-1] != "run_low" {
		t.Errorf("ran %v: want run_high first and run_low last", order)
	}
	for _, id := range []string{"run_small_0", "run_small_1"} {
		if i := slices.Index(order, id); i > 5 {
			t.Errorf("%s ran %dth, behind the big key's Runs: %v", id, i+1, order)
		}
	}
}

// TestDelegatedChildQueuesAsItsParent: a child Run a delegation starts
// takes its parent's priority and fairness key.
func TestDelegatedChildQueuesAsItsParent(t *testing.T) {
	srv := testserver.Start(t)
	ctx := testserver.Context(t)
	srv.Publish(t, `{"name": "analyst", "model": {"provider": "scripted", "script": {"turns": [{"text": "fine"}]}}}`)
	srv.Publish(t, `{"name": "lead", "delegates": ["analyst"], "model": {"provider": "scripted", "script": {"turns": [
	   {"toolCalls": [{"name": "delegate", "arguments": {"to": "analyst", "task": "check"}}]}, {"text": "done"}]}}}`)
	started, err := srv.Runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "lead", Input: "go", Priority: 5, FairnessKey: "team-a"})
	if err != nil {
		t.Fatal(err)
	}
	parent := srv.Settled(t, started.GetRun().GetRunId())
	children, err := srv.Runs.ListRuns(ctx, &runsvcv1.ListRunsRequest{ParentRunId: parent.GetRunId()})
	if err != nil || len(children.GetRuns()) != 1 {
		t.Fatalf("children %v, %v", children, err)
	}
	if c := children.GetRuns()[0]; c.GetPriority() != 5 || c.GetFairnessKey() != "team-a" {
		t.Errorf("child has priority %d, key %q; want its parent's 5, team-a", c.GetPriority(), c.GetFairnessKey())
	}
}
