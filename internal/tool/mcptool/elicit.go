package mcptool

import (
	"context"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A server may ask for input during a tool call (elicitation: an
// elicitation/create request within the call on 2025-11-25, an
// input-required result that the SDK answers and retries from 2026-07-28
// on). runsvc answers from the call's Answer when it has one; otherwise
// it cancels the elicitation, notes the question, and the call returns
// *tool.Asked, on which the Run suspends QUESTION. The resume's answer
// makes the call again, and the server's question is answered with it.

// asking is what one call's elicitations met: the answer to give, and the
// question runsvc could not answer.
type asking struct {
	mu       sync.Mutex
	answer   *string
	used     bool
	question string
}

type askingKey struct{}

// withAsking makes the call's elicitations (those the SDK fulfils under
// the call's context) reach a.
func withAsking(ctx context.Context, a *asking) context.Context {
	return context.WithValue(ctx, askingKey{}, a)
}

// asked is the question the call could not answer, "" when none.
func (a *asking) asked() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.question
}

// calls tracks the calls in flight on each session, so that an
// elicitation/create request, which the server sends outside the call's
// context, is matched to the call when it is the session's only one.
type calls struct {
	mu sync.Mutex
	on map[*mcp.ClientSession]map[*asking]bool
}

func (c *calls) add(cs *mcp.ClientSession, a *asking) func() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.on == nil {
		c.on = map[*mcp.ClientSession]map[*asking]bool{}
	}
	if c.on[cs] == nil {
		c.on[cs] = map[*asking]bool{}
	}
	c.on[cs][a] = true
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		delete(c.on[cs], a)
		if len(c.on[cs]) == 0 {
			delete(c.on, cs)
		}
	}
}

// only is the one call in flight on cs, or nil.
func (c *calls) only(cs *mcp.ClientSession) *asking {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.on[cs]) != 1 {
		return nil
	}
	for a := range c.on[cs] {
		return a
	}
	return nil
}

// elicit answers a server's elicitation: with the call's answer, once;
// else by cancelling it and noting the question. An elicitation runsvc
// cannot match to a call, or a URL-mode one, is declined.
func (x *Executor) elicit(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	a, _ := ctx.Value(askingKey{}).(*asking)
	if a == nil && req.Session != nil {
		a = x.inflight.only(req.Session)
	}
	if a == nil || req.Params.Mode == "url" {
		return &mcp.ElicitResult{Action: "decline"}, nil
	}
	props := properties(req.Params.RequestedSchema)
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.answer != nil && !a.used {
		a.used = true
		if content, ok := contentOf(*a.answer, props); ok {
			return &mcp.ElicitResult{Action: "accept", Content: content}, nil
		}
		return &mcp.ElicitResult{Action: "decline"}, nil
	}
	a.question = questionOf(req.Params.Message, props)
	return &mcp.ElicitResult{Action: "cancel"}, nil
}

// property is one field of an elicitation's requested schema.
type property struct {
	name, typ string
}

// properties lists the fields of a requested schema, by name.
func properties(schema any) []property {
	raw, err := json.Marshal(schema)
	if err != nil {
		return nil
	}
	var s struct {
		Properties map[string]struct {
			Type string `json:"type"`
		} `json:"properties"`
	}
	if json.Unmarshal(raw, &s) != nil {
		return nil
	}
	out := make([]property, 0, len(s.Properties))
	for name, p := range s.Properties {
		out = append(out, property{name: name, typ: p.Type})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// questionOf is the question a person answers: the server's message,
// and, when it asks for several fields, how to answer them.
func questionOf(message string, props []property) string {
	if len(props) <= 1 {
		return message
	}
	names := make([]string, len(props))
	for i, p := range props {
		names[i] = p.name
	}
	return message + " (answer with a JSON object of " + strings.Join(names, ", ") + ")"
}

// contentOf is the elicitation's content from a person's answer: a JSON
// object as it is, or the answer as the value of the only field, of its
// type.
func contentOf(answer string, props []property) (map[string]any, bool) {
	var obj map[string]any
	if json.Unmarshal([]byte(answer), &obj) == nil && obj != nil {
		return obj, true
	}
	switch len(props) {
	case 0:
		return map[string]any{}, true
	case 1:
	default:
		return nil, false
	}
	p := props[0]
	switch p.typ {
	case "number", "integer":
		n, err := strconv.ParseFloat(strings.TrimSpace(answer), 64)
		return map[string]any{p.name: n}, err == nil
	case "boolean":
		b, err := strconv.ParseBool(strings.TrimSpace(strings.ToLower(answer)))
		return map[string]any{p.name: b}, err == nil
	}
	return map[string]any{p.name: answer}, true
}
