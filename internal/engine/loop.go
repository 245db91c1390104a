package engine

import (
	"context"
	"errors"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/live"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/secret"
	"github.com/runsvc/runsvc/internal/spec"
)

// step does the next thing the log calls for and reports whether the
// Attempt is over. It tells the Observer when the Run settles.
func (a *attempt) step(ctx context.Context) (bool, error) {
	info := AttemptInfo{Tenant: a.lease.Tenant, RunID: a.lease.RunID, Worker: a.e.cfg.WorkerID, Attempt: a.state.Attempt}
	if adm := a.state.Admission; adm != nil {
		info.TraceParent = adm.TraceParent
	}
	ctx = a.e.Observer.Attempting(ctx, info)
	was := a.state.Settled()
	done, err := a.next(ctx)
	if st := a.state; !was && st.Settled() {
		a.e.Observer.RunSettled(ctx, settledInfo(st, a.spec.Name))
	}
	return done, err
}

// settledInfo is what the Observer hears of Run st of Spec specName
// settling.
func settledInfo(st *runlog.State, specName string) SettledInfo {
	info := SettledInfo{RunID: st.RunID, Spec: specName, State: string(st.Status), Usage: st.Usage}
	if st.Failure != nil {
		info.Reason = st.Failure.Reason
	}
	if adm := st.Admission; adm != nil {
		info.Alias, info.AliasSide = adm.Alias, adm.AliasSide
	}
	if !st.SettleTime.IsZero() && !st.CreateTime.IsZero() {
		info.Took = st.SettleTime.Sub(st.CreateTime)
	}
	return info
}

// next does the next thing the log calls for.
func (a *attempt) next(ctx context.Context) (bool, error) {
	if a.outsiders.Swap(false) {
		// Outsiders wrote while the last step ran (a steer, an abort):
		// what comes next is decided with their Records, so the next
		// model call gets a steer, not the one after.
		if err := a.foldForeign(ctx); err != nil {
			return true, err
		}
	}
	st := a.state
	now := a.e.Clock.Now()
	switch {
	case st.Settled():
		return true, nil
	case st.Abort != nil:
		return true, a.abort(ctx, st.Abort.Cause)
	case !now.Before(st.Admission.Deadline):
		return true, a.abort(ctx, runlog.CauseDeadline)
	case a.abortSeen():
		// The abort request is in the log but not yet in this fold.
		if err := a.foldForeign(ctx); err != nil {
			return true, err
		}
		return false, nil
	case st.Status == runlog.StatusSuspended:
		return a.suspended(ctx)
	}
	if c := st.NextCall(); c != nil {
		return false, a.toolCall(ctx, c)
	}
	if st.Final() && len(st.Queued) == 0 {
		return a.complete(ctx)
	}
	return false, a.modelTurn(ctx)
}

// complete settles the Run with its answer, unless a message came in
// meanwhile (the writer decides again on the State after an outsider's
// Records): then it reports the Attempt not over, and the message gets
// another turn.
func (a *attempt) complete(ctx context.Context) (bool, error) {
	if st := a.state; len(st.OutputViolations) > 0 && len(st.Queued) == 0 {
		return true, a.settle(ctx, runlog.StatusFailed, "", "", &errs.OutputInvalid{Spec: a.spec.Name, Violations: st.OutputViolations})
	}
	err := a.write(ctx, true, func(st *runlog.State) ([]runlog.Op, error) {
		if !st.Final() || len(st.Queued) > 0 || len(st.OutputViolations) > 0 {
			return nil, nil
		}
		return []runlog.Op{&runlog.Settled{State: runlog.StatusCompleted, Answer: st.LastText}}, nil
	})
	if err != nil || a.state.Settled() {
		if err == nil {
			a.log.Info("run settled", "state", runlog.StatusCompleted)
		}
		return true, err
	}
	return false, nil
}

func (a *attempt) abortSeen() bool {
	select {
	case <-a.aborted:
		return true
	default:
		return false
	}
}

// suspended handles a Run that waits: on a timer that is due, it wakes;
// expired, it is abandoned; waiting on children that already settled, it
// catches up; otherwise the Attempt ends and the lease goes back. A timer
// never expires: its wake time is its end.
func (a *attempt) suspended(ctx context.Context) (bool, error) {
	sus := a.state.Suspension
	if sus.Reason == runlog.ReasonTimer {
		return a.wake(ctx)
	}
	if sus.Reason == runlog.ReasonChildren {
		resumed, err := a.catchUpChildren(ctx)
		if err != nil || resumed {
			return false, err
		}
	}
	if !a.e.Clock.Now().Before(sus.ExpireAt) {
		expired := &errs.SuspensionExpired{RunID: a.state.RunID, Reason: string(sus.Reason), ExpireTime: sus.ExpireAt}
		return true, a.settle(ctx, runlog.StatusAbandoned, "", "", expired)
	}
	return true, nil
}

