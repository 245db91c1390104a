package runlog

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
)

// State is a Run as its log says it is. It is JSON-serialisable, so a fold
// can stop, be stored, and go on.
type State struct {
	RunID      string     `json:"runId"`
	Seq        int64      `json:"seq"`
	Admission  *Admitted  `json:"admission,omitempty"`
	Status     Status     `json:"status"`
	AbortCause AbortCause `json:"abortCause,omitempty"`
	// Abort is the first abort request of an unsettled Run.
	Abort      *AbortRequested `json:"abort,omitempty"`
	Attempt    int             `json:"attempt"`
	Turn       int             `json:"turn"`
	CreateTime time.Time       `json:"createTime"`
	UpdateTime time.Time       `json:"updateTime"`
	SettleTime time.Time       `json:"settleTime"`
	Answer     string          `json:"answer,omitempty"`
	Failure    *errs.Stored    `json:"failure,omitempty"`
	Usage      Usage           `json:"usage"`
	// Transcript is the conversation so far, without the Spec's
	// instructions.
	Transcript []Message `json:"transcript,omitempty"`
	// Calls are the tool calls of the newest model response, in issue order.
	Calls []*Call `json:"calls,omitempty"`
	// Final is true when the newest model response asked for no tools: its
	// text is the answer, unless a follow-up message is queued.
	Final bool `json:"final,omitempty"`
	// Open is the operation started and not yet finished.
	Open       *Open      `json:"open,omitempty"`
	Suspension *Suspended `json:"suspension,omitempty"`
	// Queued are messages not yet given to the model.
	Queued []Queued `json:"queued,omitempty"`
	// ToolCallsIssued counts every call the model asked for, for the
	// circuit breaker.
	ToolCallsIssued int `json:"toolCallsIssued,omitempty"`
	// TurnFailures counts failed model calls of the current turn.
	TurnFailures int `json:"turnFailures,omitempty"`
	// Delegations are the children this Run started, in order.
	Delegations []*Delegation `json:"delegations,omitempty"`
	// LastText is the text of the newest model response.
	LastText string `json:"lastText,omitempty"`
	// TurnAnswered is true once the current turn's model call succeeded.
	TurnAnswered bool `json:"turnAnswered,omitempty"`
}

// Usage is what a Run consumed.
type Usage struct {
	InputTokens      int64   `json:"inputTokens,omitempty"`
	OutputTokens     int64   `json:"outputTokens,omitempty"`
	Cost             float64 `json:"cost,omitempty"`
	UnpricedCalls    int     `json:"unpricedCalls,omitempty"`
	ModelCalls       int     `json:"modelCalls,omitempty"`
	ToolCalls        int     `json:"toolCalls,omitempty"`
	TransientRetries int     `json:"transientRetries,omitempty"`
}

// Tokens returns input plus output tokens.
func (u Usage) Tokens() int64 { return u.InputTokens + u.OutputTokens }

// Roles of transcript messages.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// Message is one entry of the conversation the model sees.
type Message struct {
	Role      string     `json:"role"`
	Text      string     `json:"text,omitempty"`
	ToolCalls []ToolCall `json:"toolCalls,omitempty"`
	CallID    string     `json:"callId,omitempty"`
	Name      string     `json:"name,omitempty"`
}

// Call is one tool call of the newest model response and what became of it.
type Call struct {
	ToolCall
	Turn           int             `json:"turn"`
	Ordinal        int             `json:"ordinal"`
	StartedAttempt int             `json:"startedAttempt,omitempty"`
	Finished       bool            `json:"finished,omitempty"`
	Output         json.RawMessage `json:"output,omitempty"`
	Error          *errs.Stored    `json:"error,omitempty"`
	Orphaned       bool            `json:"orphaned,omitempty"`
	// Result, Answer and Approval hold what a resume supplied for it.
	Result   *ToolResult `json:"result,omitempty"`
	Answer   *string     `json:"answer,omitempty"`
	Approval *Approval   `json:"approval,omitempty"`
	// DelegationID is the child Run started for a delegate call.
	DelegationID string `json:"delegationId,omitempty"`
}

// Approval is an answer to an approval suspension.
type Approval struct {
	Approved bool   `json:"approved"`
	Note     string `json:"note,omitempty"`
}

// Open is a started operation.
type Open struct {
	Model  bool   `json:"model,omitempty"`
	Turn   int    `json:"turn,omitempty"`
	CallID string `json:"callId,omitempty"`
	// Reserved is what the open model call reserved.
	ReservedTokens int64   `json:"reservedTokens,omitempty"`
	ReservedCost   float64 `json:"reservedCost,omitempty"`
}

