package engine

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/logwriter"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/store"
)

// errEndAttempt stops an Attempt without writing anything more: another
// writer appeared, the lease was lost, or the Run went idle.
var errEndAttempt = errors.New("attempt ended")

// attempt is one worker's turn at a Run, under a lease. It writes the
// Run's log through w, under logwriter.Worker's policy; state is w's
// State, refreshed after every write. newAttempt makes it, with
// everything it works from.
type attempt struct {
	*held
	// admission, when set, is the Run as this process just admitted it:
	// the Attempt starts from it and reads neither the log nor the row.
	admission *runs.Handover
	number    int
	w         *logwriter.Log
	state     *runlog.State
	spec      *spec.Version
	// history is the conversation of the Runs this one continues on its
	// thread, before its own transcript.
	history []runlog.Message
	// conv is what the model got last, kept for the next turn
	// (conversation.go).
	conv *conversation

	// ahead are the calls of the current response started before their
	// turn (ahead.go).
	ahead aheadCalls

	abortOnce sync.Once
	aborted   chan struct{}
	// outsiders is set when watchOutsiders sees an outsider's Record (a
	// message) that this Attempt may not have folded yet.
	outsiders atomic.Bool
}

// held is a Run's lease while this worker holds it: renewed by heartbeat
// from before the Run's log is opened until the Attempt ends, and lost
// when a renewal or a write is refused.
type held struct {
	e     *Engine
	lease *store.Lease
	log   *slog.Logger
	lost  atomic.Bool
}

func (e *Engine) attempt(ctx context.Context, lease *store.Lease, adm *runs.Handover) {
	h := &held{e: e, lease: lease, log: e.Log.With("runId", lease.RunID, "worker", e.cfg.WorkerID)}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go h.heartbeat(ctx, cancel)
	w, err := h.open(ctx, adm)
	var a *attempt
	if err == nil {
		a, err = e.newAttempt(ctx, h, w, adm)
	}
	if a != nil {
		err = a.run(ctx)
		a.ahead.stop()
		a.flushLast(ctx)
	}
	switch {
	case err == nil, errors.Is(err, errEndAttempt):
	case ctx.Err() != nil:
	default:
		h.log.Error("attempt failed", "err", err)
	}
	if (w == nil || !w.Released()) && !h.lost.Load() {
		rctx, rcancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer rcancel()
		if err := e.Store.Release(rctx, lease); err != nil {
			h.log.Warn("releasing the lease failed; it will expire", "err", err)
		}
	}
	if a != nil {
		a.keepConversation()
	}
	if w != nil {
		// The Run's next turn (a resume, an answer, a message) then reads
		// only what is stored after this Attempt, not the whole log.
		w.Close()
	}
}

// flushLast stores what the Attempt folded but did not store yet, unless
// it lost its lease.
func (a *attempt) flushLast(ctx context.Context) {
	if !a.w.Pending() || a.lost.Load() {
		return
	}
	fctx, fcancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer fcancel()
	if ferr := a.append(fctx, false); ferr != nil && !errors.Is(ferr, errEndAttempt) {
		a.log.Warn("storing the last records of the attempt failed; they will be redone", "err", ferr)
	}
}

// open opens the Run's log for the Attempt: from the admission when this
// process just admitted the Run, else read and folded. A corrupt log
// (the writer failed the Run) opens nothing and is no error.
func (h *held) open(ctx context.Context, adm *runs.Handover) (*logwriter.Log, error) {
	p := logwriter.Worker(h.lease, 0)
	if adm != nil {
		return h.e.Writer.OpenFolded(h.lease.Tenant, h.lease.RunID, p, adm.State), nil
	}
	w, err := h.e.Writer.Open(ctx, h.lease.Tenant, h.lease.RunID, p)
	var corrupt *errs.CorruptLog
	if errors.As(err, &corrupt) {
		return nil, nil // the writer failed the Run; nothing more is written
	}
	return w, err
}

