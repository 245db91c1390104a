package engine

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/runsvc/runsvc/internal/policy"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/tool"
)

// A model that asks for several tools in one response means them to run
// together (OpenAI's parallel tool calls): the answers come back as one
// set. So when the first of a row of such calls starts, the calls after it
// that may run beside it start too, each on a goroutine of its own, and
// the loop takes their outcomes in issue order, exactly as if it had made
// them one after another: the Log is the same, Record for Record. Only
// at-least-once calls to worker, http and mcp tools start ahead, and only
// a row of them with nothing in between that could stop or suspend the
// Run (an at-most-once call, a raise_on_error tool, a call the policy
// does not simply allow, a client, builtin or delegate call, a call whose
// arguments fail their schema): a crash, an abort or a lost lease only
// drops calls that the next Attempt makes again, which at-least-once
// allows.

// flight is one tool call: prepared, launched, then made, on the
// Attempt's goroutine or, started ahead of its turn, on one of its own.
type flight struct {
	call    tool.Call
	run     func(context.Context, tool.Call) (json.RawMessage, error)
	timeout time.Duration

	ctx      context.Context
	cancel   context.CancelFunc
	observed func(error)

	// ahead is set for a call made on its own goroutine; done is closed
	// once the call returned.
	ahead bool
	done  chan struct{}

	out      json.RawMessage
	err      error
	timedOut bool
}

// launched reports whether the call has its deadline and observer.
func (f *flight) launched() bool { return f.ctx != nil }

// make makes the call and keeps how it returned.
func (f *flight) make() {
	f.out, f.err = f.run(f.ctx, f.call)
	f.observed(f.err)
	f.timedOut = errors.Is(f.ctx.Err(), context.DeadlineExceeded)
	f.cancel()
	close(f.done)
}

// wait returns once the call was made: now, on the caller's goroutine,
// unless it was started ahead.
func (f *flight) wait() {
	if !f.ahead {
		f.make()
		return
	}
	<-f.done
}

// abandon stops a call started ahead and waits until it returned; its
// outcome is dropped.
func (f *flight) abandon() {
	if f.ahead {
		f.cancel()
		<-f.done
	}
}

// aheadCalls are the calls of one response started before their turn, by
// call id. Only the Attempt's goroutine uses it.
type aheadCalls map[string]*flight

// take removes and returns the call started ahead under id, or nil.
func (h aheadCalls) take(id string) *flight {
	f := h[id]
	delete(h, id)
	return f
}

// has reports whether the call id was started ahead.
func (h aheadCalls) has(id string) bool { return h[id] != nil }

// stop abandons every call still started ahead: the Attempt is over.
func (h aheadCalls) stop() {
	for id, f := range h {
		f.abandon()
		delete(h, id)
	}
}

// startAhead starts the calls after c (a call to decl) in its response
// that may run beside it, up to the first one that may not. c itself has
// been recorded as started; the model's answer that issued them all is
// stored.
func (a *attempt) startAhead(ctx context.Context, c *runlog.Call, decl spec.Tool) {
	if !runsBeside(decl) {
		return
	}
	after := false
	for _, s := range a.state.Calls {
		if s == c {
			after = true
			continue
		}
		if !after || s.Finished || a.ahead.has(s.ID) {
			continue
		}
		decl, ok := a.mayStartAhead(ctx, s)
		if !ok {
			return
		}
		f, err := a.prepare(ctx, s, decl)
		if err != nil {
			return // its turn answers it with the failure
		}
		a.launch(ctx, f, s, decl)
		f.ahead = true
		if a.ahead == nil {
			a.ahead = aheadCalls{}
		}
		a.ahead[s.ID] = f
		go f.make()
	}
}

// mayStartAhead reports whether s may be made before its turn, and the
// tool it calls: a call that, in its turn, would go straight to its
// executor.
func (a *attempt) mayStartAhead(ctx context.Context, s *runlog.Call) (spec.Tool, bool) {
	if s.StartedAttempt != 0 || s.Approval != nil || s.Ordinal > a.limits().MaxToolRounds {
		return spec.Tool{}, false
	}
	decl, err := a.declared(s.Name)
	if err != nil || !runsBeside(decl) || a.argumentsRejected(ctx, s, decl) != nil {
		return spec.Tool{}, false
	}
	if d := a.e.Policy.ToolCall(ctx, a.subject(), s.Name, s.Arguments); d.Outcome != policy.Allow {
		return spec.Tool{}, false
	}
	return decl, true
}

// runsBeside reports whether calls to t may run beside other calls of
// the same response.
func runsBeside(t spec.Tool) bool {
	switch t.Kind {
	case spec.KindWorker, spec.KindHTTP, spec.KindMCP:
		return !t.AtMostOnce() && !t.RaiseOnError
	}
	return false
}