// Queued is a message waiting for the model.
type Queued struct {
	Seq  int64       `json:"seq"`
	Text string      `json:"text"`
	Mode MessageMode `json:"mode"`
}

// Delegation is a child Run and, once it settled, its outcome.
type Delegation struct {
	DelegationStarted
	Finished *DelegationFinished `json:"finished,omitempty"`
}

// New returns the State of an empty log.
func New(runID string) *State { return &State{RunID: runID} }

// Fold folds a whole log.
func Fold(runID string, records []Record) (*State, error) {
	s := New(runID)
	if err := s.ApplyAll(records); err != nil {
		return s, err
	}
	return s, nil
}

// ApplyAll applies records in order, stopping at the first corruption.
func (s *State) ApplyAll(records []Record) error {
	for _, r := range records {
		if err := s.Apply(r); err != nil {
			return err
		}
	}
	return nil
}

// Clone returns a deep copy.
func (s *State) Clone() *State {
	b, err := json.Marshal(s)
	if err != nil {
		panic("runlog: cloning state: " + err.Error())
	}
	out := &State{}
	if err := json.Unmarshal(b, out); err != nil {
		panic("runlog: cloning state: " + err.Error())
	}
	return out
}

// Settled reports whether the Run has settled.
func (s *State) Settled() bool { return s.Status.Settled() }

// Call returns the call of the newest response with the given id.
func (s *State) Call(id string) *Call {
	for _, c := range s.Calls {
		if c.ID == id {
			return c
		}
	}
	return nil
}

// NextCall returns the first unanswered call, or nil.
func (s *State) NextCall() *Call {
	for _, c := range s.Calls {
		if !c.Finished {
			return c
		}
	}
	return nil
}

// Delegation returns a delegation by id.
func (s *State) Delegation(id string) *Delegation {
	for _, d := range s.Delegations {
		if d.DelegationID == id {
			return d
		}
	}
	return nil
}

func (s *State) corrupt(r Record, reason errs.Corruption, format string, args ...any) error {
	return &errs.CorruptLog{RunID: s.RunID, Seq: r.Seq, Reason: reason, Detail: fmt.Sprintf(format, args...)}
}

// Apply folds one record, or returns *errs.CorruptLog without changing
// anything the caller should trust afterwards.
func (s *State) Apply(r Record) error {
	if r.Seq != s.Seq+1 {
		return s.corrupt(r, errs.CorruptNonConsecutiveSeq, "expected seq %d, found %d", s.Seq+1, r.Seq)
	}
	if s.Status.Settled() {
		return s.corrupt(r, errs.CorruptRecordAfterSettle, "%s record after the Run settled %s", r.Op.Kind(), s.Status)
	}
	if _, first := r.Op.(*Admitted); s.Admission == nil && !first {
		return s.corrupt(r, errs.CorruptMissingAdmission, "the log starts with %s, not admitted", r.Op.Kind())
	}
	if err := s.apply(r); err != nil {
		return err
	}
	s.Seq = r.Seq
	s.UpdateTime = r.Time
	return nil
}

