package spec

import "encoding/json"

// a2a checks an a2a tool: exactly one of card_url and url, a known
// binding, a declared credential, a poll interval in range; every problem
// at once.
func (v *validator) a2a(p string, t Tool, credential func(string, string)) {
	if t.HTTP != nil || t.MCP != nil {
		v.add(p, "an a2a tool takes no http or mcp settings")
	}
	a := t.A2A
	if a == nil {
		v.add(p+".a2a", "is required for an a2a tool: its card_url or url")
		return
	}
	switch {
	case a.CardURL == "" && a.URL == "":
		v.add(p+".a2a", "needs card_url (the agent card) or url (the agent's endpoint)")
	case a.CardURL != "" && a.URL != "":
		v.add(p+".a2a", "takes card_url or url, not both")
	}
	v.url(p+".a2a.card_url", a.CardURL, false)
	v.url(p+".a2a.url", a.URL, false)
	switch a.Binding {
	case "", A2ABindingJSONRPC, A2ABindingHTTPJSON:
	default:
		v.add(p+".a2a.binding", "unknown binding %q: use %s or %s", a.Binding, A2ABindingJSONRPC, A2ABindingHTTPJSON)
	}
	credential(p+".a2a.credential", a.Credential)
	if a.PollInterval != 0 && (a.PollInterval < minA2APollInterval || a.PollInterval > maxA2APollInterval) {
		v.add(p+".a2a.poll_interval", "must be between %s and %s (0 means %s)", minA2APollInterval, maxA2APollInterval, DefaultA2APollInterval)
	}
}

// A2AParameters are an a2a tool's parameters when its Spec declares none:
// the message to send to the remote agent.
var A2AParameters = json.RawMessage(`{"type":"object","properties":{"message":{"type":"string","description":"The message to send to the agent."}},"required":["message"]}`)

// A2ADescription is an a2a tool's description when its Spec gives none.
const A2ADescription = "Send a message to another agent and wait for its answer."

// WithA2ADefaults returns t with the parameters and description an a2a
// tool has when its Spec declares none; other tools as they are.
func (t Tool) WithA2ADefaults() Tool {
	if t.Kind != KindA2A {
		return t
	}
	if len(t.Parameters) == 0 {
		t.Parameters = A2AParameters
	}
	if t.Description == "" {
		t.Description = A2ADescription
	}
	return t
}
