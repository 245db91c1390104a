// Package a2atool calls remote A2A 1.0 agents for a2a tools: a client of
// the JSON-RPC and HTTP+JSON bindings of a2a.proto (package lf.a2a.v1),
// written for runsvc's durable calls.
//
// A call's message is sent with SendMessage and returnImmediately, so the
// agent names its task at once and the engine records the task id before
// waiting; the task is then followed with GetTask every poll interval
// until it completes, fails or asks a question (INPUT_REQUIRED). The
// message id is the call's idempotency key (tool.Call.GlobalID) and the
// reply's ordinal (tool.RemoteMessageID), the same in every attempt.
//
// Classification: an agent that cannot be reached, HTTP 408, 429 and 5xx
// and JSON-RPC's internal error are transient (*errs.TransientFailure,
// retried by the engine); every other error the agent answers (JSON-RPC
// or A2A error, HTTP 4xx) is *errs.ToolRejected; a task that FAILED is
// *errs.ToolFailed, one REJECTED, CANCELED or AUTH_REQUIRED
// *errs.ToolRejected. Cancel sends CancelTask; an agent answering that
// the task is unknown or not cancelable has nothing to do, which is no
// failure. Every dial obeys the outbound network policy
// (netpolicy); a denied one is *errs.AccessDenied.
package a2atool

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/netpolicy"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/tool"
)

// cardTTL is how long an agent card read is used before it is read again.
const cardTTL = 5 * time.Minute

// Executor calls a2a tools. It is a tool.Executor (a call sent and
// followed to its end in one go, for InvokeTool) and a tool.RemoteAgent
// (the steps a Run records between).
type Executor struct {
	client *http.Client

	mu    sync.Mutex
	cards map[string]cachedCard
}

type cachedCard struct {
	endpoints map[string]string // binding -> URL
	read      time.Time
}

var (
	_ tool.Executor    = (*Executor)(nil)
	_ tool.RemoteAgent = (*Executor)(nil)
)

// New returns an Executor using client, or, when nil, a client whose
// connections obey the default outbound network policy (see netpolicy).
func New(client *http.Client) *Executor {
	if client == nil {
		client = &http.Client{Transport: (*netpolicy.Policy)(nil).Transport()}
	}
	return &Executor{client: client, cards: map[string]cachedCard{}}
}

// Send sends m to the agent and returns its task as the agent first
// reports it. An agent answering with a message instead of a task has
// answered: the task is then completed, with no id.
func (x *Executor) Send(ctx context.Context, c tool.Call, m tool.RemoteMessage) (tool.RemoteTask, error) {
	ex := exchange{client: x.client, call: c, op: "SendMessage"}
	b, err := x.binding(ctx, c)
	if err != nil {
		return tool.RemoteTask{}, err
	}
	zero := 0
	resp, err := b.send(ctx, ex, sendRequest{Message: outgoing(m), Configuration: sendConfiguration{ReturnImmediately: true, HistoryLength: &zero}})
	switch {
	case err != nil:
		return tool.RemoteTask{}, err
	case resp.Task != nil:
		return ex.remote(*resp.Task, "")
	case resp.Message != nil:
		out, _ := json.Marshal(textOf(resp.Message.Parts))
		return tool.RemoteTask{ContextID: resp.Message.ContextID, State: tool.RemoteCompleted, Output: out}, nil
	}
	return tool.RemoteTask{}, ex.rejected("the agent answered with neither a task nor a message")
}

// Follow reads the task every poll interval until it completes, fails or
// asks a question other than answered.
func (x *Executor) Follow(ctx context.Context, c tool.Call, t tool.RemoteTask, answered string) (tool.RemoteTask, error) {
	if t.State == tool.RemoteCompleted || (t.State == tool.RemoteInputRequired && t.QuestionID != answered) {
		return t, nil
	}
	ex := exchange{client: x.client, call: c, op: "GetTask"}
	b, err := x.binding(ctx, c)
	if err != nil {
		return t, err
	}
	every := spec.DefaultA2APollInterval
	if c.Tool.A2A != nil {
		every = c.Tool.A2A.EffectivePollInterval()
	}
	for {
		got, err := b.get(ctx, ex, t.ID)
		if err != nil {
			return t, err
		}
		if t, err = ex.remote(got, answered); err != nil || t.State != tool.RemoteWorking {
			return t, err
		}
		select {
		case <-ctx.Done():
			return t, ctx.Err()
		case <-time.After(every):
		}
	}
}

