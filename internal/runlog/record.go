// Package runlog holds a Run's log: the Records a Run appends, their
// encoding, and the reducer that folds them into the Run's State.
//
// The reducer is pure: State is a function of the Records alone, folding a
// log in pieces equals folding it whole, and a log the protocol cannot
// produce is an *errs.CorruptLog naming the broken invariant.
package runlog

import (
	"encoding/json"
	"fmt"
	"reflect"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
)

// Record is one entry of a Run's log.
type Record struct {
	// Seq is the Record's position, gapless from 1.
	Seq int64
	// Time is when it was appended.
	Time time.Time
	// Attempt is the Attempt that wrote it, 0 for outsiders.
	Attempt int
	// Op is what happened.
	Op Op
}

// Op is the body of a Record.
type Op interface {
	// Kind names the operation in the store.
	Kind() string
}

// Status is where a Run is in its lifecycle.
type Status string

// Lifecycle states.
const (
	StatusQueued    Status = "QUEUED"
	StatusRunning   Status = "RUNNING"
	StatusSuspended Status = "SUSPENDED"
	StatusCompleted Status = "COMPLETED"
	StatusFailed    Status = "FAILED"
	StatusAborted   Status = "ABORTED"
	StatusAbandoned Status = "ABANDONED"
)

// Settled reports whether s is a final state.
func (s Status) Settled() bool {
	switch s {
	case StatusCompleted, StatusFailed, StatusAborted, StatusAbandoned:
		return true
	}
	return false
}

// Reason is what a suspension waits for.
type Reason string

// Suspension reasons.
const (
	ReasonToolResults Reason = "TOOL_RESULTS"
	ReasonApproval    Reason = "APPROVAL"
	ReasonQuestion    Reason = "QUESTION"
	ReasonChildren    Reason = "CHILDREN"
	// ReasonTimer waits for a time (Suspended.WakeAt): the sleep and
	// wait_until tools, or a start_at. It has no expiry.
	ReasonTimer Reason = "TIMER"
)

// AbortCause says why a Run was aborted.
type AbortCause string

// Abort causes.
const (
	CauseInterrupted AbortCause = "INTERRUPTED"
	CauseDeadline    AbortCause = "DEADLINE"
	// CauseReplaced: a newer start of its concurrency key, in the mode
	// replace, replaced the Run while it waited for a slot.
	CauseReplaced AbortCause = "REPLACED"
)

// MessageMode says when a queued message reaches the model.
type MessageMode string

// Message modes.
const (
	ModeSteer    MessageMode = "STEER"
	ModeFollowUp MessageMode = "FOLLOW_UP"
)

// ToolCall is a tool call the model issued.
type ToolCall struct {
	// ID is runsvc's id of the call, unique within the Run.
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	// ProviderID is the model provider's own id of the call, which the
	// provider gets back in the transcript; "" when it is ID (and in
	// records written before runsvc made its own ids).
	ProviderID string `json:"providerId,omitempty"`
}

// ProviderCallID returns the provider's id of the call.
func (c ToolCall) ProviderCallID() string {
	if c.ProviderID != "" {
		return c.ProviderID
	}
	return c.ID
}

// ToolError is a tool's failure as its executor reported it.
type ToolError struct {
	Message   string `json:"message"`
	Retryable bool   `json:"retryable,omitempty"`
}

// ToolResult is a client's result for one call.
type ToolResult struct {
	CallID string          `json:"callId"`
	Output json.RawMessage `json:"output,omitempty"`
	Error  *ToolError      `json:"error,omitempty"`
}

