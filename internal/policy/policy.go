// Package policy is the port that decides whether a Run may start and
// whether each tool call may run, be narrowed away, or needs a person's
// approval first. Allow is the default; Rules reads decisions from a file.
package policy

import (
	"context"
	"encoding/json"
)

// Outcome is what a policy decided.
type Outcome string

// Outcomes.
const (
	// Allow lets the action go ahead.
	Allow Outcome = "allow"
	// Deny refuses it: ACCESS_DENIED, naming the subject and the reason.
	Deny Outcome = "deny"
	// Narrow says the tool does not exist for this caller: TOOL_NARROWED.
	Narrow Outcome = "narrow"
	// Approve lets it go ahead only once a person approved it: the Run
	// suspends APPROVAL.
	Approve Outcome = "require_approval"
)

// Decision is an outcome and why.
type Decision struct {
	Outcome Outcome
	Reason  string
}

// Subject is who asks: the tenant, the Spec and, for tool calls, the Run.
type Subject struct {
	Tenant string
	Spec   string
	RunID  string
}

// Policy decides.
type Policy interface {
	// StartRun decides whether a Run of the subject's Spec may start.
	StartRun(ctx context.Context, s Subject) Decision
	// ToolCall decides whether a call of tool with args may run.
	ToolCall(ctx context.Context, s Subject, tool string, args json.RawMessage) Decision
}

// AllowAll allows everything.
type AllowAll struct{}

// StartRun allows.
func (AllowAll) StartRun(context.Context, Subject) Decision { return Decision{Outcome: Allow} }

// ToolCall allows.
func (AllowAll) ToolCall(context.Context, Subject, string, json.RawMessage) Decision {
	return Decision{Outcome: Allow}
}
