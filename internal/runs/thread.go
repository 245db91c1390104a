package runs

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
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

// steer gives a start's input to its thread's active Run as a steer, and
// returns that Run; ok is false when the thread has no active Run (or it
// settled meanwhile), so that a new Run starts instead.
func (m *Manager) steer(ctx context.Context, req StartRequest) (Run, bool, error) {
	th, found, err := m.store.GetThread(ctx, req.Tenant, req.ThreadID)
	if err != nil || !found || th.ActiveRunID == "" {
		return Run{}, false, err
	}
	_, err = m.SendMessage(ctx, req.Tenant, th.ActiveRunID, req.Input, runlog.ModeSteer)
	var settled *errs.RunAlreadySettled
	if errors.As(err, &settled) {
		return Run{}, false, nil
	}
	if err != nil {
		return Run{}, false, err
	}
	run, err := m.Get(ctx, req.Tenant, th.ActiveRunID)
	run.Steered = true
	return run, err == nil, err
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
