package engine

import (
	"context"
	"time"

	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/tool"
)

// remoteCancelTimeout bounds the CancelTask requests sent for one
// interrupted Run.
const remoteCancelTimeout = 10 * time.Second

// CancelRemoteTasks tells the remote agents of a Run that settled ABORTED
// or ABANDONED to cancel the tasks its a2a calls left open: a task
// recorded (runlog.A2ATask) whose call has no answer of the agent's,
// because the Run was interrupted while following it, or while suspended
// on its question. It is meant to run after every write that settles a
// Run (runs.Manager.AfterSettle), which sees every abort of every path,
// and returns at once: the CancelTask requests are sent in the
// background, best effort, within remoteCancelTimeout, through the a2a
// executor (so under the outbound network policy), and what comes of
// them is logged. The Run's abort never waits on the agent.
//
// Only a settle cancels: a shutdown or a crash settles nothing, and the
// next Attempt follows the task again. A crash between the settle and the
// request loses the request (nothing is recorded after a Run's Settled
// Record); the log still shows the task open when the Run settled, and
// the task runs to its end unobserved, as with an agent that cannot
// cancel.
func (e *Engine) CancelRemoteTasks(ctx context.Context, st *runlog.State) {
	if st.Status != runlog.StatusAborted && st.Status != runlog.StatusAbandoned || st.Admission == nil {
		return
	}
	open := openRemoteTasks(st)
	if len(open) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), remoteCancelTimeout)
	adm := *st.Admission
	go func() {
		defer cancel()
		e.cancelRemote(ctx, adm, st.RunID, open)
	}()
}

// openRemoteTasks are the calls of st whose remote task was recorded and
// did not answer: unfinished (suspended on its question) or closed as
// orphaned by the abort.
func openRemoteTasks(st *runlog.State) []runlog.Call {
	var open []runlog.Call
	for _, c := range st.Calls {
		if c.Remote != nil && c.Remote.TaskID != "" && (!c.Finished || c.Orphaned) {
			open = append(open, *c)
		}
	}
	return open
}

// cancelRemote sends CancelTask for each call's task, with the call's
// tool and credential as the Run's Spec Version declares them.
func (e *Engine) cancelRemote(ctx context.Context, adm runlog.Admitted, runID string, calls []runlog.Call) {
	log := e.Log.With("runId", runID)
	sv, err := e.Specs.Get(ctx, adm.Tenant, adm.Spec, adm.Version)
	if err != nil {
		log.Warn("canceling the remote tasks of an interrupted run failed: its spec version cannot be read", "err", err)
		return
	}
	x, err := e.toolExecutor(spec.KindA2A)
	agent, ok := x.(tool.RemoteAgent)
	if err != nil || !ok {
		log.Warn("canceling the remote tasks of an interrupted run failed: no a2a executor", "err", err)
		return
	}
	site := callSite{tenant: adm.Tenant, sv: sv, runID: runID, family: adm.RootRunID, log: log}
	for _, c := range calls {
		decl, ok := declaredIn(sv, c.Name)
		if !ok || decl.Kind != spec.KindA2A {
			continue
		}
		call := tool.Call{Tenant: adm.Tenant, RunID: runID, CallID: c.ID, Name: c.Name, Arguments: c.Arguments, Tool: decl}
		f, err := e.prepareCall(ctx, site, call, 0)
		if err == nil {
			err = agent.Cancel(ctx, f.call, c.Remote.TaskID)
		}
		if err != nil {
			log.Warn("canceling the remote task of an interrupted run failed; the task runs on", "callId", c.ID, "taskId", c.Remote.TaskID, "err", err)
			continue
		}
		log.Info("canceled the remote task of an interrupted run", "callId", c.ID, "taskId", c.Remote.TaskID)
	}
}