func (s *State) apply(r Record) error {
	switch op := r.Op.(type) {
	case *Admitted:
		if s.Admission != nil {
			return s.corrupt(r, errs.CorruptSecondAdmission, "the Run was already admitted at seq 1")
		}
		a := *op
		s.Admission = &a
		s.Status = StatusQueued
		s.CreateTime = r.Time
		s.Transcript = append(s.Transcript, Message{Role: RoleUser, Text: op.Input})

	case *AttemptStarted:
		if op.Attempt != s.Attempt+1 {
			return s.corrupt(r, errs.CorruptNonConsecutiveAttempt, "attempt %d follows attempt %d", op.Attempt, s.Attempt)
		}
		s.Attempt = op.Attempt
		s.Open = nil // what the previous Attempt left open is redone
		if s.Status == StatusQueued {
			s.Status = StatusRunning
		}

	case *TurnStarted:
		if op.Turn != s.Turn+1 {
			return s.corrupt(r, errs.CorruptNonConsecutiveTurn, "turn %d follows turn %d", op.Turn, s.Turn)
		}
		if s.Open != nil {
			return s.corrupt(r, errs.CorruptMultipleOpenOperations, "turn %d started while %s is open", op.Turn, s.Open)
		}
		if c := s.NextCall(); c != nil {
			return s.corrupt(r, errs.CorruptToolCallMismatch, "turn %d started before call %s was answered", op.Turn, c.ID)
		}
		s.Turn = op.Turn
		s.TurnFailures = 0
		s.TurnAnswered = false
		s.Final = false

	case *ModelCallStarted:
		if s.Open != nil {
			return s.corrupt(r, errs.CorruptMultipleOpenOperations, "model call started while %s is open", s.Open)
		}
		if op.Turn != s.Turn {
			return s.corrupt(r, errs.CorruptUnknownOperation, "model call for turn %d during turn %d", op.Turn, s.Turn)
		}
		s.Open = &Open{Model: true, Turn: op.Turn, ReservedTokens: op.ReservedTokens, ReservedCost: op.ReservedCost}
		s.Usage.ModelCalls++

	case *ModelCallFinished:
		if s.Open == nil || !s.Open.Model || s.Open.Turn != op.Turn {
			return s.corrupt(r, errs.CorruptUnknownOperation, "model call of turn %d finished but none is open", op.Turn)
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
		seen := map[string]bool{}
		for _, c := range op.ToolCalls {
			if seen[c.ID] {
				return s.corrupt(r, errs.CorruptToolCallMismatch, "call id %s issued twice in one response", c.ID)
			}
			seen[c.ID] = true
			s.ToolCallsIssued++
			s.Calls = append(s.Calls, &Call{ToolCall: c, Turn: op.Turn, Ordinal: s.ToolCallsIssued})
		}
		s.Final = len(op.ToolCalls) == 0
		s.TurnAnswered = true

	case *ModelCallFailed:
		if s.Open == nil || !s.Open.Model || s.Open.Turn != op.Turn {
			return s.corrupt(r, errs.CorruptUnknownOperation, "model call of turn %d failed but none is open", op.Turn)
		}
		s.Open = nil
		s.TurnFailures++
		if op.WillRetry {
			s.Usage.TransientRetries++
		}

	case *ToolCallStarted:
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
			return s.corrupt(r, errs.CorruptToolCallMismatch, "call %s started before call %s, which was issued first", op.CallID, s.NextCall().ID)
		case c.Name != op.Name:
			return s.corrupt(r, errs.CorruptToolCallMismatch, "call %s is to %s, not %s", op.CallID, c.Name, op.Name)
		}
		c.StartedAttempt = s.Attempt
		s.Open = &Open{CallID: op.CallID}

	case *ToolCallFailed:
		if s.Open == nil || s.Open.CallID != op.CallID {
			return s.corrupt(r, errs.CorruptUnknownOperation, "call %s failed but it is not open", op.CallID)
		}
		s.Open = nil
		s.Call(op.CallID).StartedAttempt = 0
		s.Usage.TransientRetries++

	case *ToolCallFinished:
		c := s.Call(op.CallID)
		switch {
		case c == nil:
			return s.corrupt(r, errs.CorruptToolCallMismatch, "result for call %s, which the newest model response did not issue", op.CallID)
		case c.Finished:
			return s.corrupt(r, errs.CorruptDuplicateToolInvoke, "call %s answered twice", op.CallID)
		case s.Open == nil || s.Open.CallID != op.CallID:
			return s.corrupt(r, errs.CorruptUnknownOperation, "call %s finished but it is not open", op.CallID)
		}
		s.Open = nil
		c.Finished, c.Output, c.Error, c.Orphaned = true, op.Output, op.Error, op.Orphaned
		s.Usage.ToolCalls++
		s.Transcript = append(s.Transcript, Message{Role: RoleTool, CallID: c.ID, Name: c.Name, Text: ResultText(c.Name, op.Output, op.Error)})

	case *Suspended:
		if s.Open != nil {
			return s.corrupt(r, errs.CorruptMultipleOpenOperations, "suspended for %s while %s is open", op.Reason, s.Open)
		}
		if s.Status != StatusRunning {
			return s.corrupt(r, errs.CorruptUnknownOperation, "suspended while %s", s.Status)
		}
		sus := *op
		s.Suspension = &sus
		s.Status = StatusSuspended

	case *Resumed:
		if s.Status != StatusSuspended || s.Suspension == nil {
			return s.corrupt(r, errs.CorruptResumeWithoutSuspend, "resumed for %s while %s", op.Reason, s.Status)
		}
		if op.Reason != s.Suspension.Reason {
			return s.corrupt(r, errs.CorruptResumeWithoutSuspend, "resumed for %s while suspended for %s", op.Reason, s.Suspension.Reason)
		}
		if err := s.resume(r, op); err != nil {
			return err
		}
		s.Suspension = nil
		s.Status = StatusRunning

	case *AbortRequested:
		if s.Abort == nil {
			a := *op
			s.Abort = &a
		}

	case *MessageQueued:
		s.Queued = append(s.Queued, Queued{Seq: r.Seq, Text: op.Text, Mode: op.Mode})

	case *MessageConsumed:
		for _, seq := range op.QueuedSeqs {
			i := slices.IndexFunc(s.Queued, func(q Queued) bool { return q.Seq == seq })
			if i < 0 {
				return s.corrupt(r, errs.CorruptUnknownOperation, "consumed message %d, which is not queued", seq)
			}
			s.Transcript = append(s.Transcript, Message{Role: RoleUser, Text: s.Queued[i].Text})
			s.Queued = slices.Delete(s.Queued, i, i+1)
			if s.Final {
				s.Final = false // a follow-up turns the answer into an intermediate reply
			}
		}

	case *DelegationStarted:
		if s.Delegation(op.DelegationID) != nil {
			return s.corrupt(r, errs.CorruptUnknownOperation, "delegation %s started twice", op.DelegationID)
		}
		if op.CallID != "" {
			c := s.Call(op.CallID)
			if c == nil || c.Finished || c.DelegationID != "" {
				return s.corrupt(r, errs.CorruptToolCallMismatch, "delegation %s for call %s, which is not an unanswered call without a child", op.DelegationID, op.CallID)
			}
			c.DelegationID = op.DelegationID
		}
		s.Delegations = append(s.Delegations, &Delegation{DelegationStarted: *op})

	case *DelegationFinished:
		d := s.Delegation(op.DelegationID)
		if d == nil || d.Finished != nil {
			return s.corrupt(r, errs.CorruptUnknownOperation, "delegation %s finished but it is not running", op.DelegationID)
		}
		f := *op
		d.Finished = &f

	case *Settled:
		if !op.State.Settled() {
			return s.corrupt(r, errs.CorruptUnknownOperation, "settled as %s, which is not a final state", op.State)
		}
		s.Status = op.State
		s.AbortCause = op.AbortCause
		s.Answer = op.Answer
		s.Failure = op.Failure
		s.SettleTime = r.Time
		s.Suspension = nil
		s.Abort = nil
		s.Open = nil

	case *Unknown:
		return s.corrupt(r, errs.CorruptUnknownOperation, "unknown record kind %q", op.Name)

	default:
		return s.corrupt(r, errs.CorruptUnknownOperation, "unknown record type %T", op)
	}
	return nil
}

