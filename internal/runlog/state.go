package runlog

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
)

// State is a Run as its log says it is: the reducer's fold, which every
// decision about the Run (the engine's, the Run manager's) is made on. It
// is JSON-serialisable, so a fold can stop, be stored, and go on.
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
	// Phase is where the current turn stands (see TurnPhase).
	Phase TurnPhase `json:"phase,omitempty"`
	// Open is the operation started and not yet finished.
	Open       *Open      `json:"open,omitempty"`
	Suspension *Suspended `json:"suspension,omitempty"`
	// Queued are messages not yet given to the model.
	Queued []Queued `json:"queued,omitempty"`
	// Steers maps the request id of each start steered into this Run to
	// its request's hash, so a retried steer is recognised.
	Steers map[string]string `json:"steers,omitempty"`
	// BudgetRaised holds the limits approved for budgets the Run asked to
	// exceed (limits.on_exhausted ASK), by dimension (tokens, cost,
	// tool_rounds); they replace the Spec's.
	BudgetRaised map[string]float64 `json:"budgetRaised,omitempty"`
	// ToolCallsIssued counts every call the model asked for, for the
	// circuit breaker.
	ToolCallsIssued int `json:"toolCallsIssued,omitempty"`
	// TurnFailures counts failed model calls of the current turn.
	TurnFailures int `json:"turnFailures,omitempty"`
	// Delegations are the children this Run started, in order.
	Delegations []*Delegation `json:"delegations,omitempty"`
	// LastText is the text of the newest model response.
	LastText string `json:"lastText,omitempty"`
	// OutputViolations are how the newest answer fails the output schema;
	// OutputRejections counts the answers in a row that failed it.
	OutputViolations []errs.FieldViolation `json:"outputViolations,omitempty"`
	OutputRejections int                   `json:"outputRejections,omitempty"`
	// Compaction is the newest summary of the transcript's older messages,
	// which the model gets in their place.
	Compaction *Compaction `json:"compaction,omitempty"`
	// DiedAttempts counts the Attempts that died: they ended without
	// settling the Run or leaving it suspended (their process crashed,
	// their lease was lost, their worker drained). An Attempt that
	// suspended is not counted, whatever then continues the Run (a
	// resume, an answer, a timer). The newest Attempt is counted only once
	// the next one starts; NextAttemptFollowsDeath tells it before.
	DiedAttempts int `json:"diedAttempts,omitempty"`
	// AttemptWaited is true once the newest Attempt has left the Run
	// waiting: it suspended it, or it began on a Run still suspended and
	// did not resume it itself. An Attempt that started after it follows
	// one that ended as it should, not one that died.
	AttemptWaited bool `json:"attemptWaited,omitempty"`
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
	// ProviderCallID is, for a tool message, the provider's id of the call
	// it answers when that differs from CallID.
	ProviderCallID string `json:"providerCallId,omitempty"`
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
	// InDoubt marks a call closed as in doubt; InDoubtAnswer is what a
	// person said about it.
	InDoubt       bool           `json:"inDoubt,omitempty"`
	InDoubtAnswer *InDoubtAnswer `json:"inDoubtAnswer,omitempty"`
	// DelegationID is the child Run started for a delegate call.
	DelegationID string `json:"delegationId,omitempty"`
	// Remote is the remote task an a2a call follows, once recorded.
	Remote *A2ATask `json:"remote,omitempty"`
	// Woke is set when the TIMER a sleep or wait_until call suspended on
	// has woken the Run.
	Woke *Woke `json:"woke,omitempty"`
}

// Woke is how a timer call's sleep ended.
type Woke struct {
	// WakeAt is when it was to wake; At when it woke (the Record's time).
	WakeAt time.Time `json:"wakeAt"`
	At     time.Time `json:"at"`
	// Early is true when ResumeRun woke it before WakeAt.
	Early bool `json:"early,omitempty"`
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

// String describes the open operation, for corruption details.
func (o *Open) String() string {
	if o.Model {
		return fmt.Sprintf("the model call of turn %d", o.Turn)
	}
	return "call " + o.CallID
}

// NextAttemptFollowsDeath reports whether an Attempt starting now
// follows one that died: the newest Attempt ended (its lease is gone)
// without settling the Run or leaving it waiting.
func (s *State) NextAttemptFollowsDeath() bool { return s.Attempt > 0 && !s.AttemptWaited }

// Runnable reports whether a worker should take the Run now: it is queued
// or running, or someone asked it to stop.
func (s *State) Runnable() bool {
	if s.Settled() || s.Admission == nil {
		return false
	}
	return s.Abort != nil || s.Status == StatusQueued || s.Status == StatusRunning
}

// WakeAt returns when an idle unsettled Run next needs a worker: the
// earliest of its suspension's expiry, its timer's wake time and its
// deadline. Zero for a settled Run.
func (s *State) WakeAt() time.Time {
	if s.Settled() || s.Admission == nil {
		return time.Time{}
	}
	at := s.Admission.Deadline
	if sus := s.Suspension; sus != nil {
		for _, t := range []time.Time{sus.ExpireAt, sus.WakeAt} {
			if !t.IsZero() && t.Before(at) {
				at = t
			}
		}
	}
	return at
}