// abort settles an aborted Run, first closing any tool call left open as
// orphaned.
func (a *attempt) abort(ctx context.Context, cause runlog.AbortCause) error {
	var ops []runlog.Op
	closeAs := &errs.ToolRejected{Message: "the run was interrupted before the tool answered"}
	var failure error
	if cause == runlog.CauseDeadline {
		closeAs = &errs.ToolRejected{Message: "the run passed its deadline before the tool answered"}
		failure = &errs.RunDeadlineExceeded{RunID: a.state.RunID, Deadline: a.state.Admission.Deadline.Sub(a.state.CreateTime)}
		if a.state.Abort == nil {
			ops = append(ops, &runlog.AbortRequested{Cause: runlog.CauseDeadline})
		}
	}
	for _, c := range a.state.Calls {
		open := a.state.Open != nil && a.state.Open.CallID == c.ID
		if c.Finished || (!open && c.StartedAttempt == 0) {
			continue
		}
		closeAs.Tool = c.Name
		stored := errs.Store(closeAs, "")
		if !open {
			ops = append(ops, &runlog.ToolCallStarted{CallID: c.ID, Name: c.Name})
		}
		ops = append(ops, &runlog.ToolCallFinished{CallID: c.ID, Name: c.Name, Error: &stored, Orphaned: true})
	}
	return a.settle(ctx, runlog.StatusAborted, cause, "", failure, ops...)
}

// modelTurn makes the next model call: a new turn, or a retry of the
// current one after a transient failure.
func (a *attempt) modelTurn(ctx context.Context) error {
	st := a.state
	limits := a.limits()
	var ops []runlog.Op
	var consumed []string
	turn := st.Turn
	if st.Turn == 0 || st.TurnAnswered() {
		if st.Turn >= limits.MaxTurns {
			return a.settle(ctx, runlog.StatusFailed, "", "", &errs.BudgetExceeded{Dimension: "turns", Requested: float64(st.Turn + 1), Limit: float64(limits.MaxTurns)})
		}
		turn = st.Turn + 1
		ops = append(ops, &runlog.TurnStarted{Turn: turn})
		var seqs []int64
		for _, q := range st.Queued {
			if q.Mode == runlog.ModeSteer || st.Final() {
				seqs = append(seqs, q.Seq)
				consumed = append(consumed, q.Text)
			}
		}
		if len(seqs) > 0 {
			ops = append(ops, &runlog.MessageConsumed{QueuedSeqs: seqs})
		}
	}

	req := model.Request{RunID: st.RunID, Turn: turn, Attempt: st.TurnFailures + 1, Model: a.spec.Model}
	if o := a.spec.Output; o != nil {
		req.OutputSchema = o.Schema
	}
	if name := a.spec.Model.APIKeyCredential; name != "" {
		key, err := a.e.Secrets.Resolve(ctx, secret.Scope(st.Admission.Tenant, a.spec.Name), name)
		if err != nil {
			return a.settle(ctx, runlog.StatusFailed, "", "", err)
		}
		req.APIKey = key
	}

	// Reserve against the budgets before calling: a refusal spends nothing.
	req.Messages, req.Tools = a.conversation(ctx, st, consumed)
	if a.overWindow(req) {
		if done, err := a.compact(ctx, turn, false); done || err != nil {
			return err // the next step asks again, with the summary
		}
	}
	estimate := estimateTokens(req)
	var reservedCost float64
	if limits.TokenBudget > 0 && st.Usage.Tokens()+estimate > limits.TokenBudget {
		return a.exhausted(ctx, &errs.BudgetExceeded{Dimension: errs.DimensionTokens, Requested: float64(st.Usage.Tokens() + estimate), Limit: float64(limits.TokenBudget)},
			errs.DimensionTokens, float64(st.Usage.Tokens()), float64(estimate), float64(limits.TokenBudget))
	}
	if p := a.spec.Model.Pricing; p != nil {
		reservedCost = p.Cost(estimate, 0)
		if limits.CostBudget > 0 && st.Usage.Cost+reservedCost > limits.CostBudget {
			return a.exhausted(ctx, &errs.BudgetExceeded{Dimension: errs.DimensionCost, Requested: st.Usage.Cost + reservedCost, Limit: limits.CostBudget},
				errs.DimensionCost, st.Usage.Cost, reservedCost, limits.CostBudget)
		}
	}
	ops = append(ops, &runlog.ModelCallStarted{Turn: turn, ReservedTokens: estimate, ReservedCost: reservedCost})
	// Folded, not stored: the turn's start goes out with the model's
	// answer (with its first tool call's start, or with Settled), or
	// while the call runs if it takes longer than flushPendingAfter
	// (callModel). Nothing the call does depends on it being stored: a
	// crash before then redoes the call (and the at-least-once calls
	// whose results are pending with it), and the next lease counts the
	// Attempt (unrecorded). What a crash loses is the reservation and
	// the count of the call in Usage.ModelCalls; the call's tokens were
	// never counted, stored or not, as no answer was.
	if err := a.later(ops...); err != nil {
		return err
	}

	return a.callModel(ctx, turn, req, estimate)
}

