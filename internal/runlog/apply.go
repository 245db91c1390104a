package runlog

import (
	"slices"
	"strings"

	"github.com/runsvc/runsvc/internal/errs"
)

// TurnPhase is where the current turn stands. It is the one place a
// reader learns whether the model has answered the turn and how, instead
// of combining flags.
type TurnPhase string

// Turn phases, in the order a turn goes through them.
const (
	// PhaseNone: no turn has started.
	PhaseNone TurnPhase = ""
	// PhaseAsking: the turn started and its model call has not succeeded
	// (TurnFailures counts the failed ones; Open holds one in flight).
	PhaseAsking TurnPhase = "ASKING"
	// PhaseCalling: the model asked for tools, the Calls.
	PhaseCalling TurnPhase = "CALLING"
	// PhaseAnswered: the model answered with text alone; LastText is the
	// Run's answer unless a follow-up message is queued.
	PhaseAnswered TurnPhase = "ANSWERED"
	// PhaseReplied: the model's text answer became an intermediate reply,
	// a follow-up message having reached the model; a new turn follows.
	PhaseReplied TurnPhase = "REPLIED"
)

// Final reports whether the newest model response asked for no tools:
// its text is the answer, unless a follow-up message is queued.
func (s *State) Final() bool { return s.Phase == PhaseAnswered }

// TurnAnswered reports whether the current turn's model call succeeded.
func (s *State) TurnAnswered() bool {
	return s.Phase == PhaseCalling || s.Phase == PhaseAnswered || s.Phase == PhaseReplied
}

// apply folds one record with the function of its kind. Each checks
// everything it relies on before it changes anything, so a corrupt
// record leaves the State as it was.
func (s *State) apply(r Record) error {
	switch op := r.Op.(type) {
	case *Admitted:
		return s.admitted(r, op)
	case *AttemptStarted:
		return s.attemptStarted(r, op)
	case *TurnStarted:
		return s.turnStarted(r, op)
	case *ModelCallStarted:
		return s.modelCallStarted(r, op)
	case *ModelCallFinished:
		return s.modelCallFinished(r, op)
	case *ModelCallFailed:
		return s.modelCallFailed(r, op)
	case *ToolCallStarted:
		return s.toolCallStarted(r, op)
	case *ToolCallFailed:
		return s.toolCallFailed(r, op)
	case *ToolCallFinished:
		return s.toolCallFinished(r, op)
	case *Suspended:
		return s.suspended(r, op)
	case *Resumed:
		return s.resumed(r, op)
	case *AbortRequested:
		return s.abortRequested(op)
	case *MessageQueued:
		return s.messageQueued(r, op)
	case *MessageConsumed:
		return s.messageConsumed(r, op)
	case *DelegationStarted:
		return s.delegationStarted(r, op)
	case *DelegationFinished:
		return s.delegationFinished(r, op)
	case *Settled:
		return s.settled(r, op)
	case *HistoryCompacted:
		return s.historyCompacted(r, op)
	case *A2ATask:
		return s.a2aTask(r, op)
	case *Unknown:
		return s.corrupt(r, errs.CorruptUnknownOperation, "unknown record kind %q", op.Name)
	default:
		return s.corrupt(r, errs.CorruptUnknownOperation, "unknown record type %T", op)
	}
}

func (s *State) admitted(r Record, op *Admitted) error {
	if s.Admission != nil {
		return s.corrupt(r, errs.CorruptSecondAdmission, "the Run was already admitted at seq 1")
	}
	a := *op
	if op.Fork != nil {
		// The State keeps where it came from; its Transcript holds the rest.
		a.Fork = &ForkOrigin{RunID: op.Fork.RunID, Seq: op.Fork.Seq, Turn: op.Fork.Turn}
	}
	s.Admission = &a
	s.Status = StatusQueued
	s.CreateTime = r.Time
	if !op.StartAt.IsZero() {
		// Admitted asleep: the first turn waits for the timer.
		s.Status = StatusSuspended
		s.Suspension = &Suspended{Reason: ReasonTimer, WakeAt: op.StartAt}
	}
	if f := op.Fork; f != nil {
		// A fork goes on from the source's state before its turn f.Turn.
		s.Transcript = append(s.Transcript, f.Transcript...)
		s.Turn, s.ToolCallsIssued = f.Turn-1, f.ToolCallsIssued
		if s.Turn > 0 {
			s.Phase = PhaseReplied
		}
		if op.Input == "" {
			return nil
		}
	}
	s.Transcript = append(s.Transcript, Message{Role: RoleUser, Text: op.Input})
	return nil
}

