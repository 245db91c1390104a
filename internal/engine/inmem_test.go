package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/engine"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/memory"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/model/scripted"
	"github.com/runsvc/runsvc/internal/policy"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/spec/versions"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/sqlite"
	"github.com/runsvc/runsvc/internal/store/sqlite/sqlitetest"
)

// core is the engine and the Run manager wired on the tests' SQLite store and
// a fake clock, with no gRPC server: the agent loop alone.
type core struct {
	clock *clock.Fake
	store *sqlite.DB
	specs *versions.Registry
	runs  *runs.Manager
}

var coreStart = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

func startCore(t *testing.T) *core {
	t.Helper()
	errs.SetFailureEncoder(errdetails.StoredFailure)
	clk := clock.NewFake(coreStart)
	db := sqlitetest.Open(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	reg := versions.New(db, clk, versions.Options{})
	cfg := engine.Config{WorkerID: "core", PollInterval: time.Second, RetryBase: 10 * time.Millisecond, RetryMax: 100 * time.Millisecond}
	slots := engine.NewSlots(cfg)
	mgr := runs.New(runs.Deps{Store: db, Specs: reg, Policy: policy.AllowAll{}, Clock: clk, Log: log, Local: slots})
	writer := mgr.Writer()
	eng := engine.New(engine.Deps{
		Store: db, Writer: writer, Runs: mgr, Specs: reg, Models: model.Providers{spec.ProviderScripted: scripted.New(clk)},
		Memory: memory.New(db, clk), Clock: clk, Log: log,
		Slots: slots,
	}, cfg)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); eng.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	return &core{clock: clk, store: db, specs: reg, runs: mgr}
}

func (c *core) publish(t *testing.T, s spec.Spec) {
	t.Helper()
	if _, _, err := c.specs.Publish(context.Background(), store.DefaultTenant, s); err != nil {
		t.Fatalf("publishing %s: %v", s.Name, err)
	}
}

func (c *core) start(t *testing.T, name, input string) string {
	t.Helper()
	run, _, err := c.runs.Start(context.Background(), runs.StartRequest{Tenant: store.DefaultTenant, Spec: name, Input: input})
	if err != nil {
		t.Fatalf("starting %s: %v", name, err)
	}
	return run.RunID
}

// settled waits for a Run to settle, moving the fake clock on whenever
// the engine sleeps (backoff, polling), so no test waits for real time.
func (c *core) settled(t *testing.T, runID string) runs.Run {
	t.Helper()
	stop := time.Now().Add(10 * time.Second)
	for time.Now().Before(stop) {
		run, err := c.runs.Get(context.Background(), store.DefaultTenant, runID)
		if err != nil {
			t.Fatal(err)
		}
		if run.Settled() {
			return run
		}
		if c.clock.Waiters() > 0 {
			c.clock.Advance(10 * time.Millisecond)
		}
		time.Sleep(200 * time.Microsecond)
	}
	t.Fatalf("run %s did not settle", runID)
	return runs.Run{}
}

// finished returns a Run's tool call results, folded from its log.
func (c *core) finished(t *testing.T, runID string) []*runlog.ToolCallFinished {
	t.Helper()
	recs, err := c.store.ReadLog(context.Background(), store.DefaultTenant, runID, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []*runlog.ToolCallFinished
	for _, r := range recs {
		op, err := runlog.Decode(r.Kind, r.Body)
		if err != nil {
			t.Fatal(err)
		}
		if f, ok := op.(*runlog.ToolCallFinished); ok {
			out = append(out, f)
		}
	}
	return out
}

func scriptedSpec(name string, limits spec.Limits, turns ...spec.Turn) spec.Spec {
	return spec.Spec{
		Name: name, Model: spec.Model{Provider: spec.ProviderScripted, Script: turns}, Limits: limits,
		Tools: []spec.Tool{{Name: "memory_set", Kind: spec.KindBuiltin}},
	}
}

// toolless is a scripted Spec without tools, whose calls reserve little.
func toolless(name string, limits spec.Limits, turns ...spec.Turn) spec.Spec {
	s := scriptedSpec(name, limits, turns...)
	s.Tools = nil
	return s
}

func set(key string, value int) spec.ScriptCall {
	args, _ := json.Marshal(map[string]any{"key": key, "value": value})
	return spec.ScriptCall{Name: "memory_set", Arguments: args}
}

// TestAgentLoopOnTheInMemoryStore runs the agent loop's outcomes (answer,
// tool rounds, circuit breaker, budgets, transient retries) with no
// database and no server.
func TestAgentLoopOnTheInMemoryStore(t *testing.T) {
	c := startCore(t)
	tests := []struct {
		name       string
		spec       spec.Spec
		state      runlog.Status
		reason     string
		message    string
		retryable  bool
		toolCalls  int
		modelCalls int
		retries    int
	}{
		{name: "answers", spec: scriptedSpec("answers", spec.Limits{}, spec.Turn{Text: "done"}), state: runlog.StatusCompleted, modelCalls: 1},
		{name: "tool round", spec: scriptedSpec("round", spec.Limits{}, spec.Turn{ToolCalls: []spec.ScriptCall{set("a", 1), set("b", 2)}}, spec.Turn{Text: "stored"}),
			state: runlog.StatusCompleted, toolCalls: 2, modelCalls: 2},
		{name: "circuit breaker", spec: scriptedSpec("loop", spec.Limits{MaxToolRounds: 2},
			spec.Turn{ToolCalls: []spec.ScriptCall{set("a", 1), set("b", 2)}}, spec.Turn{ToolCalls: []spec.ScriptCall{set("c", 3)}}, spec.Turn{Text: "never"}),
			state: runlog.StatusFailed, reason: "TOOL_LOOP_LIMIT", message: "Circuit breaker triggered: 3 tool calls exceeded max_tool_rounds (2)", toolCalls: 2, modelCalls: 2},
		{name: "token overrun", spec: toolless("overrun", spec.Limits{TokenBudget: 40}, spec.Turn{Text: "long", Usage: spec.Usage{InputTokens: 50, OutputTokens: 10}}),
			state: runlog.StatusFailed, reason: "BUDGET_OVERRUN", message: "Token budget exceeded: 60 tokens used, budget is 40", retryable: true, modelCalls: 1},
		{name: "transient retries recover", spec: scriptedSpec("recovers", spec.Limits{TransientRetryBudget: 3}, spec.Turn{Text: "ok", Fail: &spec.Failure{HTTPStatus: 503, Times: 2}}),
			state: runlog.StatusCompleted, modelCalls: 3, retries: 2},
		{name: "transient budget spent", spec: scriptedSpec("spent", spec.Limits{TransientRetryBudget: 2}, spec.Turn{Text: "ok", Fail: &spec.Failure{HTTPStatus: 429, RetryAfter: 50 * time.Millisecond, Times: 9}}),
			state: runlog.StatusFailed, reason: "INFERENCE_RATE_LIMITED", retryable: true, modelCalls: 3, retries: 2},
	}
	for _, tc := range tests {
		c.publish(t, tc.spec)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := c.settled(t, c.start(t, tc.spec.Name, "go"))
			if run.Status != tc.state {
				t.Fatalf("state %s failure %+v, want %s", run.Status, run.Failure, tc.state)
			}
			f := run.Failure
			switch {
			case tc.reason == "" && f != nil:
				t.Errorf("failure %+v, want none", f)
			case tc.reason != "" && (f == nil || f.Reason != tc.reason || f.Retryable != tc.retryable || (tc.message != "" && f.Message != tc.message)):
				t.Errorf("failure %+v, want %s %q retryable=%t", f, tc.reason, tc.message, tc.retryable)
			}
			if n := len(c.finished(t, run.RunID)); n != tc.toolCalls {
				t.Errorf("%d tool calls finished, want %d", n, tc.toolCalls)
			}
			if u := run.Usage; u.ModelCalls != tc.modelCalls || u.TransientRetries != tc.retries {
				t.Errorf("usage %+v, want %d model calls and %d retries", u, tc.modelCalls, tc.retries)
			}
		})
	}
}

