package runs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/store"
)

// SendMessage queues a message for a Run and returns its Record's seq.
// A settled Run fails *errs.RunAlreadySettled.
func (m *Manager) SendMessage(ctx context.Context, tenant, runID, text string, mode runlog.MessageMode) (int64, error) {
	return m.sendMessage(ctx, tenant, runID, &runlog.MessageQueued{Text: text, Mode: mode})
}

// sendMessage queues msg; a steered start's (msg.RequestID set) fails
// errSteeredBefore when its request id steered this Run already with the
// same request, *errs.RequestIDReused with another.
func (m *Manager) sendMessage(ctx context.Context, tenant, runID string, msg *runlog.MessageQueued) (int64, error) {
	text, mode := msg.Text, msg.Mode
	switch {
	case strings.TrimSpace(text) == "":
		return 0, errs.BadField("text", "is required")
	case len(text) > MaxMessageBytes:
		return 0, errs.BadField("text", "is %d bytes; at most %d are allowed", len(text), MaxMessageBytes)
	}
	if mode == "" {
		mode = runlog.ModeSteer
	}
	return m.mutate(ctx, tenant, runID, func(st *runlog.State) ([]runlog.Op, error) {
		if hash, ok := st.Steers[msg.RequestID]; ok && msg.RequestID != "" {
			if hash != msg.RequestHash {
				return nil, &errs.RequestIDReused{RequestID: msg.RequestID, RunID: runID}
			}
			return nil, errSteeredBefore
		}
		if st.Settled() {
			return nil, &errs.RunAlreadySettled{RunID: runID, State: string(st.Status), Action: "take a message"}
		}
		return []runlog.Op{&runlog.MessageQueued{Text: text, Mode: mode, RequestID: msg.RequestID, RequestHash: msg.RequestHash}}, nil
	})
}

// Resume is the answer to a suspension: exactly one of its parts, matching
// what the Run waits for.
type Resume struct {
	Results  []runlog.ToolResult
	Answer   *string
	Approved *bool
	Note     string
	// InDoubt answers an APPROVAL asking whether a call in doubt happened.
	InDoubt *runlog.InDoubtAnswer
	// BudgetLimit is the new limit that approves a budget's APPROVAL.
	BudgetLimit *float64
}

// Resume answers a suspended Run, or wakes one asleep on a TIMER now (an
// empty Resume). It fails *errs.RunNotSuspended when the Run waits for
// nothing, *errs.InvalidRequest when the answer does not fit the
// suspension, and *errs.SuspensionExpired, after settling the Run
// ABANDONED, when the suspension expired (a TIMER never does).
func (m *Manager) Resume(ctx context.Context, tenant, runID string, r Resume) (Run, error) {
	var expired error
	_, err := m.mutate(ctx, tenant, runID, func(st *runlog.State) ([]runlog.Op, error) {
		expired = nil
		if st.Settled() {
			// Only an expired suspension abandons a Run: its stored
			// SUSPENSION_EXPIRED is the answer, as it was stored.
			if st.Status == runlog.StatusAbandoned && st.Failure != nil {
				return nil, st.Failure.Err()
			}
			return nil, &errs.RunNotSuspended{RunID: runID, State: string(st.Status)}
		}
		if st.Status != runlog.StatusSuspended || st.Suspension == nil {
			return nil, &errs.RunNotSuspended{RunID: runID, State: string(st.Status)}
		}
		sus := st.Suspension
		if sus.Reason != runlog.ReasonTimer && !m.clock.Now().Before(sus.ExpireAt) {
			se := &errs.SuspensionExpired{RunID: runID, Reason: string(sus.Reason), ExpireTime: sus.ExpireAt}
			expired = se
			stored := errs.Store(se, "")
			return []runlog.Op{&runlog.Settled{State: runlog.StatusAbandoned, Failure: &stored}}, nil
		}
		if sus.Budget != nil {
			return budgetResume(sus.Budget, r)
		}
		if r.BudgetLimit != nil {
			return nil, errs.BadField("budget_limit", "the Run waits for %s, not a budget's approval", sus.Reason)
		}
		op, err := resumeOp(st, r, m.clock.Now())
		if err != nil {
			return nil, err
		}
		return []runlog.Op{op}, nil
	})
	if err != nil {
		return Run{}, err
	}
	if expired != nil {
		return Run{}, expired
	}
	return m.Get(ctx, tenant, runID)
}

