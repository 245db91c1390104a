package runs

import (
	"context"
	"slices"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/ids"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/spec"
)

// Delegation waits.
const (
	DefaultDelegateWait = 60 * time.Second
	DefaultAwaitWait    = 30 * time.Second
	MaxDelegationWait   = 10 * time.Minute
)

// Delegation is a task handed to a delegate Spec, seen through its child.
type Delegation struct {
	DelegationID string
	ParentRunID  string
	Child        Run
}

// DelegateRequest asks for a delegation.
type DelegateRequest struct {
	Tenant      string
	ParentRunID string
	Spec        string
	Task        string
	Async       bool
	Timeout     time.Duration
	RequestID   string
}

// Delegate starts a child Run of req.Spec. Without Async it waits up to
// Timeout for the child to settle, failing *errs.DelegationTimeout (the
// child keeps running).
func (m *Manager) Delegate(ctx context.Context, req DelegateRequest) (Delegation, error) {
	if req.Timeout < 0 || req.Timeout > MaxDelegationWait {
		return Delegation{}, errs.BadField("timeout", "must be between 0 and %s", MaxDelegationWait)
	}
	if req.Timeout == 0 {
		req.Timeout = DefaultDelegateWait
	}
	delegationID := ids.New("dlg", m.clock.Now())
	childRunID := ids.New("run", m.clock.Now())
	var parent *Parent
	if req.ParentRunID != "" {
		p, err := m.prepareParent(ctx, req, delegationID, childRunID)
		if err != nil {
			return Delegation{}, err
		}
		parent = p
	} else {
		parent = &Parent{DelegationID: delegationID}
	}
	child, _, err := m.Start(ctx, StartRequest{Tenant: req.Tenant, RunID: childRunID, Spec: req.Spec, Input: req.Task, RequestID: req.RequestID, Parent: parent})
	if err != nil {
		if req.ParentRunID != "" {
			m.failDelegation(ctx, req.Tenant, req.ParentRunID, delegationID, childRunID, err)
		}
		return Delegation{}, err
	}
	if child.DelegationID != delegationID {
		delegationID = child.DelegationID // a repeated request id: the earlier delegation
	}
	if req.Async {
		return Delegation{DelegationID: delegationID, ParentRunID: req.ParentRunID, Child: child}, nil
	}
	return m.Await(ctx, req.Tenant, delegationID, req.Timeout)
}

// prepareParent checks that the parent may delegate to req.Spec and
// records the delegation in its log before the child exists, so the
// child's ending always finds it.
func (m *Manager) prepareParent(ctx context.Context, req DelegateRequest, delegationID, childRunID string) (*Parent, error) {
	var parent *Parent
	_, err := m.mutate(ctx, req.Tenant, req.ParentRunID, func(st *runlog.State) ([]runlog.Op, error) {
		if st.Settled() {
			return nil, &errs.RunAlreadySettled{RunID: req.ParentRunID, State: string(st.Status), Action: "delegate"}
		}
		sv, err := m.specs.Get(ctx, req.Tenant, st.Admission.Spec, st.Admission.Version)
		if err != nil {
			return nil, err
		}
		// A delegate may be started by an alias of it (spec@alias), and a
		// delegates entry naming an alias (name@alias) lets its Spec be
		// started: the list says which Specs, the caller which Version.
		name := spec.DelegateSpec(req.Spec)
		if !slices.ContainsFunc(sv.Delegates, func(d string) bool { return spec.DelegateSpec(d) == name }) {
			return nil, errs.BadField("spec", "spec %s is not among the delegates of run %s's spec %s", req.Spec, req.ParentRunID, sv.Name)
		}
		depth := st.Admission.Depth + 1
		if max := sv.Limits.Effective().MaxDelegationDepth; depth > max {
			return nil, errs.BadField("parent_run_id", "run %s is %d delegations deep; its spec allows %d", req.ParentRunID, st.Admission.Depth, max)
		}
		parent = &Parent{RunID: req.ParentRunID, RootRunID: st.Admission.RootRunID, DelegationID: delegationID, Depth: depth}
		return []runlog.Op{&runlog.DelegationStarted{DelegationID: delegationID, ChildRunID: childRunID, Spec: req.Spec, Task: req.Task}}, nil
	})
	return parent, err
}

func (m *Manager) failDelegation(ctx context.Context, tenant, parentRunID, delegationID, childRunID string, cause error) {
	stored := errs.Store(cause, "")
	_, err := m.mutate(ctx, tenant, parentRunID, func(st *runlog.State) ([]runlog.Op, error) {
		if d := st.Delegation(delegationID); st.Settled() || d == nil || d.Finished != nil {
			return nil, nil
		}
		return []runlog.Op{&runlog.DelegationFinished{DelegationID: delegationID, ChildRunID: childRunID, State: runlog.StatusFailed, Failure: &stored}}, nil
	})
	if err != nil {
		m.log.Warn("recording a failed delegation", "parentRunId", parentRunID, "delegationId", delegationID, "err", err)
	}
}

// GetDelegation returns a delegation or *errs.DelegationNotFound.
func (m *Manager) GetDelegation(ctx context.Context, tenant, delegationID string) (Delegation, error) {
	if delegationID == "" {
		return Delegation{}, errs.BadField("delegation_id", "is required")
	}
	row, err := m.store.GetRunByDelegation(ctx, tenant, delegationID)
	if err != nil {
		return Delegation{}, err
	}
	child, err := fromStoreRun(row)
	if err != nil {
		return Delegation{}, err
	}
	return Delegation{DelegationID: delegationID, ParentRunID: child.ParentRunID, Child: child}, nil
}

// Await waits up to timeout for a delegation's child to settle, failing
// *errs.DelegationTimeout when it does not; the child keeps running.
func (m *Manager) Await(ctx context.Context, tenant, delegationID string, timeout time.Duration) (Delegation, error) {
	if timeout < 0 || timeout > MaxDelegationWait {
		return Delegation{}, errs.BadField("timeout", "must be between 0 and %s", MaxDelegationWait)
	}
	if timeout == 0 {
		timeout = DefaultAwaitWait
	}
	d, err := m.GetDelegation(ctx, tenant, delegationID)
	if err != nil {
		return Delegation{}, err
	}
	child, err := m.WaitSettled(ctx, tenant, d.Child.RunID, timeout)
	if err != nil {
		return Delegation{}, err
	}
	if !child.Settled() {
		return Delegation{}, &errs.DelegationTimeout{Name: child.Spec, DelegationID: delegationID, Timeout: timeout}
	}
	d.Child = child
	return d, nil
}