// Cancel asks the agent to cancel the task id (CancelTask). A task the
// agent does not know (TASK_NOT_FOUND) or cannot cancel
// (TASK_NOT_CANCELABLE: it ended already) is nothing to do: nil.
func (x *Executor) Cancel(ctx context.Context, c tool.Call, id string) error {
	ex := exchange{client: x.client, call: c, op: "CancelTask", nothingToDo: nothingToCancel}
	b, err := x.binding(ctx, c)
	if err != nil {
		return err
	}
	if err := b.cancel(ctx, ex, id); err != nil && err != errNothingToDo {
		return err
	}
	return nil
}

// nothingToCancel reports whether an agent's error to a CancelTask says
// the task is gone or over: A2A's TaskNotFoundError or
// TaskNotCancelableError, by reason or JSON-RPC code, or HTTP 409
// Conflict (the HTTP+JSON binding's status for a task not cancelable).
func nothingToCancel(code int, reason string) bool {
	switch {
	case reason == "TASK_NOT_FOUND" || reason == "TASK_NOT_CANCELABLE":
		return true
	case code == codeTaskNotFound || code == codeNotCancelable || code == http.StatusConflict:
		return true
	}
	return false
}

// remote is the task t as runsvc acts on it; an INPUT_REQUIRED whose
// question was answered still works (the agent has the reply but has not
// moved on yet).
func (ex exchange) remote(t task, answered string) (tool.RemoteTask, error) {
	state, err := ex.taskOutcome(t)
	if err != nil {
		return tool.RemoteTask{}, err
	}
	r := tool.RemoteTask{ID: t.ID, ContextID: t.ContextID, State: tool.RemoteWorking}
	switch state {
	case stateCompleted:
		r.State, r.Output = tool.RemoteCompleted, answer(t)
	case stateInputRequired:
		if qid := questionID(t.Status); qid != answered || qid == "" {
			r.State, r.QuestionID = tool.RemoteInputRequired, qid
			r.Question = ex.redact(statusText(t.Status))
		}
	}
	return r, nil
}

// Execute sends the call's message and follows its task to the end in
// one go: a task asking a question is a rejection, since only a Run can
// answer it (suspending).
func (x *Executor) Execute(ctx context.Context, c tool.Call) (json.RawMessage, error) {
	text, err := tool.RemoteText(c)
	if err != nil {
		return nil, err
	}
	t, err := x.Send(ctx, c, tool.RemoteMessage{ID: tool.RemoteMessageID(c, 0), Text: text})
	if err == nil {
		t, err = x.Follow(ctx, c, t, "")
	}
	switch {
	case err != nil:
		return nil, err
	case t.State == tool.RemoteInputRequired:
		return nil, &errs.ToolRejected{Tool: c.Name, Message: "the agent asks a question, which only a Run can answer: " + t.Question}
	}
	return t.Output, nil
}

// binding is the binding and endpoint of the call's agent: its url, or
// the first interface of its card speaking the tool's binding.
func (x *Executor) binding(ctx context.Context, c tool.Call) (binding, error) {
	a := c.Tool.A2A
	if a == nil {
		return nil, &errs.ConfigurationInvalid{Subject: "tool " + c.Name, Description: "an a2a tool needs a2a.card_url or a2a.url"}
	}
	kind := a.EffectiveBinding()
	if a.URL != "" {
		return bindingFor(kind, a.URL), nil
	}
	endpoint, err := x.fromCard(ctx, c, kind)
	if err != nil {
		return nil, err
	}
	return bindingFor(kind, endpoint), nil
}

// fromCard reads the agent card (cached for cardTTL) and returns its
// endpoint for kind.
func (x *Executor) fromCard(ctx context.Context, c tool.Call, kind string) (string, error) {
	cardURL := c.Tool.A2A.CardURL
	x.mu.Lock()
	cached, ok := x.cards[cardURL]
	x.mu.Unlock()
	if !ok || time.Since(cached.read) > cardTTL {
		var card struct {
			SupportedInterfaces []struct {
				URL             string `json:"url"`
				ProtocolBinding string `json:"protocolBinding"`
			} `json:"supportedInterfaces"`
		}
		ex := exchange{client: x.client, call: c, op: "agent card"}
		if err := ex.rest(ctx, http.MethodGet, cardURL, nil, &card); err != nil {
			return "", err
		}
		cached = cachedCard{endpoints: map[string]string{}, read: time.Now()}
		for _, i := range card.SupportedInterfaces {
			if _, seen := cached.endpoints[i.ProtocolBinding]; !seen && i.URL != "" {
				cached.endpoints[i.ProtocolBinding] = i.URL
			}
		}
		x.mu.Lock()
		x.cards[cardURL] = cached
		x.mu.Unlock()
	}
	if endpoint, ok := cached.endpoints[kind]; ok {
		return endpoint, nil
	}
	return "", &errs.ToolRejected{Tool: c.Name, Message: "the agent card at " + cardURL + " offers no " + kind + " interface"}
}
