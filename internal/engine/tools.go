package engine

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/logwriter"
	"github.com/runsvc/runsvc/internal/policy"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/tool"
)

// offered lists the tools the model may call now: the Spec's, plus the
// implicit delegate tool, minus those the policy narrows away.
func (a *attempt) offered(ctx context.Context) []spec.Tool {
	var out []spec.Tool
	add := func(t spec.Tool) {
		if t.Kind == spec.KindBuiltin && len(t.Parameters) == 0 {
			t = builtinTool(t.Name, a.spec)
		}
		t = t.WithA2ADefaults()
		d := a.e.Policy.ToolCall(ctx, a.subject(), t.Name, nil)
		if d.Outcome != policy.Narrow {
			out = append(out, t)
		}
	}
	for _, t := range a.spec.Tools {
		add(t)
	}
	if _, ok := a.spec.Tool(spec.BuiltinDelegate); !ok && len(a.spec.Delegates) > 0 {
		add(builtinTool(spec.BuiltinDelegate, a.spec))
	}
	return out
}

func (a *attempt) subject() policy.Subject {
	return policy.Subject{Tenant: a.state.Admission.Tenant, Spec: a.spec.Name, RunID: a.state.RunID}
}

// toolCall answers the next call the model issued, in issue order.
func (a *attempt) toolCall(ctx context.Context, c *runlog.Call) error {
	limits := a.limits()
	if c.Ordinal > limits.MaxToolRounds {
		return a.exhausted(ctx, &errs.ToolLoopLimit{Calls: c.Ordinal, Max: limits.MaxToolRounds},
			DimensionToolRounds, float64(c.Ordinal-1), 1, float64(limits.MaxToolRounds))
	}
	decl, err := a.declared(c.Name)
	if err != nil {
		var names []string
		for _, t := range a.offered(ctx) {
			names = append(names, t.Name)
		}
		sort.Strings(names)
		return a.answer(ctx, c, decl, nil, &errs.ToolNotFound{Name: c.Name, Available: names})
	}
	if err := a.argumentsRejected(ctx, c, decl); err != nil {
		// The model's mistake, not the tool's failure: it sees why, even
		// for a raise_on_error tool, and nothing is called.
		lenient := decl
		lenient.RaiseOnError = false
		return a.answer(ctx, c, lenient, nil, err)
	}
	if a.state.Admission.Replay != nil {
		if handled, err := a.replayCall(ctx, c, decl); handled {
			return err
		}
	}
	switch {
	case decl.Kind == spec.KindClient:
		return a.clientCall(ctx, c, decl)
	case decl.Kind == spec.KindBuiltin && decl.Name == spec.BuiltinAskUser:
		return a.askUser(ctx, c, decl)
	case decl.Kind == spec.KindBuiltin && decl.Name == spec.BuiltinDelegate:
		return a.delegate(ctx, c, decl)
	case decl.Kind == spec.KindBuiltin && spec.IsTimer(decl.Name):
		return a.timerCall(ctx, c, decl)
	}
	if a.inDoubt(c, decl) {
		return a.resolveInDoubt(ctx, c, decl)
	}
	switch {
	case a.ahead.has(c.ID):
		// Started ahead: the policy allowed it then.
	case c.Approval == nil:
		var approval *errNeedsApproval
		switch err := a.e.toolPolicy(ctx, a.subject(), c.Name, c.Arguments); {
		case errors.As(err, &approval) && a.state.Admission.Replay != nil:
			return a.needsPerson(ctx, c, "the policy requires a person's approval for this call: "+approval.reason)
		case errors.As(err, &approval):
			return a.suspend(ctx, &runlog.Suspended{Reason: runlog.ReasonApproval, CallID: c.ID, ApprovalReason: approval.reason})
		case err != nil:
			return a.answer(ctx, c, decl, nil, err)
		}
	case !c.Approval.Approved:
		msg := "a person denied this call"
		if c.Approval.Note != "" {
			msg += ": " + c.Approval.Note
		}
		return a.answer(ctx, c, decl, nil, &errs.ToolRejected{Tool: c.Name, Message: msg})
	}
	return a.execute(ctx, c, decl)
}

