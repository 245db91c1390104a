package engine_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/engine"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/model/scripted"
	"github.com/runsvc/runsvc/internal/policy"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/spec/versions"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/sqlite"
)

// fromSeqs notes where each ReadLog of a Run started.
type fromSeqs struct {
	store.Store
	mu    sync.Mutex
	reads map[string][]int64
}

func (s *fromSeqs) ReadLog(ctx context.Context, tenant, runID string, from int64, limit int) ([]store.Record, error) {
	s.mu.Lock()
	if s.reads == nil {
		s.reads = map[string][]int64{}
	}
	s.reads[runID] = append(s.reads[runID], from)
	s.mu.Unlock()
	return s.Store.ReadLog(ctx, tenant, runID, from, limit)
}

// since returns the reads of a Run's log since the last call.
func (s *fromSeqs) since(runID string) []int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.reads[runID]
	delete(s.reads, runID)
	return out
}

// attemptsEnded tells when an Attempt has ended, its State given back.
type attemptsEnded struct {
	ended chan string
}

func (o attemptsEnded) StartAttempt(ctx context.Context, a engine.AttemptInfo) (context.Context, func()) {
	return ctx, func() { o.ended <- a.RunID }
}
func (attemptsEnded) Attempting(ctx context.Context, _ engine.AttemptInfo) context.Context {
	return ctx
}
func (attemptsEnded) StartModelCall(ctx context.Context, _ engine.ModelCallInfo) (context.Context, func(model.Response, error)) {
	return ctx, func(model.Response, error) {}
}
func (attemptsEnded) StartToolCall(ctx context.Context, _ engine.ToolCallInfo) (context.Context, func(error)) {
	return ctx, func(error) {}
}
func (attemptsEnded) RunSettled(context.Context, engine.SettledInfo) {}
func (attemptsEnded) Retrying(context.Context, engine.RetryInfo)     {}

// TestAResumedTurnReadsOnlyWhatIsNew is issue 30's "the cost of a turn
// does not depend on how many came before it" at the log: once a Run
// suspended on a client tool, its resume and the Attempt that follows
// read only the Records stored after the suspension, never the log from
// its first Record (before, the Attempt kept the folded State and every
// resume folded the whole log again).
func TestAResumedTurnReadsOnlyWhatIsNew(t *testing.T) {
	errs.SetFailureEncoder(errdetails.StoredFailure)
	db, err := sqlite.Open(t.TempDir(), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	s := &fromSeqs{Store: db}
	ended := attemptsEnded{ended: make(chan string, 16)}
	clk, log := clock.Real{}, slog.New(slog.NewTextHandler(io.Discard, nil))
	reg := versions.New(s, clk, versions.Options{})
	cfg := engine.Config{WorkerID: "turns"}
	slots := engine.NewSlots(cfg)
	mgr := runs.New(runs.Deps{Store: s, Specs: reg, Policy: policy.AllowAll{}, Clock: clk, Log: log, Local: slots})
	writer := mgr.Writer()
	eng := engine.New(engine.Deps{
		Store: s, Writer: writer, Runs: mgr, Specs: reg, Models: model.Providers{spec.ProviderScripted: scripted.New(clk)},
		Clock: clk, Log: log, Observer: ended,
		Slots: slots,
	}, cfg)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); eng.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })

	const turns = 5
	sp := spec.Spec{Name: "ask-the-client", Instructions: "Ask every turn.", Tools: []spec.Tool{{Name: "lookup", Kind: spec.KindClient, Description: "Look up."}}}
	sp.Model = spec.Model{Provider: spec.ProviderScripted}
	for range turns {
		sp.Model.Script = append(sp.Model.Script, spec.Turn{ToolCalls: []spec.ScriptCall{{Name: "lookup", Arguments: json.RawMessage(`{}`)}}})
	}
	sp.Model.Script = append(sp.Model.Script, spec.Turn{Text: "Done."})
	if _, _, err := reg.Publish(ctx, store.DefaultTenant, sp); err != nil {
		t.Fatal(err)
	}
	const runID = "run_turns"
	if _, _, err := mgr.Start(ctx, runs.StartRequest{Tenant: store.DefaultTenant, RunID: runID, Spec: sp.Name, Input: "go"}); err != nil {
		t.Fatal(err)
	}
	for turn := 1; turn <= turns; turn++ {
		run := waitEnded(t, ctx, mgr, ended, runID)
		if run.Status != runlog.StatusSuspended || run.Suspension == nil || len(run.Suspension.CallIDs) != 1 {
			t.Fatalf("turn %d: run is %s, suspension %+v; want SUSPENDED on one call", turn, run.Status, run.Suspension)
		}
		if turn > 1 {
			if reads := s.since(runID); len(reads) == 0 || slices.Contains(reads, 1) {
				t.Errorf("turn %d read the log from %v, want only from after the suspension, never from 1", turn, reads)
			}
		}
		s.since(runID)
		results := []runlog.ToolResult{{CallID: run.Suspension.CallIDs[0], Output: json.RawMessage(`"ok"`)}}
		if _, err := mgr.Resume(ctx, store.DefaultTenant, runID, runs.Resume{Results: results}); err != nil {
			t.Fatalf("turn %d: %v", turn, err)
		}
	}
	if run := waitEnded(t, ctx, mgr, ended, runID); run.Status != runlog.StatusCompleted {
		t.Fatalf("the Run ended %s, want COMPLETED", run.Status)
	}
}

// waitEnded waits for the Run's Attempt to end (its State given back),
// then returns the Run.
func waitEnded(t *testing.T, ctx context.Context, mgr *runs.Manager, ended attemptsEnded, runID string) runs.Run {
	t.Helper()
	select {
	case <-ended.ended:
	case <-time.After(20 * time.Second):
		t.Fatal("no Attempt ended within 20s")
	}
	run, err := mgr.Wait(ctx, store.DefaultTenant, runID, 20*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return run
}