// Admitted is the first Record of every Run.
type Admitted struct {
	Tenant       string    `json:"tenant"`
	Spec         string    `json:"spec"`
	Version      string    `json:"version"`
	Input        string    `json:"input"`
	RequestID    string    `json:"requestId,omitempty"`
	Deadline     time.Time `json:"deadline"`
	ParentRunID  string    `json:"parentRunId,omitempty"`
	RootRunID    string    `json:"rootRunId"`
	DelegationID string    `json:"delegationId,omitempty"`
	Depth        int       `json:"depth,omitempty"`
	// TraceParent is the W3C trace context of the StartRun that admitted
	// the Run, which its Attempts' spans continue; empty when untraced.
	TraceParent string `json:"traceParent,omitempty"`
	// Fork, when set, says the Run was forked from another Run's log, and
	// holds the state it starts from.
	Fork *ForkOrigin `json:"fork,omitempty"`
	// StartAt, when set, admits the Run asleep: suspended on a TIMER that
	// wakes at StartAt, when its first turn starts.
	StartAt time.Time `json:"startAt,omitzero"`
	// Alias is the Spec alias the Run was started on (`spec@alias`),
	// AliasSide the side of it the Run took (alias.Side); empty for a
	// Run started by name or Version.
	Alias     string `json:"alias,omitempty"`
	AliasSide string `json:"aliasSide,omitempty"`
	// Replay, when set, makes the Run a sandboxed replay of a recorded
	// Run for an evaluation (replay.go).
	Replay *Replay `json:"replay,omitempty"`
	// Evaluation is the evaluation whose namespace the Run is in (a
	// replay's or an LLM judge's); empty for a production Run.
	Evaluation string `json:"evaluation,omitempty"`
}

// AttemptStarted records that a worker took the Run under a lease.
type AttemptStarted struct {
	Attempt  int    `json:"attempt"`
	WorkerID string `json:"workerId"`
}

// TurnStarted records the start of a turn.
type TurnStarted struct {
	Turn int `json:"turn"`
}

// ModelCallStarted records a model call about to be made, with what it
// reserved against the budgets.
type ModelCallStarted struct {
	Turn           int     `json:"turn"`
	ReservedTokens int64   `json:"reservedTokens,omitempty"`
	ReservedCost   float64 `json:"reservedCost,omitempty"`
}

// ModelCallFinished records the model's response and its usage.
type ModelCallFinished struct {
	Turn         int        `json:"turn"`
	Text         string     `json:"text,omitempty"`
	ToolCalls    []ToolCall `json:"toolCalls,omitempty"`
	InputTokens  int64      `json:"inputTokens,omitempty"`
	OutputTokens int64      `json:"outputTokens,omitempty"`
	Cost         float64    `json:"cost,omitempty"`
	Priced       bool       `json:"priced,omitempty"`
	// OutputViolations are how a text answer fails the Spec's output
	// schema, none when it conforms (or the Spec has none).
	OutputViolations []errs.FieldViolation `json:"outputViolations,omitempty"`
	// Reask is what the engine decided about an answer with
	// OutputViolations: the message it asked again with, or none when
	// the Run fails on it. Records written before it existed lack it.
	Reask *OutputReask `json:"reask,omitempty"`
	// Model is the model that answered (provider/model): the Spec's, or
	// one of its fallbacks. Records written before it existed lack it.
	Model string `json:"model,omitempty"`
	// Fallbacks are the models tried before it for this call, each with
	// the failure that moved the call on.
	Fallbacks []ModelFallback `json:"fallbacks,omitempty"`
	// RateLimitWait is how long the call waited for the provider's rate
	// limit before it was sent.
	RateLimitWait time.Duration `json:"rateLimitWait,omitempty"`
}

// ModelFallback is a model a call tried and left for the next.
type ModelFallback struct {
	Model   string      `json:"model"`
	Failure errs.Stored `json:"failure"`
}

// OutputReask records the engine's answer to a final answer that failed
// the output schema, so that the reducer only copies it: the message
// sent to the model to ask again (empty: it did not ask, and the answer
// stays final) and the limit of re-asks in a row it applied.
type OutputReask struct {
	Text  string `json:"text,omitempty"`
	Limit int    `json:"limit"`
}

// ModelCallFailed records a failed model call.
type ModelCallFailed struct {
	Turn       int           `json:"turn"`
	Failure    errs.Stored   `json:"failure"`
	WillRetry  bool          `json:"willRetry,omitempty"`
	RetryAfter time.Duration `json:"retryAfter,omitempty"`
}

// ToolCallStarted records a tool call about to execute.
type ToolCallStarted struct {
	CallID string `json:"callId"`
	Name   string `json:"name"`
}

// ToolCallFinished records a tool call's answer: its output, or its error,
// which the model sees as the result.
type ToolCallFinished struct {
	CallID   string          `json:"callId"`
	Name     string          `json:"name"`
	Output   json.RawMessage `json:"output,omitempty"`
	Error    *errs.Stored    `json:"error,omitempty"`
	Orphaned bool            `json:"orphaned,omitempty"`
	// InDoubt marks an at-most-once call closed without being made again:
	// it started, but its result was never recorded.
	InDoubt bool `json:"inDoubt,omitempty"`
}

