package engine

import (
	"context"
	"encoding/json"
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

// Invoke runs one tool outside any Run: a tool of sv's manifest when sv is
// given, otherwise a tool a worker connected to any replica serves. A tool
// nobody provides is *errs.ToolNotFound.
func (e *Engine) Invoke(ctx context.Context, tenant string, sv *spec.Version, name string, args json.RawMessage, timeout time.Duration) (Invocation, error) {
	inv := Invocation{CallID: ids.New("inv", e.Clock.Now())}
	decl := spec.Tool{Name: name, Kind: spec.KindWorker}
	if sv != nil {
		t, ok := sv.Tool(name)
		if !ok {
			var names []string
			for _, t := range sv.Tools {
				names = append(names, t.Name)
			}
			sort.Strings(names)
			return inv, &errs.ToolNotFound{Name: name, Available: names}
		}
		decl = t
	} else {
		served := false
		if e.Workers != nil {
			ok, err := e.Workers.ServesAnywhere(ctx, tenant, name)
			if err != nil {
				return inv, err
			}
			served = ok
		}
		if !served {
			available, err := e.workerTools(ctx, tenant)
			if err != nil {
				return inv, err
			}
			return inv, &errs.ToolNotFound{Name: name, Available: available}
		}
	}
	switch decl.Kind {
	case spec.KindClient, spec.KindBuiltin:
		return inv, errs.BadField("name", "%s is a %s tool, which only a Run can call", name, decl.Kind)
	}
	subject := policy.Subject{Tenant: tenant}
	if sv != nil {
		subject.Spec = sv.Name
	}
	switch d := e.Policy.ToolCall(ctx, subject, name, args); d.Outcome {
	case policy.Deny, policy.Approve:
		return inv, &errs.AccessDenied{Subject: "tool " + name, Reason: d.Reason}
	case policy.Narrow:
		return inv, &errs.ToolNarrowed{Tool: name, Reason: d.Reason}
	}
	x, err := e.toolExecutor(decl.Kind)
	if err != nil {
		return inv, err
	}
	call := tool.Call{Tenant: tenant, CallID: inv.CallID, Name: name, Arguments: args, Tool: decl}
	if name := credentialOf(decl); name != "" {
		v, err := e.Secrets.Resolve(ctx, secret.Scope(tenant, sv.Name), name)
		if err != nil {
			return inv, err
		}
		call.Credential = v
	}
	if timeout == 0 {
		timeout = toolTimeout(decl)
	}
	call.Deadline = e.Clock.Now().Add(timeout)
	cctx, cancel := clock.WithDeadline(ctx, e.Clock, call.Deadline)
	defer cancel()
	out, err := x.Execute(cctx, call)
	switch {
	case err == nil:
		inv.Output = out
	case ctx.Err() != nil:
		return inv, ctx.Err()
	case cctx.Err() != nil:
		inv.Failure = &errs.TransientFailure{Operation: "tool " + name, Message: "no answer within " + timeout.String()}
	default:
		inv.Failure = err
	}
	return inv, nil
}

func (e *Engine) workerTools(ctx context.Context, tenant string) ([]string, error) {
	if e.Workers == nil {
		return nil, nil
	}
	return e.Workers.AllToolNames(ctx, tenant)
}
