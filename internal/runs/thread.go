package runs

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/store"
)

// Strategies for a start on a thread that has an active Run.
const (
	StrategyReject    = "reject"
	StrategyEnqueue   = "enqueue"
	StrategyInterrupt = "interrupt"
	StrategySteer     = "steer"
)

// Strategies lists the valid strategies.
var Strategies = []string{StrategyReject, StrategyEnqueue, StrategyInterrupt, StrategySteer}

// MaxThreadIDBytes bounds a thread id.
const MaxThreadIDBytes = 128

// threadViolations checks a start's thread fields.
func threadViolations(req StartRequest) []errs.FieldViolation {
	var bad []errs.FieldViolation
	if len(req.ThreadID) > MaxThreadIDBytes {
		bad = append(bad, errs.FieldViolation{Field: "thread_id", Description: fmt.Sprintf("is %d bytes; at most %d are allowed", len(req.ThreadID), MaxThreadIDBytes)})
	}
	if req.Strategy != "" && !slices.Contains(Strategies, req.Strategy) {
		bad = append(bad, errs.FieldViolation{Field: "thread_strategy", Description: fmt.Sprintf("%q is not one of %v", req.Strategy, Strategies)})
	}
	if req.Strategy != "" && req.ThreadID == "" {
		bad = append(bad, errs.FieldViolation{Field: "thread_strategy", Description: "needs thread_id"})
	}
	return bad
}

// maxSteerTries bounds how often a steer start goes back and forth
// between a thread's active Run settling and another start winning it.
const maxSteerTries = 8

// startOrSteer gives a start's input to its thread's active Run as a
// steer, or, when the thread has none, starts the Run as reject would; a
// start that loses that race to another steers into the winner. The store
// decides who wins, so two racing steers never both start a Run.
func (m *Manager) startOrSteer(ctx context.Context, req StartRequest, sv *spec.Version, remembered bool) (Run, bool, error) {
	th, found, err := m.store.GetThread(ctx, req.Tenant, req.ThreadID)
	if err != nil {
		return Run{}, false, err
	}
	active := ""
	if found {
		active = th.ActiveRunID
		if req.RequestID != "" {
			if run, ok, err := m.startedBefore(ctx, req, th); err != nil || ok {
				return run, false, err
			}
		}
	}
	for range maxSteerTries {
		if active != "" {
			run, ok, err := m.steer(ctx, req, active)
			if err != nil || ok {
				return run, false, err
			}
		}
		run, created, err := m.create(ctx, req, sv, remembered, StrategyReject)
		var busy *errs.ThreadBusy
		if !errors.As(err, &busy) {
			return run, created, err
		}
		active = busy.ActiveRunID
	}
	return Run{}, false, &errs.ThreadBusy{ThreadID: req.ThreadID, ActiveRunID: active}
}

// steer gives the input to the thread's active Run; ok is false when that
// Run settled meanwhile.
func (m *Manager) steer(ctx context.Context, req StartRequest, active string) (Run, bool, error) {
	msg := &runlog.MessageQueued{Text: req.Input, Mode: runlog.ModeSteer}
	if req.RequestID != "" {
		msg.RequestID, msg.RequestHash = req.RequestID, requestHash(req)
	}
	_, err := m.sendMessage(ctx, req.Tenant, active, msg)
	var settled *errs.RunAlreadySettled
	if errors.As(err, &settled) {
		return Run{}, false, nil
	}
	if err != nil && !errors.Is(err, errSteeredBefore) {
		return Run{}, false, err
	}
	run, err := m.Get(ctx, req.Tenant, active)
	run.Steered = true
	return run, err == nil, err
}

// errSteeredBefore says a steered start's request id steered the Run
// already, with the same request: the retry's answer is that Run.
var errSteeredBefore = errors.New("this request steered the run already")

// steerLookback bounds how many of a thread's settled Runs, newest first,
// a steered start with a request id searches for what that id did before.
const steerLookback = 16

// startedBefore finds what a steered start's request id did on its thread
// before, durably from the Runs' logs and index: the Run it steered
// (Steered set) or created, ok true; *errs.RequestIDReused when a
// different request used the id. It looks at the active Run and the
// steerLookback newest settled ones.
func (m *Manager) startedBefore(ctx context.Context, req StartRequest, th store.Thread) (Run, bool, error) {
	hash := requestHash(req)
	ids := []string{th.ActiveRunID}
	for id := th.LastRunID; id != "" && len(ids) <= steerLookback; {
		ids = append(ids, id)
		row, err := m.store.GetRun(ctx, req.Tenant, id)
		if err != nil {
			return Run{}, false, err
		}
		id = row.ContinuesRunID
	}
	for _, id := range ids {
		if id == "" {
			continue
		}
		row, err := m.store.GetRun(ctx, req.Tenant, id)
		if err != nil {
			return Run{}, false, err
		}
		st, _, err := m.writer.Load(ctx, req.Tenant, id)
		if err != nil {
			return Run{}, false, err
		}
		used, found := st.Steers[req.RequestID]
		if row.RequestID == req.RequestID {
			used, found = row.RequestHash, true
		}
		if !found {
			continue
		}
		if used != hash {
			return Run{}, false, &errs.RequestIDReused{RequestID: req.RequestID, RunID: id}
		}
		run, err := m.Get(ctx, req.Tenant, id)
		run.Steered = run.RequestID != req.RequestID
		return run, err == nil, err
	}
	return Run{}, false, nil
}

// interruptAhead interrupts the active Run of the thread a new waiting Run
// joined, so that the new one starts as soon as it settles.
func (m *Manager) interruptAhead(ctx context.Context, tenant, threadID, runID string) error {
	th, found, err := m.store.GetThread(ctx, tenant, threadID)
	if err != nil || !found || th.ActiveRunID == "" || th.ActiveRunID == runID {
		return err
	}
	err = m.requestInterrupt(ctx, tenant, th.ActiveRunID, "run "+runID+" interrupted it on thread "+threadID)
	var settled *errs.RunAlreadySettled
	if errors.As(err, &settled) {
		return nil
	}
	return err
}

// Thread is a thread as callers see it.
type Thread = store.Thread

// GetThread returns a thread or *errs.ThreadNotFound.
func (m *Manager) GetThread(ctx context.Context, tenant, threadID string) (Thread, error) {
	if threadID == "" {
		return Thread{}, errs.BadField("thread_id", "is required")
	}
	th, found, err := m.store.GetThread(ctx, tenant, threadID)
	if err == nil && !found {
		err = &errs.ThreadNotFound{ThreadID: threadID}
	}
	return th, err
}

// ListThreads lists threads newest first.
func (m *Manager) ListThreads(ctx context.Context, tenant string, q store.ThreadQuery) ([]Thread, string, error) {
	return m.store.ListThreads(ctx, tenant, q)
}
