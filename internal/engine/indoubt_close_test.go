package engine_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/engine"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/logwriter"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/model/scripted"
	"github.com/runsvc/runsvc/internal/policy"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/spec/versions"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/sqlite/sqlitetest"
	"github.com/runsvc/runsvc/internal/tool"
)

// stuckTool is a tool call during which its process dies: it reports
// that it was made, then never answers.
type stuckTool struct{ calls chan string }

func (x stuckTool) Execute(ctx context.Context, c tool.Call) (json.RawMessage, error) {
	x.calls <- c.CallID
	<-ctx.Done()
	return nil, ctx.Err()
}

// TestInDoubtCloseStartsNothing: a worker dies during an at-most-once
// call; the Attempt that takes the Run over closes the call in doubt
// without making it, and writes only that close: the log has one
// tool_call_started for the call, the one of the Attempt that made it.
func TestInDoubtCloseStartsNothing(t *testing.T) {
	errs.SetFailureEncoder(errdetails.StoredFailure)
	db, log, clk := sqlitetest.Open(t), slog.New(slog.NewTextHandler(io.Discard, nil)), clock.Real{}
	reg := versions.New(db, clk, versions.Options{})
	mgr := runs.New(runs.Deps{Store: db, Specs: reg, Policy: policy.AllowAll{}, Clock: clk, Log: log})
	calls := make(chan string, 4)
	worker := func(s *crashing, id string) (stop func()) {
		eng := engine.New(engine.Deps{
			Store: s, Writer: logwriter.New(s, logwriter.Options{Clock: clk, Log: log}), Runs: mgr, Specs: reg, Models: model.Providers{spec.ProviderScripted: scripted.New(clk)},
			Tools: map[spec.Kind]tool.Executor{spec.KindWorker: stuckTool{calls: calls}}, Clock: clk, Log: log,
		}, engine.Config{WorkerID: id, PollInterval: 20 * time.Millisecond, LeaseTTL: 300 * time.Millisecond})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); eng.Run(ctx) }()
		return func() { cancel(); <-done }
	}
	sp := spec.Spec{
		Name:  "pay",
		Model: spec.Model{Provider: spec.ProviderScripted, Script: []spec.Turn{{ToolCalls: []spec.ScriptCall{{Name: "charge", Arguments: json.RawMessage(`{}`)}}}, {Text: "done"}}},
		Tools: []spec.Tool{{Name: "charge", Kind: spec.KindWorker, Delivery: spec.AtMostOnce}},
	}
	if _, _, err := reg.Publish(context.Background(), store.DefaultTenant, sp); err != nil {
		t.Fatal(err)
	}
	run, _, err := mgr.Start(context.Background(), runs.StartRequest{Tenant: store.DefaultTenant, Spec: "pay", Input: "go"})
	if err != nil {
		t.Fatal(err)
	}
	first := &crashing{Store: db}
	stop := worker(first, "w1")
	select {
	case <-calls:
	case <-time.After(20 * time.Second):
		t.Fatal("the call was never made")
	}
	first.dead.Store(true)
	stop()
	defer worker(&crashing{Store: db}, "w2")()
	var got runs.Run
	waitFor(t, func() bool {
		got, err = mgr.Get(context.Background(), store.DefaultTenant, run.RunID)
		return err == nil && got.Settled()
	})
	if got.Status != runlog.StatusCompleted || len(calls) != 0 {
		t.Fatalf("the Run ended %s (%v) after %d more calls, want COMPLETED after none", got.Status, got.Failed(), len(calls))
	}
	recs, err := db.ReadLog(context.Background(), store.DefaultTenant, run.RunID, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	var started, inDoubt int
	for _, r := range recs {
		op, err := runlog.Decode(r.Kind, r.Body)
		if err != nil {
			t.Fatal(err)
		}
		switch op := op.(type) {
		case *runlog.ToolCallStarted:
			started++
		case *runlog.ToolCallFinished:
			if op.InDoubt {
				inDoubt++
			}
		}
	}
	if started != 1 || inDoubt != 1 {
		t.Errorf("the log has %d tool_call_started and %d in-doubt closes, want 1 and 1", started, inDoubt)
	}
}