// callModel makes the call req, streaming its pieces to watchers, and
// records how it ended. The Records folded before it (its
// ModelCallStarted last) are stored by flushWhileCalling if the call is
// still running after flushPendingAfter, so a watcher of a slow model sees
// the turn start while it runs; a fast call's go out with its answer.
func (a *attempt) callModel(ctx context.Context, turn int, req model.Request, estimate int64) error {
	st, limits := a.state, a.limits()
	provider, ok := a.e.Models[a.spec.Model.Provider]
	if !ok {
		return a.settle(ctx, runlog.StatusFailed, "", "", &errs.DependencyMissing{Dependency: "model provider " + a.spec.Model.Provider, Description: "this runsvc has no such provider"})
	}
	req.MaxTokens = maxTokens(a.spec.Model.MaxOutputTokens, limits.TokenBudget, a.state.Usage.Tokens()+estimate)
	callCtx, cancel := a.opContext(ctx, a.state.Admission.Deadline)
	var stream *live.Stream
	if a.e.Live != nil {
		// The seq the ModelCallStarted was folded at, the newest of the
		// State: it is stored there unless an outsider's Record comes
		// first (see docs/storage.md, "When Records are stored").
		stream = a.e.Live.Begin(a.lease.Tenant, st.RunID, st.Seq, turn)
	}
	flushed, soon := a.flushWhileCalling(ctx)
	if stream != nil {
		// Watchers get a call's pieces once they have its
		// ModelCallStarted: a call that streams before flushPendingAfter
		// stores its start at its first piece watched, not 5 ms in. Unwatched
		// pieces leave the start to go out with the answer, in one commit.
		req.OnDelta = func(d model.Delta) {
			if stream.Watched() {
				soon()
			}
			stream.Add(d)
		}
	}
	if w := a.e.Waits; w != nil {
		tenant, runID := a.lease.Tenant, st.RunID
		req.OnWait = func(what string) { w.Set(tenant, runID, what, a.e.Clock.Now()) }
	}
	resp, ans, err := a.completeChain(callCtx, turn, provider, req)
	if stream != nil {
		stream.End()
	}
	cancel()
	if ferr := flushed(); ferr != nil {
		return ferr
	}
	if err != nil {
		return a.modelFailed(ctx, turn, err)
	}
	return a.modelAnswered(ctx, turn, resp, ans)
}

func (a *attempt) modelAnswered(ctx context.Context, turn int, resp model.Response, ans chainAnswer) error {
	done := &runlog.ModelCallFinished{
		Turn: turn, Text: resp.Text, InputTokens: resp.Usage.InputTokens, OutputTokens: resp.Usage.OutputTokens,
		Model: ans.model.Name(), Fallbacks: ans.tried, RateLimitWait: resp.RateLimitWait,
	}
	if p := ans.model.Pricing; p != nil {
		done.Priced, done.Cost = true, p.Cost(resp.Usage.InputTokens, resp.Usage.OutputTokens)
	}
	for i, c := range resp.ToolCalls {
		args := c.Arguments
		if len(args) == 0 {
			args = []byte(`{}`)
		}
		done.ToolCalls = append(done.ToolCalls, runlog.ToolCall{ID: CallID(turn, i), Name: c.Name, Arguments: args, ProviderID: providerID(c.ID, CallID(turn, i))})
	}
	if len(resp.ToolCalls) == 0 {
		done.OutputViolations = a.outputViolations(resp.Text)
	}
	if len(done.OutputViolations) > 0 {
		done.Reask = outputReask(done.OutputViolations, a.state.OutputRejections)
	}
	limits := a.limits()
	usage := a.state.Usage
	tokens := usage.Tokens() + resp.Usage.InputTokens + resp.Usage.OutputTokens
	switch {
	case limits.TokenBudget > 0 && tokens > limits.TokenBudget:
		return a.settle(ctx, runlog.StatusFailed, "", "", &errs.BudgetOverrun{Dimension: errs.DimensionTokens, Used: float64(tokens), Limit: float64(limits.TokenBudget)}, done)
	case limits.CostBudget > 0 && usage.Cost+done.Cost > limits.CostBudget:
		return a.settle(ctx, runlog.StatusFailed, "", "", &errs.BudgetOverrun{Dimension: errs.DimensionCost, Used: usage.Cost + done.Cost, Limit: limits.CostBudget}, done)
	}
	return a.later(done)
}

