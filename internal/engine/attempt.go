package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/store"
)

// errEndAttempt stops an Attempt without writing anything more: another
// writer appeared, the lease was lost, or the Run went idle.
var errEndAttempt = errors.New("attempt ended")

// attempt is one worker's turn at a Run, under a lease.
type attempt struct {
	e      *Engine
	lease  *store.Lease
	number int
	state  *runlog.State
	spec   *spec.Version
	log    *slog.Logger

	lost     atomic.Bool
	released bool
	knownSeq atomic.Int64

	abortOnce sync.Once
	aborted   chan struct{}

	// pendingOps are folded into state but not yet stored: they go out
	// with the next append (see later). pendingRecs are their Records.
	pendingOps  []runlog.Op
	pendingRecs []runlog.Record
}

func (e *Engine) attempt(ctx context.Context, lease *store.Lease) {
	a := &attempt{e: e, lease: lease, log: e.Log.With("runId", lease.RunID, "worker", e.cfg.WorkerID), aborted: make(chan struct{})}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go a.heartbeat(ctx, cancel)
	err := a.run(ctx)
	if len(a.pendingOps) > 0 && !a.lost.Load() {
		fctx, fcancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		if ferr := a.append(fctx, false); ferr != nil && !errors.Is(ferr, errEndAttempt) {
			a.log.Warn("storing the last records of the attempt failed; they will be redone", "err", ferr)
		}
		fcancel()
	}
	switch {
	case err == nil, errors.Is(err, errEndAttempt):
	case ctx.Err() != nil:
	default:
		a.log.Error("attempt failed", "err", err)
	}
	if !a.released && !a.lost.Load() {
		rctx, rcancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer rcancel()
		if err := e.Store.Release(rctx, lease); err != nil {
			a.log.Warn("releasing the lease failed; it will expire", "err", err)
		}
	}
}