func (s *State) attemptStarted(r Record, op *AttemptStarted) error {
	if op.Attempt != s.Attempt+1 {
		return s.corrupt(r, errs.CorruptNonConsecutiveAttempt, "attempt %d follows attempt %d", op.Attempt, s.Attempt)
	}
	if s.NextAttemptFollowsDeath() {
		s.DiedAttempts++
	}
	s.Attempt = op.Attempt
	s.AttemptWaited = s.Status == StatusSuspended
	s.Open = nil // what the previous Attempt left open is redone
	if s.Status == StatusQueued {
		s.Status = StatusRunning
	}
	return nil
}

func (s *State) turnStarted(r Record, op *TurnStarted) error {
	switch {
	case op.Turn != s.Turn+1:
		return s.corrupt(r, errs.CorruptNonConsecutiveTurn, "turn %d follows turn %d", op.Turn, s.Turn)
	case s.Open != nil:
		return s.corrupt(r, errs.CorruptMultipleOpenOperations, "turn %d started while %s is open", op.Turn, s.Open)
	case s.NextCall() != nil:
		return s.corrupt(r, errs.CorruptCallsUnanswered, "turn %d started before call %s was answered", op.Turn, s.NextCall().ID)
	}
	s.Turn = op.Turn
	s.TurnFailures = 0
	s.Phase = PhaseAsking
	return nil
}

func (s *State) modelCallStarted(r Record, op *ModelCallStarted) error {
	switch {
	case s.Open != nil:
		return s.corrupt(r, errs.CorruptMultipleOpenOperations, "model call started while %s is open", s.Open)
	case op.Turn != s.Turn:
		return s.corrupt(r, errs.CorruptModelCallTurnMismatch, "model call for turn %d during turn %d", op.Turn, s.Turn)
	}
	s.Open = &Open{Model: true, Turn: op.Turn, ReservedTokens: op.ReservedTokens, ReservedCost: op.ReservedCost}
	s.Usage.ModelCalls++
	return nil
}

// modelOpen reports whether the model call of turn is the open operation.
func (s *State) modelOpen(turn int) bool { return s.Open != nil && s.Open.Model && s.Open.Turn == turn }

func (s *State) modelCallFinished(r Record, op *ModelCallFinished) error {
	if !s.modelOpen(op.Turn) {
		return s.corrupt(r, errs.CorruptNoOpenModelCall, "model call of turn %d finished but none is open", op.Turn)
	}
	seen := map[string]bool{}
	for _, c := range op.ToolCalls {
		if seen[c.ID] {
			return s.corrupt(r, errs.CorruptDuplicateCallID, "call id %s issued twice in one response", c.ID)
		}
		seen[c.ID] = true
	}
	s.Open = nil
	s.Usage.InputTokens += op.InputTokens
	s.Usage.OutputTokens += op.OutputTokens
	if op.Priced {
		s.Usage.Cost += op.Cost
	} else {
		s.Usage.UnpricedCalls++
	}
	s.LastText = op.Text
	s.Transcript = append(s.Transcript, Message{Role: RoleAssistant, Text: op.Text, ToolCalls: op.ToolCalls})
	s.Calls = s.Calls[:0]
	for _, c := range op.ToolCalls {
		s.ToolCallsIssued++
		s.Calls = append(s.Calls, &Call{ToolCall: c, Turn: op.Turn, Ordinal: s.ToolCallsIssued})
	}
	s.Phase = PhaseCalling
	if len(op.ToolCalls) == 0 {
		s.Phase = PhaseAnswered
		s.outputChecked(op.OutputViolations, op.Reask)
	}
	return nil
}