// modelFailed records a failed model call and retries it within the
// Run's retry budget, or fails the Run.
func (a *attempt) modelFailed(ctx context.Context, turn int, err error) error {
	if a.interrupted() || ctx.Err() != nil {
		return nil // the loop aborts or the Attempt is stopping; the call stays open
	}
	if handled, err := a.refusedTooLong(ctx, turn, err); handled {
		return err
	}
	stored := errs.Store(err, "")
	delay, retryable := errs.IsRetryable(err)
	if errs.Typed(err) == nil {
		retryable = false
	}
	if retryable && a.state.Usage.TransientRetries < a.spec.Limits.Effective().TransientRetryBudget {
		wait := a.backoff(delay)
		a.log.Info("model call failed; retrying", "turn", turn, "after", wait, "err", err)
		a.e.Observer.Retrying(ctx, RetryInfo{RunID: a.state.RunID, What: "model", Err: err})
		if err := a.append(ctx, false, &runlog.ModelCallFailed{Turn: turn, Failure: stored, WillRetry: true, RetryAfter: wait}); err != nil {
			return err
		}
		return a.sleep(ctx, wait)
	}
	return a.settle(ctx, runlog.StatusFailed, "", "", err, &runlog.ModelCallFailed{Turn: turn, Failure: stored})
}

// backoff is exponential with jitter from the Run's retry count, and
// never shorter than what the failure asked for (Retry-After).
func (a *attempt) backoff(retryAfter time.Duration) time.Duration {
	n := a.state.Usage.TransientRetries
	d := a.e.cfg.RetryBase << min(n, 16)
	if d > a.e.cfg.RetryMax || d <= 0 {
		d = a.e.cfg.RetryMax
	}
	d = d/2 + time.Duration(rand.Int64N(int64(d/2)+1))
	return max(d, retryAfter)
}

// sleep waits between retries; an abort or the deadline cuts it short.
func (a *attempt) sleep(ctx context.Context, d time.Duration) error {
	sctx, cancel := a.opContext(ctx, a.state.Admission.Deadline)
	defer cancel()
	err := a.e.Clock.Sleep(sctx, d)
	if err != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return nil
}

// conversation is what the model sees: the instructions, the transcript,
// the queued messages this call consumes, and the tools on offer.
func (a *attempt) conversation(ctx context.Context, st *runlog.State, consumed []string) ([]model.Message, []model.Tool) {
	msgs := a.messages(st) // kept from turn to turn (conversation.go)
	for _, text := range consumed {
		msgs = append(msgs, model.Message{Role: model.RoleUser, Text: text})
	}
	var tools []model.Tool
	for _, t := range a.offered(ctx) {
		t = a.described(ctx, t)
		tools = append(tools, model.Tool{Name: t.Name, Description: t.Description, Parameters: t.Parameters})
	}
	return msgs, tools
}

// maxTokens bounds a call's output: the Spec's limit, and what the token
// budget leaves after the tokens used and the call's input (reserved);
// zero means unbounded. A budget already spent leaves 1, so the bound is
// never "none".
func maxTokens(specLimit, budget, reserved int64) int64 {
	bound := specLimit
	if budget > 0 {
		left := max(budget-reserved, 1)
		if bound == 0 || left < bound {
			bound = left
		}
	}
	return bound
}

// estimateTokens guesses a call's input tokens (about four characters a
// token) for the budget reservation.
func estimateTokens(req model.Request) int64 {
	n := 0
	for _, m := range req.Messages {
		n += len(m.Text) + 16
		for _, c := range m.ToolCalls {
			n += len(c.Name) + len(c.Arguments)
		}
	}
	for _, t := range req.Tools {
		n += len(t.Name) + len(t.Description) + len(t.Parameters)
	}
	return int64(n/4) + 1
}

var errUnknownTool = errors.New("unknown tool")

// declared finds a tool the Spec offers, including the implicit delegate
// tool of a Spec with delegates.
func (a *attempt) declared(name string) (spec.Tool, error) {
	if t, ok := declaredIn(a.spec, name); ok {
		return t, nil
	}
	return spec.Tool{}, errUnknownTool
}

// CallID is runsvc's id of the index-th (from 0) tool call of a turn:
// unique within the Run whatever ids the provider sends (some repeat
// "call_0" every turn), and the same on every replay and takeover because
// it is recorded in the turn's record.
func CallID(turn, index int) string {
	return "call_" + strconv.Itoa(turn) + "_" + strconv.Itoa(index+1)
}

// providerID is the provider's id of a call to keep beside runsvc's: ""
// when it is the same.
func providerID(provider, ours string) string {
	if provider == ours {
		return ""
	}
	return provider
}
