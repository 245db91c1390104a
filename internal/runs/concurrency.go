package runs

import (
	"context"
	"errors"
	"fmt"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/store"
)

// keyed is the concurrency key a new Run takes a slot of ("" for none),
// its limit and the mode of a start over it.
type keyed struct {
	Key   string
	Limit int
	Mode  string
}

// concurrencyOf is the concurrency of the Run req starts on sv: the key
// req names or the Spec's expression gives, with req's limit or the
// Spec's. An evaluation's Runs (replays, judges) take none: they act on
// nothing in production, so they neither wait for production's slots nor,
// with REPLACE, abort production's waiting Runs.
func concurrencyOf(req StartRequest, sv *spec.Version) keyed {
	if req.EvaluationID != "" {
		return keyed{}
	}
	var c spec.Concurrency
	if sv.Concurrency != nil {
		c = *sv.Concurrency
	}
	k := keyed{Key: req.ConcurrencyKey, Limit: c.EffectiveLimit(), Mode: c.EffectiveMode()}
	if k.Key == "" && sv.Concurrency != nil {
		k.Key = c.KeyOf(req.Input)
	}
	if req.ConcurrencyLimit > 0 {
		k.Limit = req.ConcurrencyLimit
	}
	return k
}

// familyKey is k, unless the Run is a delegated child whose parent holds
// the same key: the child is part of its parent's work, and waiting for
// the slot its suspended parent holds would wait forever.
func (m *Manager) familyKey(ctx context.Context, req StartRequest, k keyed) keyed {
	if req.Parent == nil || k.Key == "" {
		return k
	}
	if parent, err := m.parentOf(ctx, &req); err == nil && parent.ConcurrencyKey == k.Key {
		k.Key = ""
	}
	return k
}

// concurrencyViolations are what is wrong with a start's concurrency key
// and limit.
func concurrencyViolations(req StartRequest) []errs.FieldViolation {
	var bad []errs.FieldViolation
	if len(req.ConcurrencyKey) > spec.MaxConcurrencyKeyBytes {
		bad = append(bad, errs.FieldViolation{Field: "concurrency_key", Description: fmt.Sprintf("is %d bytes; at most %d are allowed", len(req.ConcurrencyKey), spec.MaxConcurrencyKeyBytes)})
	}
	if req.ConcurrencyLimit < 0 || req.ConcurrencyLimit > spec.MaxConcurrencyLimit {
		bad = append(bad, errs.FieldViolation{Field: "concurrency_limit", Description: fmt.Sprintf("is %d; it must be between 1 and %d, or 0 for the Spec's", req.ConcurrencyLimit, spec.MaxConcurrencyLimit)})
	}
	return bad
}

// replaceWaiting aborts, with the cause REPLACED, every Run of key that
// waits for a slot ahead of runID, the Run a REPLACE start just created
// waiting: the newest start replaces the ones before it. A Run that
// settled meanwhile, or got a slot and started, is left alone.
func (m *Manager) replaceWaiting(ctx context.Context, tenant, key, runID string) error {
	q, err := m.store.KeyQueue(ctx, tenant, key)
	if err != nil {
		return err
	}
	for _, id := range q.Waiting {
		if id == runID {
			return nil
		}
		err := m.abortReplaced(ctx, tenant, id, "run "+runID+" replaced it on concurrency key "+key)
		var settled *errs.RunAlreadySettled
		if err != nil && !errors.As(err, &settled) {
			return err
		}
	}
	return nil
}

// abortReplaced settles a Run that waits for a slot of its key ABORTED
// with the cause REPLACED. A Run that got its slot meanwhile is not
// waiting any more and is left alone.
func (m *Manager) abortReplaced(ctx context.Context, tenant, runID, reason string) error {
	_, err := m.mutate(ctx, tenant, runID, func(st *runlog.State) ([]runlog.Op, error) {
		if st.Settled() || st.Abort != nil || st.Status != runlog.StatusQueued {
			return nil, nil
		}
		row, err := m.store.GetRun(ctx, tenant, runID)
		if err != nil || row.KeyState != store.KeyWaits {
			return nil, err
		}
		return []runlog.Op{
			&runlog.AbortRequested{Cause: runlog.CauseReplaced, Reason: reason},
			&runlog.Settled{State: runlog.StatusAborted, AbortCause: runlog.CauseReplaced},
		}, nil
	})
	var corrupt *errs.CorruptLog
	if errors.As(err, &corrupt) {
		return nil
	}
	return err
}

// keyPlace fills in a Run's place among its key's waiting Runs and what it
// waits on: a slot of its key, or what this process's Board says.
func (m *Manager) keyPlace(ctx context.Context, run *Run, row store.Run) error {
	if row.KeyState != store.KeyWaits {
		if w, ok := m.waits.Get(row.Tenant, row.RunID); ok && !run.Settled() {
			run.WaitingOn, run.WaitingSince = w.What, w.Since
		}
		return nil
	}
	q, err := m.store.KeyQueue(ctx, row.Tenant, row.ConcurrencyKey)
	if err != nil {
		return err
	}
	for i, id := range q.Waiting {
		if id == row.RunID {
			run.ConcurrencyPlace = i + 1
		}
	}
	run.WaitingOn, run.WaitingSince = "concurrency:"+row.ConcurrencyKey, row.CreateTime
	return nil
}
