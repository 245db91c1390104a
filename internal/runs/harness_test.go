package runs_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/logwriter"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/spec/versions"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/sqlite"
)

// tenant is the tenant every test works in.
const tenant = store.DefaultTenant

// t0 is when every test's fake clock starts.
var t0 = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

// harness is a Manager on a real SQLite store in a temporary directory,
// with a fake clock and no engine: a test plays the worker by appending
// its Records itself (work, settle).
type harness struct {
	db  *sqlite.DB
	reg *versions.Registry
	m   *runs.Manager
	clk *clock.Fake
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	errs.SetFailureEncoder(errdetails.StoredFailure)
	db, err := sqlite.Open(t.TempDir(), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	clk := clock.NewFake(t0)
	reg := versions.New(db, clk, versions.Options{})
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	h := &harness{db: db, reg: reg, m: runs.New(runs.Deps{Store: db, Specs: reg, Clock: clk, Log: log}), clk: clk}
	h.publish(t, spec.Spec{Name: "s", Model: spec.Model{Provider: spec.ProviderScripted, Script: []spec.Turn{{Text: "ok"}}}})
	return h
}

func ctxOf(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// publish publishes s and returns its Version.
func (h *harness) publish(t *testing.T, s spec.Spec) *spec.Version {
	t.Helper()
	v, _, err := h.reg.Publish(ctxOf(t), tenant, s)
	if err != nil {
		t.Fatalf("publishing %s: %v", s.Name, err)
	}
	return v
}

// start starts a Run of Spec s with input, on thread (none when empty)
// with strategy, and fails the test on an error.
func (h *harness) start(t *testing.T, input, thread, strategy string) runs.Run {
	t.Helper()
	run, _, err := h.m.Start(ctxOf(t), runs.StartRequest{Tenant: tenant, Spec: "s", Input: input, ThreadID: thread, Strategy: strategy})
	if err != nil {
		t.Fatalf("starting a Run: %v", err)
	}
	return run
}

// append appends ops to a Run's log as its worker would, a second later
// on the fake clock.
func (h *harness) append(t *testing.T, runID string, ops ...runlog.Op) {
	t.Helper()
	h.clk.Advance(time.Second)
	if _, err := h.m.Writer().Mutate(ctxOf(t), tenant, runID, logwriter.Ops(ops...)); err != nil {
		t.Fatalf("appending to %s: %v", runID, err)
	}
}

// work makes a Run's first Attempt run turns: each but the last calls
// tool a once and gets its result; the last answers. The Run is left
// answered, not settled.
func (h *harness) work(t *testing.T, runID string, turns int) {
	t.Helper()
	ops := []runlog.Op{&runlog.AttemptStarted{Attempt: 1, WorkerID: "w"}}
	for turn := 1; turn <= turns; turn++ {
		ops = append(ops, &runlog.TurnStarted{Turn: turn}, &runlog.ModelCallStarted{Turn: turn})
		if turn == turns {
			ops = append(ops, &runlog.ModelCallFinished{Turn: turn, Text: "done"})
			break
		}
		id := "call_" + string(rune('0'+turn)) + "_0"
		ops = append(ops, &runlog.ModelCallFinished{Turn: turn, ToolCalls: []runlog.ToolCall{{ID: id, Name: "a", Arguments: json.RawMessage(`{}`)}}},
			&runlog.ToolCallStarted{CallID: id, Name: "a"}, &runlog.ToolCallFinished{CallID: id, Name: "a", Output: json.RawMessage(`"result"`)})
	}
	h.append(t, runID, ops...)
}

// finish works a Run for turns and settles it COMPLETED.
func (h *harness) finish(t *testing.T, runID string, turns int) {
	t.Helper()
	h.work(t, runID, turns)
	h.append(t, runID, &runlog.Settled{State: runlog.StatusCompleted, Answer: "done"})
}

// get reads a Run and fails the test on an error.
func (h *harness) get(t *testing.T, runID string) runs.Run {
	t.Helper()
	run, err := h.m.Get(ctxOf(t), tenant, runID)
	if err != nil {
		t.Fatalf("reading %s: %v", runID, err)
	}
	return run
}

// records reads a Run's log folded.
func (h *harness) records(t *testing.T, runID string) (*runlog.State, []runlog.Record) {
	t.Helper()
	st, recs, err := h.m.Writer().Load(ctxOf(t), tenant, runID)
	if err != nil {
		t.Fatalf("loading %s: %v", runID, err)
	}
	return st, recs
}

// isA reports whether err is (or wraps) an error of type E.
func isA[E error](err error) bool {
	var target E
	return errors.As(err, &target)
}