func resumeOp(st *runlog.State, r Resume, now time.Time) (*runlog.Resumed, error) {
	sus := st.Suspension
	given := map[string]bool{"tool_results": len(r.Results) > 0, "answer": r.Answer != nil, "approved": r.Approved != nil, "in_doubt": r.InDoubt != nil}
	want := map[runlog.Reason]string{
		runlog.ReasonToolResults: "tool_results", runlog.ReasonQuestion: "answer", runlog.ReasonApproval: "approved",
	}[sus.Reason]
	if sus.Reason == runlog.ReasonApproval && sus.InDoubt {
		want = "in_doubt"
	}
	if sus.Reason == runlog.ReasonChildren {
		return nil, errs.BadField("run_id", "run %s waits for its delegated children; runsvc resumes it when they settle", st.RunID)
	}
	if sus.Reason == runlog.ReasonTimer {
		return timerResume(given, now.Before(sus.WakeAt))
	}
	var bad []errs.FieldViolation
	for field, set := range given {
		if set && field != want {
			bad = append(bad, errs.FieldViolation{Field: field, Description: fmt.Sprintf("the Run waits for %s, so set %s instead", sus.Reason, want)})
		}
	}
	if !given[want] {
		bad = append(bad, errs.FieldViolation{Field: want, Description: fmt.Sprintf("is required: the Run waits for %s", sus.Reason)})
	}
	if len(bad) > 0 {
		return nil, &errs.InvalidRequest{Violations: bad}
	}
	switch sus.Reason {
	case runlog.ReasonToolResults:
		pending := map[string]bool{}
		for _, id := range sus.CallIDs {
			pending[id] = true
		}
		seen := map[string]bool{}
		for i, res := range r.Results {
			field := fmt.Sprintf("tool_results[%d].call_id", i)
			switch {
			case res.CallID == "":
				bad = append(bad, errs.FieldViolation{Field: field, Description: "is required"})
			case seen[res.CallID]:
				bad = append(bad, errs.FieldViolation{Field: field, Description: fmt.Sprintf("call %s has two results", res.CallID)})
			case !pending[res.CallID]:
				bad = append(bad, errs.FieldViolation{Field: field, Description: fmt.Sprintf("call %s is not waiting for a result; waiting: %s", res.CallID, strings.Join(sus.CallIDs, ", "))})
			}
			if res.Error == nil && len(res.Output) > 0 && !json.Valid(res.Output) {
				bad = append(bad, errs.FieldViolation{Field: fmt.Sprintf("tool_results[%d].output", i), Description: "is not JSON"})
			}
			seen[res.CallID] = true
		}
		var missing []string
		for _, id := range sus.CallIDs {
			if !seen[id] {
				missing = append(missing, id)
			}
		}
		if len(missing) > 0 {
			bad = append(bad, errs.FieldViolation{Field: "tool_results", Description: "all results come in one resume; missing results for calls " + strings.Join(missing, ", ")})
		}
		if len(bad) > 0 {
			return nil, &errs.InvalidRequest{Violations: bad}
		}
		return &runlog.Resumed{Reason: sus.Reason, Results: r.Results}, nil
	case runlog.ReasonQuestion:
		return &runlog.Resumed{Reason: sus.Reason, Answer: *r.Answer}, nil
	case runlog.ReasonApproval:
		if sus.InDoubt {
			return inDoubtResume(sus, r.InDoubt)
		}
		return &runlog.Resumed{Reason: sus.Reason, Approved: *r.Approved, Note: r.Note}, nil
	default:
		return &runlog.Resumed{Reason: sus.Reason, Approved: *r.Approved, Note: r.Note}, nil
	}
}

// timerResume wakes a Run asleep on a TIMER now (early when its wake time
// has not come): it needs no answer, and refuses one.
func timerResume(given map[string]bool, early bool) (*runlog.Resumed, error) {
	var bad []errs.FieldViolation
	for field, set := range given {
		if set {
			bad = append(bad, errs.FieldViolation{Field: field, Description: "the Run sleeps on a TIMER: a resume with no answer wakes it"})
		}
	}
	if len(bad) > 0 {
		return nil, &errs.InvalidRequest{Violations: bad}
	}
	return &runlog.Resumed{Reason: runlog.ReasonTimer, Early: early}, nil
}

// Interrupt asks a Run to stop. A Run no worker is executing settles at
// once; a running one settles when its worker sees the request. Its
// children are interrupted too. A settled Run is left alone.
func (m *Manager) Interrupt(ctx context.Context, tenant, runID, reason string) (Run, error) {
	if err := m.requestInterrupt(ctx, tenant, runID, reason); err != nil {
		return Run{}, err
	}
	return m.WaitSettled(ctx, tenant, runID, 2*time.Second)
}

// requestInterrupt records the request to stop a Run, settling it at once
// when no worker is executing it, without waiting for a running one. A Run
// whose log is corrupt has failed already: nothing is appended.
func (m *Manager) requestInterrupt(ctx context.Context, tenant, runID, reason string) error {
	_, err := m.mutate(ctx, tenant, runID, func(st *runlog.State) ([]runlog.Op, error) {
		if st.Settled() || st.Abort != nil {
			return nil, nil
		}
		ops := []runlog.Op{&runlog.AbortRequested{Cause: runlog.CauseInterrupted, Reason: reason}}
		if st.Status == runlog.StatusSuspended || (st.Status == runlog.StatusQueued && !m.leased(ctx, tenant, runID)) {
			ops = append(ops, &runlog.Settled{State: runlog.StatusAborted, AbortCause: runlog.CauseInterrupted})
		}
		return ops, nil
	})
	var corrupt *errs.CorruptLog
	if errors.As(err, &corrupt) {
		return nil
	}
	return err
}