func (a *attempt) run(ctx context.Context) error {
	st, _, err := a.e.Runs.Load(ctx, a.lease.Tenant, a.lease.RunID)
	var corrupt *errs.CorruptLog
	if errors.As(err, &corrupt) {
		return a.failCorrupt(ctx, st, corrupt)
	}
	if err != nil {
		return err
	}
	a.setState(st)
	if st.Settled() {
		return nil
	}
	a.spec, err = a.e.Specs.Get(ctx, st.Admission.Tenant, st.Admission.Spec, st.Admission.Version)
	if err != nil {
		return err
	}
	if st.Attempt >= a.e.cfg.MaxAttempts {
		id := errs.NewErrorID()
		a.log.Error("run gave up after too many attempts", "attempts", st.Attempt, "errorId", id)
		return a.settle(ctx, runlog.StatusFailed, "", "", &errs.Internal{ErrorID: id})
	}
	a.number = st.Attempt + 1
	if err := a.append(ctx, false, &runlog.AttemptStarted{Attempt: a.number, WorkerID: a.e.cfg.WorkerID}); err != nil {
		return err
	}
	if a.number > 1 {
		a.log.Info("took over run", "attempt", a.number)
	}
	stopWatch := a.watchOutsiders(ctx)
	defer stopWatch()
	for {
		done, err := a.step(ctx)
		if err != nil || done {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
}

func (a *attempt) setState(st *runlog.State) {
	a.state = st
	a.knownSeq.Store(st.Seq)
}

// heartbeat renews the lease until ctx ends; a refused renewal stops the
// Attempt at once.
func (a *attempt) heartbeat(ctx context.Context, stop context.CancelFunc) {
	every := a.e.cfg.LeaseTTL / 3
	for {
		select {
		case <-ctx.Done():
			return
		case <-a.e.Clock.After(every):
		}
		err := a.e.Store.Renew(ctx, a.lease, a.e.Clock.Now(), a.e.cfg.LeaseTTL)
		var lost *errs.LeaseLost
		if errors.As(err, &lost) {
			a.lost.Store(true)
			a.log.Warn("lease lost; stopping the attempt")
			stop()
			return
		}
		if err != nil && ctx.Err() == nil {
			a.log.Warn("renewing the lease failed; will retry", "err", err)
		}
	}
}

// watchOutsiders follows the log for an abort request from outside and
// cancels the operation in flight when one arrives.
func (a *attempt) watchOutsiders(ctx context.Context) func() {
	sub := a.e.Store.Notifier().Subscribe(store.OutsiderTopic(a.lease.Tenant, a.lease.RunID))
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		defer sub.Close()
		for {
			select {
			case <-ctx.Done():
				return
			case <-sub.C():
			}
			recs, err := a.e.Store.ReadLog(ctx, a.lease.Tenant, a.lease.RunID, a.knownSeq.Load()+1, 0)
			if err != nil {
				continue
			}
			for _, r := range recs {
				if r.Attempt == 0 && r.Kind == (&runlog.AbortRequested{}).Kind() {
					a.abortOnce.Do(func() { close(a.aborted) })
					return
				}
			}
		}
	}()
	return cancel
}

// opContext is the context of one operation: it ends with the Attempt, at
// deadline, or when an abort request arrives.
func (a *attempt) opContext(ctx context.Context, deadline time.Time) (context.Context, context.CancelFunc) {
	ctx, cancel := clock.WithDeadline(ctx, a.e.Clock, deadline)
	go func() {
		select {
		case <-a.aborted:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

// interrupted reports whether an operation stopped because the Run is
// being aborted or passed its deadline, rather than failing.
func (a *attempt) interrupted() bool {
	return a.abortSeen() || !a.e.Clock.Now().Before(a.state.Admission.Deadline)
}

// append writes ops as this Attempt's next Records. On a conflict with an
// outsider it folds their Records and tries once more; a record from
// another worker, or a lost lease, ends the Attempt.
func (a *attempt) append(ctx context.Context, release bool, ops ...runlog.Op) error {
	for try := 0; ; try++ {
		// The records are folded into the Attempt's own State before the
		// store has them; any failure below reloads or ends the Attempt,
		// so a State ahead of the store is never used.
		recs, err := a.fold(ops)
		if err != nil {
			return err
		}
		stored, err := runs.ToStore(append(a.pendingRecs, recs...))
		if err != nil {
			return err
		}
		if len(stored) == 0 {
			return nil
		}
		err = a.e.Store.Append(ctx, store.Append{
			Tenant: a.lease.Tenant, RunID: a.lease.RunID, Records: stored, Index: runs.Index(a.state),
			Lease: a.lease, Release: release,
		})
		if err == nil {
			a.pendingOps, a.pendingRecs = nil, nil
			a.knownSeq.Store(a.state.Seq)
			if release {
				a.released = true
			}
			if a.state.Settled() {
				a.e.Runs.AfterSettle(ctx, a.state)
			}
			return nil
		}
		var conflict *errs.SeqConflict
		var lost *errs.LeaseLost
		switch {
		case errors.As(err, &lost):
			a.lost.Store(true)
			return errEndAttempt
		case errors.As(err, &conflict) && try == 0:
			if err := a.foldForeign(ctx); err != nil {
				return err
			}
		case errors.As(err, &conflict):
			return errEndAttempt
		default:
			return err
		}
	}
}

// later folds ops into the Attempt's State now and stores them with the
// next append, which always comes before anything that waits (a model
// call, a tool call, a suspension, a sleep). Fewer, larger appends cost
// fewer syncs; a crash in between only means the work is redone.
func (a *attempt) later(ops ...runlog.Op) error {
	recs, err := a.fold(ops)
	if err != nil {
		return err
	}
	a.pendingOps = append(a.pendingOps, ops...)
	a.pendingRecs = append(a.pendingRecs, recs...)
	return nil
}

// fold stamps ops as this Attempt's Records following its State and
// folds them into it.
func (a *attempt) fold(ops []runlog.Op) ([]runlog.Record, error) {
	recs := runs.Stamp(a.state, a.number, a.e.Clock.Now().UTC(), ops...)
	if err := a.state.ApplyAll(recs); err != nil {
		return nil, fmt.Errorf("this attempt's records do not fold: %w", err)
	}
	return recs, nil
}

// foldForeign reads the Records others appended. Outsiders' Records are
// folded in, and this Attempt's records not yet stored are folded again
// after them; any other worker's Record ends this Attempt.
func (a *attempt) foldForeign(ctx context.Context) error {
	st, recs, err := a.e.Runs.Load(ctx, a.lease.Tenant, a.lease.RunID)
	if err != nil {
		return err
	}
	pending := a.pendingOps
	a.pendingOps, a.pendingRecs = nil, nil
	for _, r := range recs[a.knownSeq.Load():] {
		if r.Attempt != 0 && r.Attempt != a.number {
			a.log.Info("another worker wrote to the run; ending this attempt", "seq", r.Seq, "attempt", r.Attempt)
			return errEndAttempt
		}
	}
	a.setState(st)
	if st.Settled() {
		return errEndAttempt
	}
	if err := a.later(pending...); err != nil {
		return errEndAttempt
	}
	return nil
}

// failCorrupt records that a log is corrupt. Nothing repairs it: a Settled
// record closes it and the index shows the Run FAILED with LOG_CORRUPT.
func (a *attempt) failCorrupt(ctx context.Context, st *runlog.State, corrupt *errs.CorruptLog) error {
	a.log.Error("run log is corrupt", "seq", corrupt.Seq, "corruption", corrupt.Reason, "detail", corrupt.Detail)
	run, err := a.e.Store.GetRun(ctx, a.lease.Tenant, a.lease.RunID)
	if err != nil {
		return err
	}
	failure := errs.Store(corrupt, "")
	view := st.Clone()
	view.Status, view.Failure, view.SettleTime = runlog.StatusFailed, &failure, a.e.Clock.Now().UTC()
	idx := runs.Index(view)
	idx.Runnable, idx.WakeAt = false, time.Time{}
	rec := runlog.Record{Seq: run.LastSeq + 1, Time: a.e.Clock.Now().UTC(), Op: &runlog.Settled{State: runlog.StatusFailed, Failure: &failure}}
	stored, err := runs.ToStore([]runlog.Record{rec})
	if err != nil {
		return err
	}
	if err := a.e.Store.Append(ctx, store.Append{Tenant: a.lease.Tenant, RunID: a.lease.RunID, Records: stored, Index: idx, Lease: a.lease, Release: true}); err != nil {
		return err
	}
	a.released = true
	return nil
}

// settle ends the Run.
func (a *attempt) settle(ctx context.Context, state runlog.Status, cause runlog.AbortCause, answer string, failure error, before ...runlog.Op) error {
	s := &runlog.Settled{State: state, AbortCause: cause, Answer: answer}
	if failure != nil {
		id := errs.NewErrorID()
		if errs.Typed(failure) == nil {
			a.log.Error("run failed unexpectedly", "errorId", id, "err", failure)
		}
		stored := errs.Store(failure, id)
		s.Failure = &stored
	}
	a.log.Info("run settled", "state", state, "abortCause", cause)
	return a.append(ctx, true, append(before, s)...)
}
