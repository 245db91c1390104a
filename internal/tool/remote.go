package tool

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/runsvc/runsvc/internal/errs"
)

// RemoteAgent is the port to remote agents that a2a tools delegate to. A
// call's message becomes a remote task the Run follows across its
// Attempts: Send once (its task id is then recorded), Follow as often as
// needed, Send again only to answer the task's question.
//
// Failures are classified as for Executor: *errs.ToolRejected and
// *errs.ToolFailed are the agent's own answer (the model sees them); a
// failure to reach the agent (connection refused, HTTP 5xx, 429) is a
// retryable error such as *errs.TransientFailure; a denied dial is
// *errs.AccessDenied.
type RemoteAgent interface {
	// Send sends m to the agent of c.Tool and returns the task it
	// started or continued, as the agent first reports it.
	Send(ctx context.Context, c Call, m RemoteMessage) (RemoteTask, error)
	// Follow waits until the task t ends or asks a question other than
	// the one identified by answered, and returns it then. A task that
	// failed, was rejected or canceled is the agent's own failure.
	Follow(ctx context.Context, c Call, t RemoteTask, answered string) (RemoteTask, error)
	// Cancel asks the agent of c.Tool to cancel the task taskID, which
	// the Run c belongs to no longer waits for. A task the agent does
	// not know, or that cannot be canceled (it ended already), is
	// nothing to do: nil. Any other failure is returned as for Send.
	Cancel(ctx context.Context, c Call, taskID string) error
}

// RemoteMessage is a message to a remote agent: a new task's first
// message (TaskID empty), or the answer to a task's question.
type RemoteMessage struct {
	// ID is stable across retries of the same message, so the agent can
	// recognise a message sent again.
	ID        string
	TaskID    string
	ContextID string
	Text      string
}

// RemoteState is where a remote task stands, as runsvc acts on it.
type RemoteState string

// Remote task states.
const (
	// RemoteWorking: the task goes on; follow it.
	RemoteWorking RemoteState = "working"
	// RemoteInputRequired: the task asks Question.
	RemoteInputRequired RemoteState = "input_required"
	// RemoteCompleted: the task answered Output.
	RemoteCompleted RemoteState = "completed"
)

// RemoteTask is a remote agent's task as runsvc last saw it.
type RemoteTask struct {
	ID        string
	ContextID string
	State     RemoteState
	// Question and QuestionID are set when State is RemoteInputRequired:
	// what it asks, and what tells this question from an earlier one.
	Question   string
	QuestionID string
	// Output is the answer of a completed task, a JSON value.
	Output json.RawMessage
}

// RemoteText is the text an a2a call sends: its "message" argument, or,
// for a tool whose Spec declares other parameters, all its arguments as
// JSON.
func RemoteText(c Call) (string, error) {
	var args map[string]json.RawMessage
	if json.Unmarshal(c.Arguments, &args) != nil {
		return "", &errs.ToolRejected{Tool: c.Name, Message: `the arguments must be a JSON object such as {"message": "..."}`}
	}
	var text string
	if raw, ok := args["message"]; ok && len(args) == 1 && json.Unmarshal(raw, &text) == nil && text != "" {
		return text, nil
	}
	if len(args) == 0 {
		return "", &errs.ToolRejected{Tool: c.Name, Message: `the call needs {"message": "..."}`}
	}
	return string(c.Arguments), nil
}

// RemoteMessageID is the id of an a2a call's message n: 0 for its first,
// n for its n-th reply. The same in every attempt of the call, it lets an
// agent recognise a message sent again.
func RemoteMessageID(c Call, n int) string {
	if n == 0 {
		return "runsvc:" + c.GlobalID()
	}
	return "runsvc:" + c.GlobalID() + ":reply:" + strconv.Itoa(n)
}