// ToolCallFailed records a transient failure of one execution of a call,
// which will be retried.
type ToolCallFailed struct {
	CallID     string        `json:"callId"`
	Name       string        `json:"name"`
	Error      errs.Stored   `json:"error"`
	RetryAfter time.Duration `json:"retryAfter,omitempty"`
}

// Suspended records that the Run waits.
type Suspended struct {
	Reason         Reason    `json:"reason"`
	ExpireAt       time.Time `json:"expireAt"`
	CallIDs        []string  `json:"callIds,omitempty"`
	Question       string    `json:"question,omitempty"`
	CallID         string    `json:"callId,omitempty"`
	ApprovalReason string    `json:"approvalReason,omitempty"`
	DelegationIDs  []string  `json:"delegationIds,omitempty"`
	// InDoubt marks an APPROVAL asking whether an at-most-once call in
	// doubt happened.
	InDoubt bool `json:"inDoubt,omitempty"`
	// WakeAt is when a TIMER suspension wakes the Run.
	WakeAt time.Time `json:"wakeAt,omitzero"`
	// Budget marks an APPROVAL of a budget the next step would exceed
	// (limits.on_exhausted ASK); CallID is then empty.
	Budget *BudgetAsk `json:"budget,omitempty"`
}

// BudgetAsk is a budget a Run would exceed: its dimension (tokens, cost,
// tool_rounds), what was spent, what the next step reserves, the limit.
type BudgetAsk struct {
	Dimension string  `json:"dimension"`
	Spent     float64 `json:"spent"`
	Reserve   float64 `json:"reserve"`
	Limit     float64 `json:"limit"`
}

// Resumed records the answer to a suspension.
type Resumed struct {
	Reason   Reason       `json:"reason"`
	Results  []ToolResult `json:"results,omitempty"`
	Answer   string       `json:"answer,omitempty"`
	Approved bool         `json:"approved,omitempty"`
	Note     string       `json:"note,omitempty"`
	// InDoubt answers an APPROVAL asking whether a call happened.
	InDoubt *InDoubtAnswer `json:"inDoubt,omitempty"`
	// Early marks a TIMER woken by ResumeRun before its wake time.
	Early bool `json:"early,omitempty"`
	// BudgetLimit is the new limit of an approved BudgetAsk.
	BudgetLimit float64 `json:"budgetLimit,omitempty"`
}

// AbortRequested records a request to stop the Run.
type AbortRequested struct {
	Cause  AbortCause `json:"cause"`
	Reason string     `json:"reason,omitempty"`
}

// MessageQueued records a user message for the Run.
type MessageQueued struct {
	Text string      `json:"text"`
	Mode MessageMode `json:"mode"`
	// RequestID and RequestHash are set when a StartRun with strategy
	// steer and a request id gave the message: its retry finds it here.
	RequestID   string `json:"requestId,omitempty"`
	RequestHash string `json:"requestHash,omitempty"`
}

// MessageConsumed records that queued messages reached the model.
type MessageConsumed struct {
	QueuedSeqs []int64 `json:"queuedSeqs"`
}

// DelegationStarted records a child Run this Run started.
type DelegationStarted struct {
	DelegationID string `json:"delegationId"`
	ChildRunID   string `json:"childRunId"`
	Spec         string `json:"spec"`
	Task         string `json:"task"`
	CallID       string `json:"callId,omitempty"`
}

// DelegationFinished records that a child Run settled.
type DelegationFinished struct {
	DelegationID string       `json:"delegationId"`
	ChildRunID   string       `json:"childRunId"`
	State        Status       `json:"state"`
	Answer       string       `json:"answer,omitempty"`
	Failure      *errs.Stored `json:"failure,omitempty"`
}

// A2ATask records the remote A2A task an a2a tool call follows: written
// once the agent named the task, after each reply sent to its question,
// and when it asks one. A call with a recorded task never sends its first
// message again.
type A2ATask struct {
	CallID    string `json:"callId"`
	TaskID    string `json:"taskId"`
	ContextID string `json:"contextId,omitempty"`
	// Replies counts the answers sent to the task's questions; Answered
	// identifies the question the last one answered.
	Replies  int    `json:"replies,omitempty"`
	Answered string `json:"answered,omitempty"`
	// Question and QuestionID are the question the task asks now, which
	// the Run suspends on; empty while it works.
	Question   string `json:"question,omitempty"`
	QuestionID string `json:"questionId,omitempty"`
}