// outputChecked folds the output schema's verdict on a final answer: a
// mismatch the engine asked again for (reask.Text) becomes an
// intermediate reply followed by the message it sent, so the next turn
// answers again; one it did not ask again for stays the final, failing
// answer. A Record from before the engine recorded its decision (reask
// nil) is folded as the build that wrote it folded it: see legacyReask.
func (s *State) outputChecked(violations []errs.FieldViolation, reask *OutputReask) {
	s.OutputViolations = violations
	if len(violations) == 0 {
		s.OutputRejections = 0
		return
	}
	s.OutputRejections++
	text := legacyReask(violations, s.OutputRejections)
	if reask != nil {
		text = reask.Text
	}
	if text != "" {
		s.Phase = PhaseReplied
		s.Transcript = append(s.Transcript, Message{Role: RoleUser, Text: text})
	}
}

// legacyMaxOutputReasks and legacyReask are the re-ask limit and wording
// the reducer itself applied before the engine recorded what it sent
// (OutputReask). They are frozen: they say what a Record without
// OutputReask meant when it was written, so changing them would change
// what replaying an old log gives. Change the engine's live wording
// instead; it is recorded with each new Record.
const legacyMaxOutputReasks = 1

// legacyReask is the message the reducer added after the rejections-th
// failing answer in a row of an old log, or "" when it added none.
func legacyReask(violations []errs.FieldViolation, rejections int) string {
	if rejections > legacyMaxOutputReasks {
		return ""
	}
	parts := make([]string, len(violations))
	for i, v := range violations {
		parts[i] = v.Field + ": " + v.Description
	}
	return "Your answer does not match the JSON Schema it must follow: " + strings.Join(parts, "; ") +
		". Answer again with only a JSON value that matches the schema."
}

func (s *State) modelCallFailed(r Record, op *ModelCallFailed) error {
	if !s.modelOpen(op.Turn) {
		return s.corrupt(r, errs.CorruptNoOpenModelCall, "model call of turn %d failed but none is open", op.Turn)
	}
	s.Open = nil
	s.TurnFailures++
	if op.WillRetry {
		s.Usage.TransientRetries++
	}
	return nil
}

func (s *State) toolCallStarted(r Record, op *ToolCallStarted) error {
	c := s.Call(op.CallID)
	switch {
	case c == nil:
		return s.corrupt(r, errs.CorruptToolCallMismatch, "call %s was not issued by the newest model response", op.CallID)
	case c.Finished:
		return s.corrupt(r, errs.CorruptDuplicateToolInvoke, "call %s started again after it was answered", op.CallID)
	case c.StartedAttempt == s.Attempt && s.Attempt > 0:
		return s.corrupt(r, errs.CorruptDuplicateToolInvoke, "call %s started twice in attempt %d", op.CallID, s.Attempt)
	case s.Open != nil:
		return s.corrupt(r, errs.CorruptMultipleOpenOperations, "call %s started while %s is open", op.CallID, s.Open)
	case c != s.NextCall():
		return s.corrupt(r, errs.CorruptCallsOutOfOrder, "call %s started before call %s, which was issued first", op.CallID, s.NextCall().ID)
	case c.Name != op.Name:
		return s.corrupt(r, errs.CorruptToolCallMismatch, "call %s is to %s, not %s", op.CallID, c.Name, op.Name)
	}
	c.StartedAttempt = s.Attempt
	s.Open = &Open{CallID: op.CallID}
	return nil
}

// callOpen reports whether the call is the open operation.
func (s *State) callOpen(id string) bool { return s.Open != nil && s.Open.CallID == id }

func (s *State) toolCallFailed(r Record, op *ToolCallFailed) error {
	if !s.callOpen(op.CallID) || s.Call(op.CallID) == nil {
		return s.corrupt(r, errs.CorruptNoOpenToolCall, "call %s failed but it is not open", op.CallID)
	}
	s.Open = nil
	s.Call(op.CallID).StartedAttempt = 0
	s.Usage.TransientRetries++
	return nil
}

func (s *State) toolCallFinished(r Record, op *ToolCallFinished) error {
	c := s.Call(op.CallID)
	switch {
	case c == nil:
		return s.corrupt(r, errs.CorruptToolCallMismatch, "result for call %s, which the newest model response did not issue", op.CallID)
	case c.Finished:
		return s.corrupt(r, errs.CorruptDuplicateToolInvoke, "call %s answered twice", op.CallID)
	case !s.callOpen(op.CallID) && !s.closableInDoubt(c):
		return s.corrupt(r, errs.CorruptNoOpenToolCall, "call %s finished but it is not open", op.CallID)
	}
	s.Open = nil
	c.Finished, c.Output, c.Error, c.Orphaned, c.InDoubt = true, op.Output, op.Error, op.Orphaned, op.InDoubt
	s.Usage.ToolCalls++
	s.Transcript = append(s.Transcript, Message{Role: RoleTool, CallID: c.ID, ProviderCallID: c.ProviderID, Name: c.Name, Text: ResultText(c.Name, op.Output, op.Error)})
	return nil
}