// clientCall answers a client tool from the resume that supplied its
// result, or suspends for every client call of this response still
// waiting, so one resume answers them all.
func (a *attempt) clientCall(ctx context.Context, c *runlog.Call, decl spec.Tool) error {
	if res := c.Result; res != nil {
		if res.Error != nil {
			return a.answer(ctx, c, decl, nil, errs.ToolFailure(c.Name, res.Error.Message, res.Error.Retryable, 0))
		}
		out := res.Output
		if len(out) == 0 {
			out = json.RawMessage("null")
		}
		return a.answer(ctx, c, decl, out, nil)
	}
	var ids []string
	for _, other := range a.state.Calls {
		if other.Finished || other.Result != nil {
			continue
		}
		if t, err := a.declared(other.Name); err == nil && t.Kind == spec.KindClient && a.argumentsRejected(ctx, other, t) == nil {
			ids = append(ids, other.ID)
		}
	}
	return a.suspend(ctx, &runlog.Suspended{Reason: runlog.ReasonToolResults, CallIDs: ids})
}

func (a *attempt) askUser(ctx context.Context, c *runlog.Call, decl spec.Tool) error {
	if c.Answer != nil {
		out, _ := json.Marshal(*c.Answer)
		return a.answer(ctx, c, decl, out, nil)
	}
	var args struct {
		Question string `json:"question"`
	}
	if json.Unmarshal(c.Arguments, &args) != nil || args.Question == "" {
		return a.answer(ctx, c, decl, nil, &errs.ToolRejected{Tool: c.Name, Message: `ask_user needs {"question": "..."}`})
	}
	return a.suspend(ctx, &runlog.Suspended{Reason: runlog.ReasonQuestion, CallID: c.ID, Question: args.Question})
}

// suspend makes the Run wait and gives the lease back. Every reason but
// TIMER expires after the Spec's suspension_expiry for it; a TIMER ends at
// its wake time instead.
func (a *attempt) suspend(ctx context.Context, s *runlog.Suspended) error {
	exp := a.spec.Expiry.Effective()
	wait := map[runlog.Reason]time.Duration{
		runlog.ReasonToolResults: exp.ToolResults, runlog.ReasonApproval: exp.Approval,
		runlog.ReasonQuestion: exp.Question, runlog.ReasonChildren: exp.Children,
	}[s.Reason]
	if s.Reason != runlog.ReasonTimer {
		s.ExpireAt = a.e.Clock.Now().UTC().Add(wait)
	}
	if err := a.append(ctx, true, s); err != nil {
		return err
	}
	return errEndAttempt
}

// execute runs a call on its executor and records the outcome. A tool's
// own failure becomes its result (or fails the Run when the tool is
// raise_on_error); a failure to reach it is retried within the Run's retry
// budget. Once the call is recorded as started, the calls after it in the
// same response that may run beside it are started too (ahead.go); a call
// started so waits here for its own outcome.
func (a *attempt) execute(ctx context.Context, c *runlog.Call, decl spec.Tool) error {
	if decl.Kind == spec.KindA2A {
		return a.a2aCall(ctx, c, decl)
	}
	f := a.ahead.take(c.ID)
	if f == nil {
		var err error
		if f, err = a.prepare(ctx, c, decl); err != nil {
			return a.answer(ctx, c, decl, nil, err)
		}
	}
	if err := a.callStarted(ctx, c, decl); err != nil {
		f.abandon()
		return err
	}
	if !f.launched() {
		a.launch(ctx, f, c, decl)
		a.startAhead(ctx, c, decl)
	}
	flushed, _ := a.flushWhileCalling(ctx)
	f.wait()
	if ferr := flushed(); ferr != nil {
		return ferr
	}
	return a.landed(ctx, c, decl, f)
}

// elicited suspends the Run QUESTION on the question the call's tool
// asked: the try is recorded as failed (so the call is not in doubt, and
// is made again), and the resume's answer goes to the tool when it asks
// again. A tool asking once more after its answer gets a refusal: one
// question per call.
func (a *attempt) elicited(ctx context.Context, c *runlog.Call, decl spec.Tool, asked *tool.Asked) error {
	if c.Answer != nil {
		return a.answer(ctx, c, decl, nil, &errs.ToolRejected{Tool: c.Name, Message: "the tool asked another question after its first was answered; runsvc answers one question per call"})
	}
	stored := errs.Store(&errs.TransientFailure{Operation: "tool " + c.Name, Message: "the tool asked a question; the Run waits for its answer"}, "")
	if err := a.append(ctx, false, &runlog.ToolCallFailed{CallID: c.ID, Name: c.Name, Error: stored}); err != nil {
		return err
	}
	return a.suspend(ctx, &runlog.Suspended{Reason: runlog.ReasonQuestion, CallID: c.ID, Question: asked.Question})
}

