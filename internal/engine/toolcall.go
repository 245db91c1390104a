package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/policy"
	"github.com/runsvc/runsvc/internal/secret"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/tool"
)

// The steps every tool call goes through, whether a Run makes it or
// InvokeTool does: the policy's decision, what the call needs before it
// can be made (credential, an MCP server's environment, the executor of
// its kind, its timeout), and what its outcome means. A Run and InvokeTool
// differ only in what they do around them: a Run records, retries and
// suspends; InvokeTool answers.

// errNeedsApproval is the policy's require_approval for a call: a Run
// suspends APPROVAL on it; InvokeTool, which has no person to ask, does
// not make it (approvalRefusal).
type errNeedsApproval struct{ reason string }

func (e *errNeedsApproval) Error() string { return "the call needs a person's approval: " + e.reason }

// toolPolicy is the policy's decision on a call of name with args: nil to
// make it, *errs.AccessDenied, *errs.ToolNarrowed, or *errNeedsApproval.
func (e *Engine) toolPolicy(ctx context.Context, subject policy.Subject, name string, args json.RawMessage) error {
	switch d := e.Policy.ToolCall(ctx, subject, name, args); d.Outcome {
	case policy.Deny:
		return &errs.AccessDenied{Subject: "tool " + name, Reason: d.Reason}
	case policy.Narrow:
		return &errs.ToolNarrowed{Tool: name, Reason: d.Reason}
	case policy.Approve:
		return &errNeedsApproval{reason: d.Reason}
	}
	return nil
}

// approvalRefusal is a call needing approval made where nobody can give
// it (InvokeTool): it is not made, and not retryable, as a call a person
// denied.
func approvalRefusal(name string, n *errNeedsApproval) error {
	return &errs.ToolRejected{Tool: name, Message: "the policy requires a person's approval for this call, which only a Run can ask for: " + n.reason}
}

// executorFunc makes one call.
type executorFunc func(context.Context, tool.Call) (json.RawMessage, error)

// prepareCall resolves what call (to call.Tool, of the Spec specName)
// needs before it can be made: its credential, its MCP server's
// environment, the executor of its kind (builtin runs built-in tools,
// which only a Run has), and its timeout (timeout, or the tool's own when
// 0). An error is the call's result.
func (e *Engine) prepareCall(ctx context.Context, call tool.Call, specName string, timeout time.Duration, builtin func(string) (executorFunc, error)) (*flight, error) {
	decl := call.Tool
	scope := secret.Scope(call.Tenant, specName)
	if name := credentialOf(decl); name != "" {
		v, err := e.Secrets.Resolve(ctx, scope, name)
		if err != nil {
			return nil, err
		}
		call.Credential = v
	}
	if decl.MCP != nil && len(decl.MCP.Env) > 0 {
		env, err := tool.ResolveEnv(ctx, e.Secrets, scope, decl.MCP.Env)
		if err != nil {
			return nil, err
		}
		call.Env = env
	}
	var run executorFunc
	if decl.Kind == spec.KindBuiltin && builtin != nil {
		x, err := builtin(decl.Name)
		if err != nil {
			return nil, err
		}
		run = x
	} else {
		x, err := e.toolExecutor(decl.Kind)
		if err != nil {
			return nil, err
		}
		run = x.Execute
	}
	if timeout == 0 {
		timeout = toolTimeout(decl)
	}
	return &flight{call: call, run: run, timeout: timeout, done: make(chan struct{})}, nil
}

// callOutcome is what a made call's failure means, the same for a Run
// and InvokeTool: a call that gave no answer in time is in doubt when it
// is at most once (it may have happened, so it is never retryable),
// MCP_FAILED for an MCP tool, else a transient failure. Other failures
// are as the executor reported them.
func callOutcome(f *flight) error {
	decl := f.call.Tool
	switch {
	case f.err == nil:
		return nil
	case f.timedOut && decl.AtMostOnce():
		return &errs.ToolInDoubt{Tool: f.call.Name, CallID: f.call.CallID, Why: fmt.Sprintf("it gave no answer within %s", f.timeout)}
	case f.timedOut:
		return timeoutFailure(decl, f.call.Name, f.timeout)
	}
	return f.err
}
