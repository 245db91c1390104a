package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"time"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/ids"
	"github.com/runsvc/runsvc/internal/policy"
	"github.com/runsvc/runsvc/internal/secret"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/tool"
)

// One tool-call pipeline. Every call, whether a Run makes it (its tool,
// a built-in) or InvokeTool does, goes through these steps in this order:
//
//  1. resolve the declaration (declaredIn; InvokeTool also finds a tool
//     a connected worker serves when no Spec is named);
//  2. validate the arguments against the declared JSON Schema, or the one
//     the tool's provider describes (argumentsRejected);
//  3. the policy's decision (toolPolicy);
//  4. credentials, an MCP server's environment, the executor of the
//     tool's kind behind tool.Executor (built-ins too) and the timeout
//     (prepareCall);
//  5. delivery: a Run stores an at-most-once call's start before making
//     it (callStarted); the call id, stable across retries, is the
//     executors' idempotency key (tool.Call.GlobalID);
//  6. execute within the deadline (flight.make);
//  7. classify a failure into a typed error (callOutcome);
//  8. scrub every resolved secret out of the result: InvokeTool's here
//     (Deps.Scrub), so every surface that calls Invoke answers scrubbed;
//     a Run's when the log writer stores them, with the rest of its log.
//
// A Run and InvokeTool differ only in what they do around the steps: a
// Run records, retries and suspends; InvokeTool, which has no Run,
// answers, and refuses a tool that needs a Run (needsRun). Client tools,
// ask_user and delegate are kinds whose execution is the Run's
// suspension (tools.go, builtins.go).

// callSite is where a call is made: a Run, or InvokeTool, which has none.
type callSite struct {
	tenant string
	// sv declares the tool; nil for a worker tool InvokeTool finds
	// without a Spec.
	sv *spec.Version
	// runID and family (the Run family's root) are "" outside a Run.
	runID, family string
	// log logs what the steps notice, with the Run's attributes.
	log *slog.Logger
}

func (s callSite) specName() string {
	if s.sv == nil {
		return ""
	}
	return s.sv.Name
}

// Workers tells which tools connected workers serve, whichever replica
// they are connected to.
type Workers interface {
	// ServesAnywhere reports whether a worker of the tenant serves the
	// tool; it fails only when the store does.
	ServesAnywhere(ctx context.Context, tenant, name string) (bool, error)
	// AllToolNames lists the tools the tenant's workers serve.
	AllToolNames(ctx context.Context, tenant string) ([]string, error)
}

// Invocation is the outcome of running one tool directly.
type Invocation struct {
	CallID string
	Output json.RawMessage
	// Failure is the tool's failure, which is the result, not an error of
	// the call.
	Failure error
}

// Invoke runs one tool outside any Run, through the pipeline a Run's
// calls take: a tool of sv's manifest when sv is given, otherwise a tool
// a worker connected to any replica serves. A tool nobody provides is
// *errs.ToolNotFound; one only a Run can call (needsRun) is refused.
func (e *Engine) Invoke(ctx context.Context, tenant string, sv *spec.Version, name string, args json.RawMessage, timeout time.Duration) (Invocation, error) {
	inv := Invocation{CallID: ids.New("inv", e.Clock.Now())}
	site := callSite{tenant: tenant, sv: sv, log: e.Log}
	decl, err := e.resolveInvoked(ctx, site, name)
	if err != nil {
		return inv, err
	}
	if needsRun(decl) {
		return inv, errs.BadField("name", "%s is a %s tool, which only a Run can call", name, decl.Kind)
	}
	if inv.Failure = e.argumentsRejected(ctx, site, decl, name, args); inv.Failure != nil {
		return inv, nil
	}
	var approval *errNeedsApproval
	switch err := e.toolPolicy(ctx, policy.Subject{Tenant: tenant, Spec: site.specName()}, name, args); {
	case errors.As(err, &approval):
		inv.Failure = approvalRefusal(name, approval)
		return inv, nil
	case err != nil:
		return inv, err
	}
	call := tool.Call{Tenant: tenant, CallID: inv.CallID, Name: name, Arguments: args, Tool: decl}
	f, err := e.prepareCall(ctx, site, call, timeout)
	if err != nil {
		return inv, err
	}
	f.call.Deadline = e.Clock.Now().Add(f.timeout)
	f.ctx, f.cancel = clock.WithDeadline(ctx, e.Clock, f.call.Deadline)
	f.observed = func(error) {}
	f.make()
	if ctx.Err() != nil {
		return inv, ctx.Err()
	}
	inv.Output, inv.Failure = f.out, callOutcome(f)
	if inv.Failure != nil {
		inv.Output = nil
	}
	// A tool may echo the credential it was called with: neither the
	// result nor the failure carries it back (DESIGN §6).
	inv.Output, inv.Failure = e.Scrub.JSON(inv.Output), e.Scrub.Error(inv.Failure)
	return inv, nil
}

