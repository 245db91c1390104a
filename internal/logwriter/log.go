package logwriter

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/store"
)

// Log is one writer's hold on a Run's log: the State folded from it,
// including Records folded but not stored yet. It is not safe for
// concurrent use, except Stored.
type Log struct {
	w      *Writer
	tenant string
	runID  string
	policy Policy
	state  *runlog.State
	stored atomic.Int64

	// pendingOps are folded into state but not stored yet: they go out
	// with the next Append. pendingRecs are their Records.
	pendingOps  []runlog.Op
	pendingRecs []runlog.Record
	released    bool
}

// Use changes the Policy of the Log's next writes (a worker learns its
// Attempt's number from the State it opened).
func (l *Log) Use(p Policy) { l.policy = p }

// Released reports whether an append gave the lease up.
func (l *Log) Released() bool { return l.released }

// Refresh folds in the Records others appended since this Log last
// stored, as after a conflict, without writing: the Policy judges them and
// the pending Records are folded again after them.
func (l *Log) Refresh(ctx context.Context) error { return l.reload(ctx) }

// State returns the Run as this writer sees it, pending Records included.
// It belongs to the Log: read it, never keep it past the next write.
func (l *Log) State() *runlog.State { return l.state }

// Stored returns the seq of the newest Record this Log knows is stored.
func (l *Log) Stored() int64 { return l.stored.Load() }

// Pending reports whether Records are folded but not stored.
func (l *Log) Pending() bool { return len(l.pendingRecs) > 0 }

// PendingOp reports whether an op folded but not stored yet matches.
func (l *Log) PendingOp(match func(runlog.Op) bool) bool {
	for _, op := range l.pendingOps {
		if match(op) {
			return true
		}
	}
	return false
}

// Close gives the Log's State back to its Writer, which keeps it so that
// the next writer of the Run (this process's next Attempt or outsider)
// reads only the Records stored after it instead of folding the whole log
// again. Only a State that is exactly the stored log (nothing folded but
// not stored, no failed write) of an unsettled Run is kept. The Log and
// its State must not be used after. A Log whose write gave the lease up
// must be closed soon after: the Run's next writer waits for it (up to
// closingWait) rather than fold the whole log.
func (l *Log) Close() {
	if st := l.state; st != nil && l.clean() && !st.Settled() {
		l.w.states.put(l.tenant, st) // another writer may take it from here on
	}
	l.w.states.closed(l.tenant, l.runID) // a no-op unless a write released the lease
	l.state = nil
}

func (l *Log) clean() bool { return len(l.pendingRecs) == 0 && l.state.Seq == l.stored.Load() }

// Later folds ops into the State now; they are stored with the next
// Append. A worker uses it to make fewer, larger appends before anything
// that waits; a crash in between only means the work is redone.
func (l *Log) Later(ops ...runlog.Op) error {
	recs, err := l.fold(ops)
	if err != nil {
		return err
	}
	l.pendingOps = append(l.pendingOps, ops...)
	l.pendingRecs = append(l.pendingRecs, recs...)
	return nil
}

// fold stamps ops as the Records following the State and folds them in.
func (l *Log) fold(ops []runlog.Op) ([]runlog.Record, error) {
	ops = l.w.scrub(ops)
	recs := Stamp(l.state, l.policy.Attempt, l.w.clock.Now().UTC(), ops...)
	if err := l.state.ApplyAll(recs); err != nil {
		return nil, fmt.Errorf("the writer's own records do not fold: %w", err)
	}
	return recs, nil
}

// Append stores the pending Records and then what decide returns for the
// State after them, in one conditional append, with the index beside
// them; release gives the lease up with them when decide returned any.
// After a conflict the Policy says whether to read again and retry;
// decide is then asked again. It returns *errs.SeqConflict when the
// Policy gives up, *errs.LeaseLost, ErrSuperseded, a corrupt log's
// *errs.CorruptLog (after failing the Run), or decide's error.
func (l *Log) Append(ctx context.Context, release bool, decide Decide) error {
	start := time.Now()
	for try := 1; ; try++ {
		ops, err := decide(l.state)
		if err != nil {
			return err
		}
		recs, err := l.fold(ops)
		if err != nil {
			return err
		}
		all := append(l.pendingRecs[:len(l.pendingRecs):len(l.pendingRecs)], recs...)
		if len(all) == 0 {
			return nil
		}
		err = l.write(ctx, all, release && len(ops) > 0)
		var conflict *errs.SeqConflict
		if !errors.As(err, &conflict) {
			return err
		}
		if again, cerr := l.retry(ctx, try, start); !again {
			return cmp.Or(cerr, err)
		}
		if err := l.reload(ctx); err != nil {
			return err
		}
	}
}

// write appends recs, which the State already holds.
func (l *Log) write(ctx context.Context, recs []runlog.Record, release bool) error {
	stored, err := ToStore(recs)
	if err != nil {
		return err
	}
	if release {
		// Marked before the commit, which may let the Run's next writer
		// in before Append returns here: Close gives the State back next.
		l.w.states.lastWrite(l.tenant, l.runID)
	}
	a := store.Append{
		Tenant: l.tenant, RunID: l.runID, Records: stored, Index: Index(l.state), Lease: l.policy.Lease, Release: release,
		Ends: Ends(stored),
	}
	if a.Ends && l.w.events != nil {
		a.Events = l.w.events(l.tenant, l.state, l.w.clock.Now().UTC())
	}
	err = l.w.store.Append(ctx, a)
	if err != nil {
		return err
	}
	l.pendingOps, l.pendingRecs = nil, nil
	l.stored.Store(l.state.Seq)
	l.released = l.released || release
	if l.state.Settled() && l.w.settled != nil {
		l.w.settled(ctx, l.state)
	}
	return nil
}

// retry waits before try+1 when the Policy allows one. When the caller's
// deadline comes first it waits for it and returns the context's error,
// so that an outsider's caller sees its own deadline, never contention.
func (l *Log) retry(ctx context.Context, try int, start time.Time) (bool, error) {
	p := l.policy
	if p.Tries > 0 && try >= p.Tries {
		return false, nil
	}
	var pause time.Duration
	if p.Backoff != nil {
		pause = p.Backoff(try)
	}
	if dl, ok := ctx.Deadline(); ok {
		if time.Until(dl) <= pause {
			<-ctx.Done()
			return false, ctx.Err()
		}
	} else if p.Wait > 0 && time.Since(start)+pause > p.Wait {
		return false, nil
	}
	t := time.NewTimer(pause)
	defer t.Stop()
	select {
	case <-t.C:
		return true, nil
	case <-ctx.Done():
		return false, ctx.Err()
	}
}

// reload reads the Records others appended, lets the Policy judge them,
// and folds this writer's pending Records again after them.
func (l *Log) reload(ctx context.Context) error {
	st, foreign, err := l.w.current(ctx, l.tenant, l.runID, l.stored.Load())
	if err != nil {
		return err
	}
	if l.policy.Foreign != nil {
		if err := l.policy.Foreign(st, foreign); err != nil {
			return err
		}
	}
	pending := l.pendingOps
	l.state, l.pendingOps, l.pendingRecs = st, nil, nil
	l.stored.Store(st.Seq)
	if err := l.Later(pending...); err != nil {
		return fmt.Errorf("%w: %w", ErrSuperseded, err)
	}
	return nil
}