// landed records how a call ended.
func (a *attempt) landed(ctx context.Context, c *runlog.Call, decl spec.Tool, f *flight) error {
	out, err := f.out, f.err
	switch {
	case err == nil:
		if len(out) == 0 {
			out = json.RawMessage("null")
		}
		return a.answer(ctx, c, decl, out, nil)
	case ctx.Err() != nil:
		return ctx.Err()
	case a.abortSeen():
		return nil // the loop closes the call as orphaned
	case f.timedOut && !a.e.Clock.Now().Before(a.state.Admission.Deadline):
		return nil // past the deadline and its grace: the loop closes it
	}
	var asked *tool.Asked
	if errors.As(err, &asked) {
		return a.elicited(ctx, c, decl, asked)
	}
	err = callOutcome(f)
	delay, retryable := errs.IsRetryable(err)
	if toolsOwn(err) || !retryable || errs.Typed(err) == nil {
		return a.answer(ctx, c, decl, nil, err)
	}
	stored := errs.Store(err, "")
	if a.state.Usage.TransientRetries < a.spec.Limits.Effective().TransientRetryBudget {
		wait := a.backoff(delay)
		a.log.Info("tool call failed; retrying", "callId", c.ID, "tool", c.Name, "after", wait, "err", err)
		a.e.Observer.Retrying(ctx, RetryInfo{RunID: a.state.RunID, What: "tool", Err: err})
		if err := a.append(ctx, false, &runlog.ToolCallFailed{CallID: c.ID, Name: c.Name, Error: stored, RetryAfter: wait}); err != nil {
			return err
		}
		return a.sleep(ctx, wait)
	}
	return a.settle(ctx, runlog.StatusFailed, "", "", err, &runlog.ToolCallFinished{CallID: c.ID, Name: c.Name, Error: &stored})
}

// prepare resolves what a call of the Run needs before it can be made
// (prepareCall). An error is the call's result.
func (a *attempt) prepare(ctx context.Context, c *runlog.Call, decl spec.Tool) (*flight, error) {
	if err := a.replayRefuses(c, decl); err != nil {
		return nil, err
	}
	call := tool.Call{
		Tenant: a.state.Admission.Tenant, RunID: a.state.RunID, CallID: c.ID, Name: c.Name,
		Arguments: c.Arguments, Tool: decl, Answer: c.Answer,
	}
	return a.e.prepareCall(ctx, a.site(), call, 0)
}

// site is the Run as the place its calls are made.
func (a *attempt) site() callSite {
	return callSite{tenant: a.state.Admission.Tenant, sv: a.spec, runID: a.state.RunID, family: a.state.Admission.RootRunID, log: a.log}
}

// launch gives a prepared call its deadline (its timeout, within the
// Run's deadline and orphan grace) and its observer, ready to be made.
func (a *attempt) launch(ctx context.Context, f *flight, c *runlog.Call, decl spec.Tool) {
	deadline := a.e.Clock.Now().Add(f.timeout)
	if limit := a.state.Admission.Deadline.Add(a.e.cfg.OrphanGrace); limit.Before(deadline) {
		deadline = limit
	}
	f.call.Deadline = deadline
	callCtx, cancel := a.opContext(ctx, deadline)
	callCtx, observed := a.e.Observer.StartToolCall(callCtx, ToolCallInfo{RunID: f.call.RunID, CallID: c.ID, Name: c.Name, Kind: decl.Kind})
	f.ctx, f.cancel, f.observed = callCtx, cancel, observed
}

// flushPendingAfter is how long a call runs with its start folded but not
// stored (a tool call's ToolCallStarted, or a model call's TurnStarted
// and ModelCallStarted, with the results before them) before they are
// stored anyway, so that watchers of a slow call see it start. The
// bench's worker-tool calls take 0.1-2 ms at c1-c16 and its scripted
// model calls less: most never need the flush; a real LLM's call takes
// longer, and its start is stored while it runs, not before.
const flushPendingAfter = 5 * time.Millisecond

// callStarted records that a call is being made. An at-most-once call's
// record is stored before the call: a crash must leave it in doubt, never
// made twice. An at-least-once call's is stored with the next append (or
// by flushWhileCalling): a crash before then makes the call again with the
// same call id, which it would be anyway. The model's answer that issued
// the call is always stored before it is made, so a crash never lets a new
// answer issue different calls under the same ids.
func (a *attempt) callStarted(ctx context.Context, c *runlog.Call, decl spec.Tool) error {
	op := &runlog.ToolCallStarted{CallID: c.ID, Name: c.Name}
	if decl.AtMostOnce() || a.w.PendingOp(isModelAnswer) {
		return a.append(ctx, false, op)
	}
	return a.later(op)
}