// resolveInvoked is the declaration of the tool InvokeTool calls: the
// Spec's (declaredIn), or, without a Spec, a worker tool some connected
// worker serves.
func (e *Engine) resolveInvoked(ctx context.Context, site callSite, name string) (spec.Tool, error) {
	if site.sv != nil {
		t, ok := declaredIn(site.sv, name)
		if !ok {
			names := make([]string, 0, len(site.sv.Tools))
			for _, t := range site.sv.Tools {
				names = append(names, t.Name)
			}
			sort.Strings(names)
			return t, &errs.ToolNotFound{Name: name, Available: names}
		}
		return t, nil
	}
	if e.Workers != nil {
		served, err := e.Workers.ServesAnywhere(ctx, site.tenant, name)
		if err != nil || served {
			return spec.Tool{Name: name, Kind: spec.KindWorker}, err
		}
	}
	available, err := e.workerTools(ctx, site.tenant)
	if err != nil {
		return spec.Tool{}, err
	}
	return spec.Tool{}, &errs.ToolNotFound{Name: name, Available: available}
}

func (e *Engine) workerTools(ctx context.Context, tenant string) ([]string, error) {
	if e.Workers == nil {
		return nil, nil
	}
	return e.Workers.AllToolNames(ctx, tenant)
}

// declaredIn is the declaration of the tool name in sv: its own, or the
// implicit delegate tool of a Spec that names delegates.
func declaredIn(sv *spec.Version, name string) (spec.Tool, bool) {
	if t, ok := sv.Tool(name); ok {
		return t, true
	}
	if name == spec.BuiltinDelegate && len(sv.Delegates) > 0 {
		return builtinTool(spec.BuiltinDelegate, sv), true
	}
	return spec.Tool{}, false
}

// needsRun reports whether calls to t only make sense inside a Run: a
// client tool, ask_user and the timers suspend it, delegate starts its
// children, and the memory built-ins read and write its family's memory.
func needsRun(t spec.Tool) bool {
	switch {
	case t.Kind == spec.KindClient:
		return true
	case t.Kind != spec.KindBuiltin:
		return false
	}
	switch t.Name {
	case spec.BuiltinAskUser, spec.BuiltinDelegate, spec.BuiltinMemoryGet, spec.BuiltinMemorySet, spec.BuiltinSleep, spec.BuiltinWaitUntil:
		return true
	}
	return false
}

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

// prepareCall resolves what call (to call.Tool, at site) needs before it
// can be made: its credential, its MCP server's environment, the executor
// of its kind, and its timeout (timeout, or the tool's own when 0). An
// error is the call's result.
func (e *Engine) prepareCall(ctx context.Context, site callSite, call tool.Call, timeout time.Duration) (*flight, error) {
	decl := call.Tool
	scope := secret.Scope(call.Tenant, site.specName())
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
	x, err := e.executorFor(site, decl)
	if err != nil {
		return nil, err
	}
	if timeout == 0 {
		timeout = toolTimeout(decl)
	}
	return &flight{call: call, run: x.Execute, timeout: timeout, done: make(chan struct{})}, nil
}

// executorFor returns what runs decl's calls at site: the built-ins, or
// the executor of its kind.
func (e *Engine) executorFor(site callSite, decl spec.Tool) (tool.Executor, error) {
	if decl.Kind == spec.KindBuiltin {
		return e.builtins(site, decl.Name)
	}
	return e.toolExecutor(decl.Kind)
}

// toolExecutor returns what runs tools of a kind, or
// *errs.DependencyMissing when this runsvc runs none.
func (e *Engine) toolExecutor(kind spec.Kind) (tool.Executor, error) {
	x, ok := e.Tools[kind]
	if !ok {
		return nil, &errs.DependencyMissing{Dependency: string(kind) + " tools", Description: "this runsvc does not run " + string(kind) + " tools"}
	}
	return x, nil
}

func credentialOf(t spec.Tool) string {
	switch {
	case t.HTTP != nil:
		return t.HTTP.Credential
	case t.MCP != nil:
		return t.MCP.Credential
	case t.A2A != nil:
		return t.A2A.Credential
	}
	return ""
}

// toolTimeout is how long a call to t may take.
func toolTimeout(t spec.Tool) time.Duration {
	if t.Timeout == 0 {
		return spec.DefaultToolTimeout
	}
	return t.Timeout
}

// callOutcome is what a made call's failure means, the same for a Run
// and InvokeTool: a call that gave no answer in time is in doubt when it
// is at most once (it may have happened, so it is never retryable),
// MCP_FAILED for an MCP tool, else a transient failure. Other failures
// are as the executor reported them.
func callOutcome(f *flight) error {
	decl := f.call.Tool
	var asked *tool.Asked
	switch {
	case f.err == nil:
		return nil
	case errors.As(f.err, &asked):
		return &errs.ToolRejected{Tool: f.call.Name, Message: "the tool asked a question, which only a Run can answer: " + asked.Question}
	case f.timedOut && decl.AtMostOnce():
		return &errs.ToolInDoubt{Tool: f.call.Name, CallID: f.call.CallID, Why: fmt.Sprintf("it gave no answer within %s", f.timeout)}
	case f.timedOut:
		return timeoutFailure(decl, f.call.Name, f.timeout)
	}
	return f.err
}

// timeoutFailure is a call to decl that gave no answer within timeout:
// MCP_FAILED for an MCP tool (its server did not answer), else a
// transient failure; both retryable.
func timeoutFailure(decl spec.Tool, name string, timeout time.Duration) error {
	msg := fmt.Sprintf("no answer within %s", timeout)
	if decl.Kind == spec.KindMCP && decl.MCP != nil {
		return &errs.MCPFailed{Server: decl.MCP.Label(), Tool: name, Message: msg}
	}
	return &errs.TransientFailure{Operation: "tool " + name, Message: msg}
}