// closableInDoubt reports whether c may be closed without being started
// again: an earlier Attempt started it and none answered it, so it may
// have happened, and it is closed (in doubt, or as a person says) without
// being made again. Nothing else may be open, and it is the next call.
func (s *State) closableInDoubt(c *Call) bool {
	return s.Open == nil && c.StartedAttempt != 0 && c.StartedAttempt < s.Attempt && c == s.NextCall()
}

func (s *State) suspended(r Record, op *Suspended) error {
	switch {
	case s.Open != nil:
		return s.corrupt(r, errs.CorruptMultipleOpenOperations, "suspended for %s while %s is open", op.Reason, s.Open)
	case s.Status != StatusRunning:
		return s.corrupt(r, errs.CorruptSuspendWhileNotRun, "suspended while %s", s.Status)
	}
	sus := *op
	s.Suspension = &sus
	s.Status = StatusSuspended
	s.AttemptWaited = true
	return nil
}

func (s *State) resumed(r Record, op *Resumed) error {
	switch {
	case s.Status != StatusSuspended || s.Suspension == nil:
		return s.corrupt(r, errs.CorruptResumeWithoutSuspend, "resumed for %s while %s", op.Reason, s.Status)
	case op.Reason != s.Suspension.Reason:
		return s.corrupt(r, errs.CorruptResumeWithoutSuspend, "resumed for %s while suspended for %s", op.Reason, s.Suspension.Reason)
	}
	if err := s.checkResume(r, op); err != nil {
		return err
	}
	sus := s.Suspension
	switch op.Reason {
	case ReasonToolResults:
		for _, res := range op.Results {
			rr := res
			s.Call(res.CallID).Result = &rr
		}
	case ReasonQuestion:
		answer := op.Answer
		s.Call(sus.CallID).Answer = &answer
	case ReasonApproval:
		if b := sus.Budget; b != nil {
			s.raiseBudget(b, op)
			break
		}
		c := s.Call(sus.CallID)
		c.Approval = &Approval{Approved: op.Approved, Note: op.Note}
		c.InDoubtAnswer = op.InDoubt.at(s.Attempt)
	case ReasonTimer:
		if c := s.Call(sus.CallID); c != nil {
			c.Woke = &Woke{WakeAt: sus.WakeAt, At: r.Time, Early: op.Early}
		}
	}
	s.Suspension = nil
	s.Status = StatusRunning
	if r.Attempt != 0 {
		// The Attempt resumed the Run itself (its children had settled):
		// it goes on working, and may yet die.
		s.AttemptWaited = false
	}
	return nil
}

// checkResume checks that a resume answers exactly what the suspension
// waits for.
func (s *State) checkResume(r Record, op *Resumed) error {
	sus := s.Suspension
	switch op.Reason {
	case ReasonToolResults:
		want := map[string]bool{}
		for _, id := range sus.CallIDs {
			want[id] = true
		}
		for _, res := range op.Results {
			if !want[res.CallID] || s.Call(res.CallID) == nil {
				return s.corrupt(r, errs.CorruptResumeResults, "result for call %s, which the suspension does not wait for", res.CallID)
			}
			delete(want, res.CallID)
		}
		if len(want) > 0 {
			return s.corrupt(r, errs.CorruptResumeResults, "resume lacks results for %d calls", len(want))
		}
	case ReasonQuestion, ReasonApproval:
		if sus.Budget == nil && s.Call(sus.CallID) == nil {
			return s.corrupt(r, errs.CorruptResumeResults, "%s for call %s, which is not pending", op.Reason, sus.CallID)
		}
	}
	return nil
}