func (s *State) resume(r Record, op *Resumed) error {
	sus := s.Suspension
	switch op.Reason {
	case ReasonToolResults:
		want := map[string]bool{}
		for _, id := range sus.CallIDs {
			want[id] = true
		}
		for _, res := range op.Results {
			c := s.Call(res.CallID)
			if !want[res.CallID] || c == nil {
				return s.corrupt(r, errs.CorruptToolCallMismatch, "result for call %s, which the suspension does not wait for", res.CallID)
			}
			delete(want, res.CallID)
			rr := res
			c.Result = &rr
		}
		if len(want) > 0 {
			return s.corrupt(r, errs.CorruptToolCallMismatch, "resume lacks results for %d calls", len(want))
		}
	case ReasonQuestion:
		c := s.Call(sus.CallID)
		if c == nil {
			return s.corrupt(r, errs.CorruptToolCallMismatch, "answer for call %s, which is not pending", sus.CallID)
		}
		answer := op.Answer
		c.Answer = &answer
	case ReasonApproval:
		c := s.Call(sus.CallID)
		if c == nil {
			return s.corrupt(r, errs.CorruptToolCallMismatch, "approval for call %s, which is not pending", sus.CallID)
		}
		c.Approval = &Approval{Approved: op.Approved, Note: op.Note}
	case ReasonChildren:
	}
	return nil
}

// String describes the open operation, for corruption details.
func (o *Open) String() string {
	if o.Model {
		return fmt.Sprintf("the model call of turn %d", o.Turn)
	}
	return "call " + o.CallID
}

// Runnable reports whether a worker should take the Run now: it is queued
// or running, or someone asked it to stop.
func (s *State) Runnable() bool {
	if s.Settled() || s.Admission == nil {
		return false
	}
	return s.Abort != nil || s.Status == StatusQueued || s.Status == StatusRunning
}

// WakeAt returns when an idle unsettled Run next needs a worker: the
// earlier of its suspension's expiry and its deadline. Zero for a settled
// Run.
func (s *State) WakeAt() time.Time {
	if s.Settled() || s.Admission == nil {
		return time.Time{}
	}
	at := s.Admission.Deadline
	if s.Suspension != nil && !s.Suspension.ExpireAt.IsZero() && s.Suspension.ExpireAt.Before(at) {
		at = s.Suspension.ExpireAt
	}
	return at
}
