package engine

import (
	"context"
	"time"

	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/spec"
)

// Observer watches an Engine's work for metrics and traces. Each Start
// method returns the context the work runs in (a traced one, say) and a
// function to call once when the work ends. Observers must be quick and
// must not fail.
type Observer interface {
	// StartAttempt is called when a worker starts working on a Run.
	StartAttempt(ctx context.Context, a AttemptInfo) (context.Context, func())
	// Attempting is called before each step of an Attempt, once the Run's
	// log is read (so a carries TraceParent and Attempt), and returns the
	// context the step runs in.
	Attempting(ctx context.Context, a AttemptInfo) context.Context
	// StartModelCall is called before each model call.
	StartModelCall(ctx context.Context, c ModelCallInfo) (context.Context, func(model.Response, error))
	// StartToolCall is called before each tool call that runsvc executes.
	StartToolCall(ctx context.Context, c ToolCallInfo) (context.Context, func(error))
	// RunSettled is called when an Attempt settles its Run.
	RunSettled(ctx context.Context, r SettledInfo)
	// Retrying is called when a failed model or tool call is to be made
	// again after a backoff.
	Retrying(ctx context.Context, r RetryInfo)
}

// TakeoverObserver is an Observer that also hears of lease takeovers: an
// Attempt starting on a Run whose earlier Attempt died, leaving it neither
// settled nor suspended (a crashed, drained or cut-off worker's). An
// Attempt that continues a suspended Run (a resume, an answer, a timer)
// is no takeover. Optional, so that Observers need not implement it.
type TakeoverObserver interface {
	TookOver(ctx context.Context, a AttemptInfo)
}

// RetryInfo describes a call that failed and will be retried.
type RetryInfo struct {
	RunID string
	// What is "model" or "tool".
	What string
	// Err is the failure.
	Err error
}

// AttemptInfo describes an Attempt.
type AttemptInfo struct {
	Tenant, RunID, Worker string
	// TraceParent is the W3C trace context the Run was admitted under.
	TraceParent string
	// Attempt is the Attempt's number: over 1 after a takeover.
	Attempt int
}

// ModelCallInfo describes one model call.
type ModelCallInfo struct {
	RunID, Spec string
	Turn        int
	Model       spec.Model
}

// ToolCallInfo describes one tool call.
type ToolCallInfo struct {
	RunID, CallID, Name string
	Kind                spec.Kind
}

// SettledInfo describes a Run that settled.
type SettledInfo struct {
	RunID, Spec string
	// State is the Run's final state, such as "COMPLETED".
	State string
	// Alias and AliasSide are the alias the Run started on and the side
	// it took; empty for a Run started by name or Version.
	Alias, AliasSide string
	// Reason is the failure's reason; empty for a Run that completed.
	Reason string
	// Usage is what the Run spent; Took is from its creation to settling.
	Usage runlog.Usage
	Took  time.Duration
}

// nopObserver observes nothing.
type nopObserver struct{}

func (nopObserver) StartAttempt(ctx context.Context, _ AttemptInfo) (context.Context, func()) {
	return ctx, func() {}
}

func (nopObserver) Attempting(ctx context.Context, _ AttemptInfo) context.Context { return ctx }

func (nopObserver) StartModelCall(ctx context.Context, _ ModelCallInfo) (context.Context, func(model.Response, error)) {
	return ctx, func(model.Response, error) {}
}

func (nopObserver) StartToolCall(ctx context.Context, _ ToolCallInfo) (context.Context, func(error)) {
	return ctx, func(error) {}
}

func (nopObserver) RunSettled(context.Context, SettledInfo) {}

func (nopObserver) Retrying(context.Context, RetryInfo) {}

// Observers tells each of several Observers, in order; the context one
// returns is passed to the next.
type Observers []Observer

// StartAttempt implements Observer.
func (os Observers) StartAttempt(ctx context.Context, a AttemptInfo) (context.Context, func()) {
	ends := make([]func(), 0, len(os))
	for _, o := range os {
		var end func()
		ctx, end = o.StartAttempt(ctx, a)
		ends = append(ends, end)
	}
	return ctx, func() {
		for i := len(ends) - 1; i >= 0; i-- {
			ends[i]()
		}
	}
}

// Attempting implements Observer.
func (os Observers) Attempting(ctx context.Context, a AttemptInfo) context.Context {
	for _, o := range os {
		ctx = o.Attempting(ctx, a)
	}
	return ctx
}

// StartModelCall implements Observer.
func (os Observers) StartModelCall(ctx context.Context, c ModelCallInfo) (context.Context, func(model.Response, error)) {
	ends := make([]func(model.Response, error), 0, len(os))
	for _, o := range os {
		var end func(model.Response, error)
		ctx, end = o.StartModelCall(ctx, c)
		ends = append(ends, end)
	}
	return ctx, func(r model.Response, err error) {
		for i := len(ends) - 1; i >= 0; i-- {
			ends[i](r, err)
		}
	}
}

// StartToolCall implements Observer.
func (os Observers) StartToolCall(ctx context.Context, c ToolCallInfo) (context.Context, func(error)) {
	ends := make([]func(error), 0, len(os))
	for _, o := range os {
		var end func(error)
		ctx, end = o.StartToolCall(ctx, c)
		ends = append(ends, end)
	}
	return ctx, func(err error) {
		for i := len(ends) - 1; i >= 0; i-- {
			ends[i](err)
		}
	}
}

// RunSettled implements Observer.
func (os Observers) RunSettled(ctx context.Context, r SettledInfo) {
	for _, o := range os {
		o.RunSettled(ctx, r)
	}
}

// Retrying implements Observer.
func (os Observers) Retrying(ctx context.Context, r RetryInfo) {
	for _, o := range os {
		o.Retrying(ctx, r)
	}
}

// TookOver implements TakeoverObserver for those of os that do.
func (os Observers) TookOver(ctx context.Context, a AttemptInfo) {
	for _, o := range os {
		if t, ok := o.(TakeoverObserver); ok {
			t.TookOver(ctx, a)
		}
	}
}
