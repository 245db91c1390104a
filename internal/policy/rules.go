package policy

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"
)

// Effects a tool can have, from harmless to irreversible.
const (
	EffectReadOnly    = "read_only"
	EffectWrite       = "write"
	EffectDestructive = "destructive"
)

// Rules is a Policy read from a JSON file:
//
//	{
//	  "tools": {"delete_repo": {"effect": "destructive"}, "search": {"effect": "read_only"}},
//	  "rules": [
//	    {"effect": "destructive", "decision": "require_approval", "reason": "destructive tools need a person"},
//	    {"spec": "intern-*", "effect": "write", "decision": "narrow", "reason": "interns only read"},
//	    {"action": "start_run", "spec": "legacy", "decision": "deny", "reason": "retired"}
//	  ]
//	}
//
// The first rule that matches decides; no match allows. A rule matches an
// action ("tool_call" by default, or "start_run"), a Spec and a tool name
// (path.Match globs; empty matches all) and a tool effect (empty matches
// all; a tool not listed in "tools" has effect "write").
type Rules struct {
	Tools map[string]ToolRule `json:"tools"`
	Rules []Rule              `json:"rules"`
}

// ToolRule marks a tool's effect.
type ToolRule struct {
	Effect string `json:"effect"`
}

// Rule is one decision.
type Rule struct {
	Action   string  `json:"action,omitempty"`
	Spec     string  `json:"spec,omitempty"`
	Tool     string  `json:"tool,omitempty"`
	Effect   string  `json:"effect,omitempty"`
	Decision Outcome `json:"decision"`
	Reason   string  `json:"reason,omitempty"`
}

// Actions a rule can match.
const (
	ActionToolCall = "tool_call"
	ActionStartRun = "start_run"
)

// LoadRules reads and checks a rules file.
func LoadRules(file string) (*Rules, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("reading policy file: %w", err)
	}
	r := &Rules{}
	if err := json.Unmarshal(b, r); err != nil {
		return nil, fmt.Errorf("policy file %s: %v", file, err)
	}
	return r, r.check()
}

func (r *Rules) check() error {
	for name, t := range r.Tools {
		switch t.Effect {
		case EffectReadOnly, EffectWrite, EffectDestructive:
		default:
			return fmt.Errorf("policy: tools.%s.effect %q: use read_only, write or destructive", name, t.Effect)
		}
	}
	for i, rule := range r.Rules {
		switch rule.Decision {
		case Allow, Deny, Narrow, Approve:
		default:
			return fmt.Errorf("policy: rules[%d].decision %q: use allow, deny, narrow or require_approval", i, rule.Decision)
		}
		switch rule.Action {
		case "", ActionToolCall, ActionStartRun:
		default:
			return fmt.Errorf("policy: rules[%d].action %q: use tool_call or start_run", i, rule.Action)
		}
		for _, pattern := range []string{rule.Spec, rule.Tool} {
			if _, err := path.Match(pattern, ""); err != nil {
				return fmt.Errorf("policy: rules[%d]: bad pattern %q", i, pattern)
			}
		}
		switch rule.Effect {
		case "", EffectReadOnly, EffectWrite, EffectDestructive:
		default:
			return fmt.Errorf("policy: rules[%d].effect %q: use read_only, write or destructive", i, rule.Effect)
		}
		if rule.Action == ActionStartRun && (rule.Decision == Narrow || rule.Decision == Approve) {
			return fmt.Errorf("policy: rules[%d]: a run start can only be allowed or denied", i)
		}
		if rule.Action == ActionStartRun && (rule.Tool != "" || rule.Effect != "") {
			return fmt.Errorf("policy: rules[%d]: a start_run rule matches a spec, not a tool or an effect", i)
		}
	}
	return nil
}

// Effect returns a tool's effect: as listed, or write.
func (r *Rules) Effect(tool string) string {
	if t, ok := r.Tools[tool]; ok {
		return t.Effect
	}
	return EffectWrite
}

// StartRun applies the start_run rules.
func (r *Rules) StartRun(_ context.Context, s Subject) Decision {
	return r.decide(ActionStartRun, s.Spec, "", "")
}

// ToolCall applies the tool_call rules.
func (r *Rules) ToolCall(_ context.Context, s Subject, tool string, _ json.RawMessage) Decision {
	return r.decide(ActionToolCall, s.Spec, tool, r.Effect(tool))
}

func (r *Rules) decide(action, specName, tool, effect string) Decision {
	for _, rule := range r.Rules {
		a := rule.Action
		if a == "" {
			a = ActionToolCall
		}
		if a != action || !glob(rule.Spec, specName) || !glob(rule.Tool, tool) || (rule.Effect != "" && rule.Effect != effect) {
			continue
		}
		reason := rule.Reason
		if reason == "" {
			reason = fmt.Sprintf("policy rule decided %s", rule.Decision)
		}
		return Decision{Outcome: rule.Decision, Reason: reason}
	}
	return Decision{Outcome: Allow}
}

func glob(pattern, s string) bool {
	if pattern == "" {
		return true
	}
	ok, _ := path.Match(pattern, s)
	return ok
}