// newAttempt makes the Attempt of the Run whose log w opened under h,
// with everything it works from: the folded State, the Spec Version, the
// thread's history and the Attempt's number. It returns nil when w is
// nil or the Run has settled: there is nothing to do.
func (e *Engine) newAttempt(ctx context.Context, h *held, w *logwriter.Log, adm *runs.Handover) (*attempt, error) {
	if w == nil || w.State().Settled() {
		return nil, nil
	}
	st := w.State()
	sv, err := e.Specs.Get(ctx, st.Admission.Tenant, st.Admission.Spec, st.Admission.Version)
	if err != nil {
		return nil, err
	}
	a := &attempt{held: h, admission: adm, w: w, state: st, spec: sv, aborted: make(chan struct{})}
	a.knowCredentials(ctx)
	if rp := st.Admission.Replay; rp != nil {
		a.history = rp.History
	} else if a.history, err = a.threadHistory(ctx); err != nil {
		return nil, err
	}
	a.number = st.Attempt + a.unrecorded() + 1
	return a, nil
}

func (a *attempt) run(ctx context.Context) error {
	st := a.state
	tookOver := st.NextAttemptFollowsDeath() || a.unrecorded() == 1
	if died := a.died(); died >= a.e.cfg.MaxAttempts {
		a.log.Error("run gave up: too many of its attempts died", "diedAttempts", died, "maxAttempts", a.e.cfg.MaxAttempts)
		return a.settle(ctx, runlog.StatusFailed, "", "", &errs.AttemptsExhausted{RunID: st.RunID, Died: died, Max: a.e.cfg.MaxAttempts})
	}
	a.w.Use(logwriter.Worker(a.lease, a.number))
	if err := a.started(ctx); err != nil {
		return err
	}
	if tookOver {
		a.log.Info("took over run", "attempt", a.number, "diedAttempts", a.state.DiedAttempts)
		if o, ok := a.e.Observer.(TakeoverObserver); ok {
			o.TookOver(ctx, AttemptInfo{Tenant: a.lease.Tenant, RunID: a.lease.RunID, Worker: a.e.cfg.WorkerID, Attempt: a.number})
		}
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

// started records the Attempt. On the Run's first lease no earlier
// Attempt can have died, so the record is only folded: it is stored with
// the Attempt's first append, which may come after the first model call
// (one sync fewer per Run). On any later lease it is stored at once,
// before anything else runs, so that a Run that crashes its process is
// counted; with it goes the record of a first Attempt that stored nothing
// (unrecorded), so that MaxAttempts bounds every Attempt that died, the
// first one included.
func (a *attempt) started(ctx context.Context) error {
	op := &runlog.AttemptStarted{Attempt: a.number, WorkerID: a.e.cfg.WorkerID}
	if a.lease.Token == 1 && a.number == 1 {
		return a.later(op)
	}
	var ops []runlog.Op
	if a.unrecorded() == 1 {
		// Its worker is unknown: the lease that named it is gone.
		ops = append(ops, &runlog.AttemptStarted{Attempt: 1})
	}
	return a.append(ctx, false, append(ops, op)...)
}

// died is how many of the Run's Attempts died before this one: ended
// without settling the Run or leaving it suspended (a crash, a lost lease,
// a drain). MaxAttempts bounds it; Attempts that suspended the Run, each
// followed by one that a resume, an answer or a timer needed, do not
// count.
func (a *attempt) died() int {
	n := a.state.DiedAttempts + a.unrecorded()
	if a.state.NextAttemptFollowsDeath() {
		n++
	}
	return n
}

// unrecorded is 1 when an earlier lease of the Run held a first Attempt
// that stored nothing, else 0. A first Attempt's AttemptStarted waits for
// its first append, which may come after its model call (or 5 ms into
// it); a lease after the first (Lease.Token counts them) that finds no
// Attempt in the log therefore follows one that died before storing, most
// likely in that call, and counts it. A first lease that ended without
// running an Attempt at all (its process stopped before it started one)
// is counted too (as one that died): it costs the Run one of its
// MaxAttempts, never lets a poison Run be made once more than
// MaxAttempts.
func (a *attempt) unrecorded() int {
	if a.lease.Token > 1 && a.state.Attempt == 0 {
		return 1
	}
	return 0
}

// heartbeat renews the lease until ctx ends; a refused renewal stops the
// Attempt at once.
func (h *held) heartbeat(ctx context.Context, stop context.CancelFunc) {
	every := h.e.cfg.LeaseTTL / 3
	for {
		select {
		case <-ctx.Done():
			return
		case <-h.e.Clock.After(every):
		}
		err := h.e.Store.Renew(ctx, h.lease, h.e.Clock.Now(), h.e.cfg.LeaseTTL)
		var lost *errs.LeaseLost
		if errors.As(err, &lost) {
			h.lost.Store(true)
			h.log.Warn("lease lost; stopping the attempt")
			stop()
			return
		}
		if err != nil && ctx.Err() == nil {
			h.log.Warn("renewing the lease failed; will retry", "err", err)
		}
	}
}

// watchOutsiders follows the log for an abort request from outside and
// cancels the operation in flight when one arrives. It reads on from the
// Records it read itself, not from what the Attempt stored: a store made
// while a call runs (flushWhileCalling) folds outsiders' Records in and
// stores after them, and reading after it would skip an abort request
// among them, leaving the call to run to its end.
func (a *attempt) watchOutsiders(ctx context.Context) func() {
	sub := a.e.Store.Notifier().Subscribe(store.OutsiderTopic(a.lease.Tenant, a.lease.RunID))
	ctx, cancel := context.WithCancel(ctx)
	next := a.w.Stored() + 1
	go func() {
		defer sub.Close()
		for {
			select {
			case <-ctx.Done():
				return
			case <-sub.C():
			}
			recs, err := a.e.Store.ReadLog(ctx, a.lease.Tenant, a.lease.RunID, next, 0)
			if err != nil {
				continue
			}
			for _, r := range recs {
				if r.Attempt == 0 && r.Kind == (&runlog.AbortRequested{}).Kind() {
					a.abortOnce.Do(func() { close(a.aborted) })
					return
				}
				if r.Attempt == 0 {
					a.outsiders.Store(true)
				}
				next = r.Seq + 1
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

// append writes ops as this Attempt's next Records, after those folded
// before (later); release gives the lease up with them.
func (a *attempt) append(ctx context.Context, release bool, ops ...runlog.Op) error {
	return a.write(ctx, release, logwriter.Ops(ops...))
}

// write appends what decide returns for the Attempt's State. On a
// conflict with an outsider the writer folds their Records and tries once
// more, asking decide again; a record from another worker, a settled
// Run, a corrupt log (which the writer failed) or a lost lease ends the
// Attempt.
func (a *attempt) write(ctx context.Context, release bool, decide logwriter.Decide) error {
	err := a.w.Append(ctx, release, decide)
	a.state = a.w.State()
	return a.ended(err)
}

// ended turns a write's failure into how the Attempt goes on.
func (a *attempt) ended(err error) error {
	var conflict *errs.SeqConflict
	var lost *errs.LeaseLost
	var corrupt *errs.CorruptLog
	switch {
	case err == nil:
		return nil
	case errors.As(err, &lost):
		a.lost.Store(true)
		return errEndAttempt
	case errors.Is(err, logwriter.ErrSuperseded), errors.As(err, &conflict):
		a.log.Info("another writer moved the run on; ending this attempt", "err", err)
		return errEndAttempt
	case errors.As(err, &corrupt):
		return errEndAttempt
	default:
		return err
	}
}

// later folds ops into the Attempt's State now and stores them with the
// next append. That append comes before a suspension, a sleep, an
// at-most-once tool call and any tool the model asked for; a model call
// and an at-least-once tool call run with Records pending, stored by
// flushWhileCalling once the call has run flushPendingAfter. Fewer,
// larger appends cost fewer syncs; a crash in between only means the
// work is redone (and a first Attempt is counted by the next lease, see
// unrecorded).
func (a *attempt) later(ops ...runlog.Op) error {
	err := a.w.Later(ops...)
	a.state = a.w.State()
	return err
}

// foldForeign folds in the Records outsiders appended; any other worker's
// Record, or a Run settled meanwhile, ends this Attempt.
func (a *attempt) foldForeign(ctx context.Context) error {
	err := a.w.Refresh(ctx)
	a.state = a.w.State()
	return a.ended(err)
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