// Settled is the last Record of every Run.
type Settled struct {
	State      Status       `json:"state"`
	AbortCause AbortCause   `json:"abortCause,omitempty"`
	Answer     string       `json:"answer,omitempty"`
	Failure    *errs.Stored `json:"failure,omitempty"`
}

// Unknown is a Record whose kind this version does not know. Folding it is
// CorruptLog with reason unknown_operation.
type Unknown struct {
	Name string
	Body json.RawMessage
}

// Kind implements Op: "admitted".
func (*Admitted) Kind() string { return "admitted" }

// Kind implements Op: "attempt_started".
func (*AttemptStarted) Kind() string { return "attempt_started" }

// Kind implements Op: "turn_started".
func (*TurnStarted) Kind() string { return "turn_started" }

// Kind implements Op: "model_call_started".
func (*ModelCallStarted) Kind() string { return "model_call_started" }

// Kind implements Op: "model_call_finished".
func (*ModelCallFinished) Kind() string { return "model_call_finished" }

// Kind implements Op: "model_call_failed".
func (*ModelCallFailed) Kind() string { return "model_call_failed" }

// Kind implements Op: "tool_call_started".
func (*ToolCallStarted) Kind() string { return "tool_call_started" }

// Kind implements Op: "tool_call_finished".
func (*ToolCallFinished) Kind() string { return "tool_call_finished" }

// Kind implements Op: "tool_call_failed".
func (*ToolCallFailed) Kind() string { return "tool_call_failed" }

// Kind implements Op: "suspended".
func (*Suspended) Kind() string { return "suspended" }

// Kind implements Op: "resumed".
func (*Resumed) Kind() string { return "resumed" }

// Kind implements Op: "abort_requested".
func (*AbortRequested) Kind() string { return "abort_requested" }

// Kind implements Op: "message_queued".
func (*MessageQueued) Kind() string { return "message_queued" }

// Kind implements Op: "message_consumed".
func (*MessageConsumed) Kind() string { return "message_consumed" }

// Kind implements Op: "delegation_started".
func (*DelegationStarted) Kind() string { return "delegation_started" }

// Kind implements Op: "delegation_finished".
func (*DelegationFinished) Kind() string { return "delegation_finished" }

// Kind implements Op: "a2a_task".
func (*A2ATask) Kind() string { return "a2a_task" }

// Kind implements Op: "settled".
func (*Settled) Kind() string { return "settled" }

// Kind implements Op.
func (u *Unknown) Kind() string { return u.Name }

var decoders = map[string]func() Op{}

func init() {
	for _, op := range []Op{
		&Admitted{}, &AttemptStarted{}, &TurnStarted{}, &ModelCallStarted{}, &ModelCallFinished{},
		&ModelCallFailed{}, &ToolCallStarted{}, &ToolCallFinished{}, &ToolCallFailed{}, &Suspended{},
		&Resumed{}, &AbortRequested{}, &MessageQueued{}, &MessageConsumed{}, &DelegationStarted{},
		&DelegationFinished{}, &Settled{}, &HistoryCompacted{}, &A2ATask{},
	} {
		t := reflect.TypeOf(op).Elem()
		decoders[op.Kind()] = func() Op { return reflect.New(t).Interface().(Op) }
	}
}

// Encode returns the kind and JSON body a store keeps for op.
func Encode(op Op) (string, []byte, error) {
	if u, ok := op.(*Unknown); ok {
		return u.Name, u.Body, nil
	}
	b, err := json.Marshal(op)
	if err != nil {
		return "", nil, fmt.Errorf("encoding %s record: %w", op.Kind(), err)
	}
	return op.Kind(), b, nil
}

// Decode reads a stored body back. An unknown kind decodes to *Unknown; a
// body that does not decode is an error.
func Decode(kind string, body []byte) (Op, error) {
	mk, ok := decoders[kind]
	if !ok {
		return &Unknown{Name: kind, Body: body}, nil
	}
	op := mk()
	if err := json.Unmarshal(body, op); err != nil {
		return nil, fmt.Errorf("decoding %s record: %w", kind, err)
	}
	return op, nil
}
