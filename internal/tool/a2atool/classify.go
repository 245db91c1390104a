package a2atool

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/runsvc/runsvc/internal/errs"
)

// rpcError is a JSON-RPC error object; A2A 1.0 puts a google.rpc.ErrorInfo
// (its reason, domain a2a-protocol.org) in data.
type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// JSON-RPC error codes: JSON-RPC 2.0's own, and A2A 1.0's (-32001 to
// -32099).
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
	codeInternalError  = -32603
	codeTaskNotFound   = -32001
	codeNotCancelable  = -32002
	codeInvalidAgent   = -32006
)

// errNothingToDo is an agent's answer that the request has nothing left
// to do (exchange.nothingToDo).
var errNothingToDo = errors.New("nothing to do")

// classifyRPC sorts a JSON-RPC error: the agent's internal error is
// transient (another try may work); an invalid agent response is the
// agent's failure; every other error, JSON-RPC's or A2A's (task not
// found, not cancelable, unsupported operation, content type not
// supported, version not supported, ...), is a rejection: the same
// request would be refused again.
func (x exchange) classifyRPC(e rpcError) error {
	if x.nothingToDo != nil && x.nothingToDo(e.Code, reasonOf(e.Data)) {
		return errNothingToDo
	}
	msg := x.redact(describe(e.Code, e.Message, reasonOf(e.Data)))
	switch {
	case e.Code == codeInternalError:
		return &errs.TransientFailure{Operation: x.operation(), Message: msg}
	case e.Code == codeInvalidAgent:
		return &errs.ToolFailed{Tool: x.call.Name, Message: x.op + ": " + msg}
	}
	return &errs.ToolRejected{Tool: x.call.Name, Message: x.op + ": " + msg}
}

// classifyHTTP sorts an HTTP answer that is not 2xx: 408, 429 and 5xx
// are transient (with the answer's Retry-After); any other is a
// rejection, with the HTTP+JSON error's message and reason when it has
// them.
func (x exchange) classifyHTTP(code int, status string, h http.Header, body []byte) error {
	var e struct {
		Error struct {
			Message string          `json:"message"`
			Details json.RawMessage `json:"details"`
		} `json:"error"`
	}
	msg, reason := status, ""
	if json.Unmarshal(body, &e) == nil && e.Error.Message != "" {
		reason = reasonOf(e.Error.Details)
		msg = describe(code, e.Error.Message, reason)
	}
	if x.nothingToDo != nil && x.nothingToDo(code, reason) {
		return errNothingToDo
	}
	msg = x.redact(msg)
	if code == http.StatusTooManyRequests || code == http.StatusRequestTimeout || code >= 500 {
		return &errs.TransientFailure{Operation: x.operation(), Message: msg, RetryAfter: retryAfter(h)}
	}
	return &errs.ToolRejected{Tool: x.call.Name, Message: x.op + ": " + msg}
}

// describe is an error's code, reason and message on one line.
func describe(code int, message, reason string) string {
	if reason != "" {
		return fmt.Sprintf("%s (%s, %d)", message, reason, code)
	}
	return fmt.Sprintf("%s (%d)", message, code)
}

// reasonOf is the reason of the google.rpc.ErrorInfo among details.
func reasonOf(details json.RawMessage) string {
	var list []struct {
		Type   string `json:"@type"`
		Reason string `json:"reason"`
	}
	if json.Unmarshal(details, &list) != nil {
		return ""
	}
	for _, d := range list {
		if d.Type == "type.googleapis.com/google.rpc.ErrorInfo" {
			return d.Reason
		}
	}
	return ""
}

// taskOutcome is what a task's state means to the call following it: the
// task as runsvc acts on it, or the agent's failure (FAILED is worth
// another try by the model; REJECTED, CANCELED and AUTH_REQUIRED are
// not).
func (x exchange) taskOutcome(t task) (state string, err error) {
	why := statusText(t.Status)
	if why == "" {
		why = "no reason given"
	}
	why = x.redact(why)
	switch t.Status.State {
	case stateFailed:
		return "", &errs.ToolFailed{Tool: x.call.Name, Message: "the agent's task " + t.ID + " failed: " + why}
	case stateRejected:
		return "", &errs.ToolRejected{Tool: x.call.Name, Message: "the agent rejected the task " + t.ID + ": " + why}
	case stateCanceled:
		return "", &errs.ToolRejected{Tool: x.call.Name, Message: "the agent's task " + t.ID + " was canceled: " + why}
	case stateAuthRequired:
		return "", &errs.ToolRejected{Tool: x.call.Name, Message: "the agent's task " + t.ID + " asks for authentication, which runsvc cannot give: " + why}
	case stateCompleted, stateInputRequired, stateSubmitted, stateWorking:
		return t.Status.State, nil
	}
	return "", &errs.ToolRejected{Tool: x.call.Name, Message: fmt.Sprintf("the agent's task %s is in state %q, which A2A 1.0 does not define", t.ID, t.Status.State)}
}