// raiseBudget records an approved budget's new limit.
func (s *State) raiseBudget(b *BudgetAsk, op *Resumed) {
	if !op.Approved {
		return
	}
	if s.BudgetRaised == nil {
		s.BudgetRaised = map[string]float64{}
	}
	s.BudgetRaised[b.Dimension] = op.BudgetLimit
}

func (s *State) abortRequested(op *AbortRequested) error {
	if s.Abort == nil {
		a := *op
		s.Abort = &a
	}
	return nil
}

func (s *State) messageQueued(r Record, op *MessageQueued) error {
	s.Queued = append(s.Queued, Queued{Seq: r.Seq, Text: op.Text, Mode: op.Mode})
	if op.RequestID != "" {
		if s.Steers == nil {
			s.Steers = map[string]string{}
		}
		s.Steers[op.RequestID] = op.RequestHash
	}
	return nil
}

func (s *State) messageConsumed(r Record, op *MessageConsumed) error {
	for i, seq := range op.QueuedSeqs {
		if !slices.ContainsFunc(s.Queued, func(q Queued) bool { return q.Seq == seq }) || slices.Contains(op.QueuedSeqs[:i], seq) {
			return s.corrupt(r, errs.CorruptMessageNotQueued, "consumed message %d, which is not queued", seq)
		}
	}
	for _, seq := range op.QueuedSeqs {
		i := slices.IndexFunc(s.Queued, func(q Queued) bool { return q.Seq == seq })
		s.Transcript = append(s.Transcript, Message{Role: RoleUser, Text: s.Queued[i].Text})
		s.Queued = slices.Delete(s.Queued, i, i+1)
		if s.Phase == PhaseAnswered {
			s.Phase = PhaseReplied // a follow-up turns the answer into an intermediate reply
		}
	}
	return nil
}

func (s *State) delegationStarted(r Record, op *DelegationStarted) error {
	if s.Delegation(op.DelegationID) != nil {
		return s.corrupt(r, errs.CorruptDuplicateDelegation, "delegation %s started twice", op.DelegationID)
	}
	var c *Call
	if op.CallID != "" {
		c = s.Call(op.CallID)
		if c == nil || c.Finished || c.DelegationID != "" {
			return s.corrupt(r, errs.CorruptDelegationCall, "delegation %s for call %s, which is not an unanswered call without a child", op.DelegationID, op.CallID)
		}
	}
	if c != nil {
		c.DelegationID = op.DelegationID
	}
	s.Delegations = append(s.Delegations, &Delegation{DelegationStarted: *op})
	return nil
}

// a2aTask folds an a2a call's remote task. A reply recorded consumes the
// answer the Run was resumed with; a question closes the open call, so
// the Run can suspend on it.
func (s *State) a2aTask(r Record, op *A2ATask) error {
	c := s.Call(op.CallID)
	switch {
	case c == nil || c.Finished:
		return s.corrupt(r, errs.CorruptToolCallMismatch, "remote task %s for call %s, which is not an unanswered call", op.TaskID, op.CallID)
	case c.Remote != nil && c.Remote.TaskID != op.TaskID:
		return s.corrupt(r, errs.CorruptToolCallMismatch, "call %s follows remote task %s, not %s", op.CallID, c.Remote.TaskID, op.TaskID)
	}
	if c.Remote != nil && op.Replies > c.Remote.Replies {
		c.Answer = nil
	}
	if op.Question != "" && s.callOpen(op.CallID) {
		s.Open = nil
		c.StartedAttempt = 0
	}
	t := *op
	c.Remote = &t
	return nil
}

func (s *State) delegationFinished(r Record, op *DelegationFinished) error {
	d := s.Delegation(op.DelegationID)
	if d == nil || d.Finished != nil {
		return s.corrupt(r, errs.CorruptDelegationNotRunning, "delegation %s finished but it is not running", op.DelegationID)
	}
	f := *op
	d.Finished = &f
	return nil
}

func (s *State) settled(r Record, op *Settled) error {
	if !op.State.Settled() {
		return s.corrupt(r, errs.CorruptSettleNotFinal, "settled as %s, which is not a final state", op.State)
	}
	s.Status = op.State
	s.AbortCause = op.AbortCause
	s.Answer = op.Answer
	s.Failure = op.Failure
	s.SettleTime = r.Time
	s.Suspension = nil
	s.Abort = nil
	s.Open = nil
	return nil
}
