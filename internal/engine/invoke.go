package engine

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"time"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/ids"
	"github.com/runsvc/runsvc/internal/policy"
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
	var approval *errNeedsApproval
	switch err := e.toolPolicy(ctx, subject, name, args); {
	case errors.As(err, &approval):
		inv.Failure = approvalRefusal(name, approval)
		return inv, nil
	case err != nil:
		return inv, err
	}
	call := tool.Call{Tenant: tenant, CallID: inv.CallID, Name: name, Arguments: args, Tool: decl}
	f, err := e.prepareCall(ctx, call, subject.Spec, timeout, nil)
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
	return inv, nil
}

func (e *Engine) workerTools(ctx context.Context, tenant string) ([]string, error) {
	if e.Workers == nil {
		return nil, nil
	}
	return e.Workers.AllToolNames(ctx, tenant)
}