func isModelAnswer(op runlog.Op) bool {
	_, ok := op.(*runlog.ModelCallFinished)
	return ok
}

// flushWhileCalling stores the Attempt's pending Records if the call in
// flight is still running after flushPendingAfter, or when soon is called
// before then (a model call's first streamed piece, which watchers get
// only once its start is stored). flushed, called once the call returned
// and before anything else touches the Log, waits for such a store and
// returns how it failed (errEndAttempt when the Attempt must end).
func (a *attempt) flushWhileCalling(ctx context.Context) (flushed func() error, soon func()) {
	if !a.w.Pending() {
		return func() error { return nil }, func() {}
	}
	result := make(chan error, 1)
	store := func() {
		// The Log alone: the call may read a.state meanwhile, which
		// changes only once it returned.
		err := a.w.Append(ctx, false, logwriter.Ops())
		var conflict *errs.SeqConflict
		if errors.As(err, &conflict) {
			// Outsiders wrote again as it folded their Records in (a
			// message, then an interrupt): the Records stay pending,
			// folded after theirs, and go with the next append, which
			// the call's end makes anyway.
			err = nil
		}
		result <- err
	}
	// Real time, not the Engine's clock: how soon a watcher sees a call
	// start is not a matter of the Run's time. A timer's function, not a
	// goroutine waiting on it: most calls return first and stop it, and
	// then no goroutine was started at all (five calls per Run in the
	// bench's Runs phase).
	t := time.AfterFunc(flushPendingAfter, store)
	flushed = func() error {
		var err error
		if !t.Stop() {
			err = <-result // the store had begun: wait for it
		}
		a.state = a.w.State()
		return a.ended(err)
	}
	soon = func() {
		if t.Stop() {
			go store() // the timer will not fire now: store in its place
		}
	}
	return flushed, soon
}

// answer records a call's result. A failure is the result the model sees,
// unless the tool is raise_on_error: then it fails the Run.
func (a *attempt) answer(ctx context.Context, c *runlog.Call, decl spec.Tool, out json.RawMessage, failure error) error {
	var ops []runlog.Op
	if (a.state.Open == nil || a.state.Open.CallID != c.ID) && !a.inDoubt(c, decl) {
		// A call in doubt is closed as an earlier Attempt started it: it
		// is not made again, so it does not start again.
		ops = append(ops, &runlog.ToolCallStarted{CallID: c.ID, Name: c.Name})
	}
	done := &runlog.ToolCallFinished{CallID: c.ID, Name: c.Name, Output: out}
	if failure != nil {
		id := errs.NewErrorID()
		if errs.Typed(failure) == nil {
			a.log.Error("tool failed unexpectedly", "callId", c.ID, "tool", c.Name, "errorId", id, "err", failure)
		}
		stored := errs.Store(failure, id)
		done.Error, done.Output, done.InDoubt = &stored, nil, isInDoubt(failure)
	}
	ops = append(ops, done)
	if failure != nil && decl.RaiseOnError {
		if !toolsOwn(failure) && !isInDoubt(failure) && !mcpsOwn(failure) {
			failure = &errs.ToolRejected{Tool: c.Name, Message: failure.Error()}
		}
		return a.settle(ctx, runlog.StatusFailed, "", "", failure, ops...)
	}
	if decl.AtMostOnce() {
		// Stored now: a result lost to a crash would leave the call in doubt.
		return a.append(ctx, false, ops...)
	}
	return a.later(ops...)
}

// toolsOwn reports whether err is the tool's own answer (it ran and
// failed), which the model sees, rather than a failure to reach it.
func toolsOwn(err error) bool {
	var failed *errs.ToolFailed
	var rejected *errs.ToolRejected
	return errors.As(err, &failed) || errors.As(err, &rejected)
}

// mcpsOwn reports whether err is an MCP server's own failure, which a
// raise_on_error tool's Run fails with as it is (MCP_FAILED, MCP_REJECTED).
func mcpsOwn(err error) bool {
	var failed *errs.MCPFailed
	var rejected *errs.MCPRejected
	return errors.As(err, &failed) || errors.As(err, &rejected)
}