// TestRunManagerOnTheInMemoryStore exercises the Run manager's outside
// writes (idempotent start, resume refusal, interrupt) with no server.
func TestRunManagerOnTheInMemoryStore(t *testing.T) {
	c := startCore(t)
	ctx := context.Background()
	c.publish(t, spec.Spec{
		Name: "asks", Model: spec.Model{Provider: spec.ProviderScripted, Script: []spec.Turn{{ToolCalls: []spec.ScriptCall{{Name: "lookup"}}}, {Text: "thanks"}}},
		Tools: []spec.Tool{{Name: "lookup", Kind: spec.KindClient}},
	})
	t.Run("idempotent start", func(t *testing.T) {
		req := runs.StartRequest{Tenant: store.DefaultTenant, Spec: "asks", Input: "q", RequestID: "req-1"}
		first, created, err := c.runs.Start(ctx, req)
		if err != nil || !created {
			t.Fatalf("first start: created %t, %v", created, err)
		}
		again, created, err := c.runs.Start(ctx, req)
		if err != nil || created || again.RunID != first.RunID {
			t.Fatalf("second start: %s created %t, %v; want %s again", again.RunID, created, err, first.RunID)
		}
		req.Input = "other"
		var reused *errs.RequestIDReused
		if _, _, err := c.runs.Start(ctx, req); !errors.As(err, &reused) {
			t.Fatalf("another body under the same id: %v, want RequestIDReused", err)
		}
	})
	t.Run("resume refused while running, then interrupt", func(t *testing.T) {
		runID := c.start(t, "asks", "q")
		var run runs.Run
		for stop := time.Now().Add(10 * time.Second); time.Now().Before(stop); time.Sleep(time.Millisecond) {
			run, _ = c.runs.Get(ctx, store.DefaultTenant, runID)
			if run.Status == runlog.StatusSuspended {
				break
			}
		}
		if run.Status != runlog.StatusSuspended {
			t.Fatalf("state %s, want SUSPENDED on the client tool", run.Status)
		}
		var bad *errs.InvalidRequest
		notAResult := "not a tool result"
		if _, err := c.runs.Resume(ctx, store.DefaultTenant, runID, runs.Resume{Answer: &notAResult}); !errors.As(err, &bad) {
			t.Errorf("resume with the wrong answer: %v, want InvalidRequest", err)
		}
		if _, err := c.runs.Interrupt(ctx, store.DefaultTenant, runID, "enough"); err != nil {
			t.Fatal(err)
		}
		if run := c.settled(t, runID); run.Status != runlog.StatusAborted || run.AbortCause != runlog.CauseInterrupted {
			t.Fatalf("state %s cause %s, want ABORTED INTERRUPTED", run.Status, run.AbortCause)
		}
		var notSuspended *errs.RunNotSuspended
		if _, err := c.runs.Resume(ctx, store.DefaultTenant, runID, runs.Resume{}); !errors.As(err, &notSuspended) {
			t.Errorf("resume after settling: %v, want RunNotSuspended", err)
		}
	})
}