// leased reports whether a worker holds the Run's lease. A QUEUED Run may
// be one a worker is already making: a first Attempt's AttemptStarted is
// stored with its first append, which may come only after its first model
// call (up to 5 ms into it, or with its answer). Settling such a Run from
// outside would throw that call away unrecorded; it gets the request
// alone, which its worker sees and settles (or, if the worker died, the
// next lease's Attempt).
func (m *Manager) leased(ctx context.Context, tenant, runID string) bool {
	r, err := m.store.GetRun(ctx, tenant, runID)
	return err == nil && r.LeaseOwner != "" && m.clock.Now().Before(r.LeaseExpires)
}

// AfterSettle tells a settled Run's parent about its ending and interrupts
// its unfinished children, after running the hooks AlsoAfterSettle
// added. It is best effort: a parent that misses the news finds it when
// its suspension is next looked at.
func (m *Manager) AfterSettle(ctx context.Context, st *runlog.State) {
	for _, f := range m.settleHooks {
		f(ctx, st)
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	tenant := st.Admission.Tenant
	if st.Admission.ParentRunID != "" {
		if err := m.ReportToParent(ctx, tenant, st); err != nil {
			m.log.Warn("telling the parent about a settled child failed", "runId", st.RunID, "parentRunId", st.Admission.ParentRunID, "err", err)
		}
	}
	for _, d := range st.Delegations {
		if d.Finished != nil {
			continue
		}
		// Only the request: each child's worker settles it, and waiting
		// for one would leave the next children to the deadline above.
		if err := m.requestInterrupt(ctx, tenant, d.ChildRunID, "the parent run settled"); err != nil {
			m.log.Warn("interrupting a child failed", "runId", st.RunID, "childRunId", d.ChildRunID, "err", err)
		}
	}
}

// ReportToParent records a settled child's outcome in its parent's log
// and resumes the parent when it was waiting on its last unfinished child.
func (m *Manager) ReportToParent(ctx context.Context, tenant string, child *runlog.State) error {
	adm := child.Admission
	_, err := m.mutate(ctx, tenant, adm.ParentRunID, func(p *runlog.State) ([]runlog.Op, error) {
		if p.Settled() {
			return nil, nil
		}
		d := p.Delegation(adm.DelegationID)
		if d == nil || d.Finished != nil {
			return nil, nil
		}
		ops := []runlog.Op{&runlog.DelegationFinished{
			DelegationID: adm.DelegationID, ChildRunID: child.RunID, State: child.Status, Answer: child.Answer, Failure: child.Failure,
		}}
		if sus := p.Suspension; sus != nil && sus.Reason == runlog.ReasonChildren && allFinishedBut(p, sus.DelegationIDs, adm.DelegationID) {
			ops = append(ops, &runlog.Resumed{Reason: runlog.ReasonChildren})
		}
		return ops, nil
	})
	var nf *errs.RunNotFound
	if errors.As(err, &nf) {
		return nil
	}
	return err
}

func allFinishedBut(p *runlog.State, ids []string, except string) bool {
	for _, id := range ids {
		if id == except {
			continue
		}
		if d := p.Delegation(id); d == nil || d.Finished == nil {
			return false
		}
	}
	return true
}

// WaitSettled waits up to wait for a Run to settle and returns it as it is
// then.
func (m *Manager) WaitSettled(ctx context.Context, tenant, runID string, wait time.Duration) (Run, error) {
	return m.wait(ctx, tenant, runID, wait, func(r Run) bool { return r.Settled() })
}

// Wait waits up to wait for a Run to settle or suspend, and returns it as
// it is then.
func (m *Manager) Wait(ctx context.Context, tenant, runID string, wait time.Duration) (Run, error) {
	return m.wait(ctx, tenant, runID, wait, func(r Run) bool { return r.Settled() || r.Status == runlog.StatusSuspended })
}

func (m *Manager) wait(ctx context.Context, tenant, runID string, wait time.Duration, done func(Run) bool) (Run, error) {
	sub := m.store.Notifier().Subscribe(store.RunEndTopic(tenant, runID))
	defer sub.Close()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	run, err := m.Get(ctx, tenant, runID)
	for err == nil && !done(run) {
		select {
		case <-sub.C():
			run, err = m.signalled(ctx, sub, run)
		case <-timer.C:
			return m.Get(ctx, tenant, runID)
		case <-ctx.Done():
			return Run{}, ctx.Err()
		}
	}
	return run, err
}

// signalled returns the Run after a signal of its end: the row the signal
// carried when it is newer than last (what the waiter read before, so the
// Run was in that state after the wait began), or else the stored one.
func (m *Manager) signalled(ctx context.Context, sub store.Subscription, last Run) (Run, error) {
	if row, ok := sub.Run(); ok && row.LastSeq > last.LastSeq {
		if run, err := fromStoreRun(row); err == nil {
			return run, nil
		}
	}
	return m.Get(ctx, last.Tenant, last.RunID)
}
