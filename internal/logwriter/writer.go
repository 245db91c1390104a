// Package logwriter is the one way into a Run's log. It owns stamping
// Records, folding them into the Run's State, encoding them for the store,
// the index kept beside the log, and the conditional append; writers
// differ only in the Policy they pass: the worker holding the Run's lease
// folds outsiders' Records in and tries once more, outsiders read again
// and retry with jitter within the caller's deadline.
//
// A log that does not fold (*errs.CorruptLog) is never written to again:
// the Writer that meets it fails the Run beside the log, in the index, and
// returns the corruption.
package logwriter

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/secret"
	"github.com/runsvc/runsvc/internal/store"
)

// Decide returns the ops to append to a Run whose State is st; none leaves
// the log alone. It is called again on the new State after a conflict, so
// it must not keep st and must reset whatever it records outside.
type Decide func(st *runlog.State) ([]runlog.Op, error)

// Ops is a Decide that appends the same ops whatever the State.
func Ops(ops ...runlog.Op) Decide {
	return func(*runlog.State) ([]runlog.Op, error) { return ops, nil }
}

// Writer writes Run logs.
type Writer struct {
	store   Store
	clock   clock.Clock
	log     *slog.Logger
	states  states
	settled func(context.Context, *runlog.State)
	events  Events
	// scrubber removes secrets from Records before they are folded.
	scrubber *secret.Scrubber
}

// Options are what a Writer does besides writing; every one is optional.
type Options struct {
	Clock clock.Clock
	Log   *slog.Logger
	// Scrubber, when set, removes every secret it knows from each Record
	// before it is folded and stored: tool results and errors, model text
	// and failures read "[redacted]" instead, in the log, the index and
	// every State a reader sees (DESIGN §6).
	Scrubber *secret.Scrubber
	// OnSettle, when set, runs after every write that settles a Run, a
	// corrupt log's failure included (telling a parent, stopping
	// children).
	OnSettle func(context.Context, *runlog.State)
	// Events, when set, gives the webhook outbox rows of a write that
	// settles or suspends a Run; they are stored in the same transaction
	// as its Records (store.Append.Events).
	Events Events
}

// Events returns the webhook events of a Run whose write leaves it in
// State st (settled or suspended), at now: outbox rows, one per event and
// subscription that wants it.
type Events func(tenant string, st *runlog.State, now time.Time) []store.WebhookEvent

// New returns a Writer on s.
func New(s Store, o Options) *Writer {
	if o.Clock == nil {
		o.Clock = clock.Real{}
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	return &Writer{store: s, clock: o.Clock, log: o.Log, settled: o.OnSettle, events: o.Events, scrubber: o.Scrubber}
}

// Open reads and folds a Run's log for a writer with policy p, which owns
// the returned Log. A corrupt log fails its Run and returns its
// *errs.CorruptLog.
func (w *Writer) Open(ctx context.Context, tenant, runID string, p Policy) (*Log, error) {
	st, _, err := w.current(ctx, tenant, runID, noForeign)
	if err != nil {
		return nil, err
	}
	return w.OpenFolded(tenant, runID, p, st), nil
}

// OpenFolded is Open for a Run whose log the caller has folded to st and
// knows to be stored up to st.Seq (its admission), so nothing is read.
// The returned Log owns st.
func (w *Writer) OpenFolded(tenant, runID string, p Policy, st *runlog.State) *Log {
	l := &Log{w: w, tenant: tenant, runID: runID, policy: p, state: st}
	l.stored.Store(st.Seq)
	return l
}

// Mutate appends what decide returns for the Run's current State as an
// outsider (Policy Outsider), and returns the log's last seq after it.
func (w *Writer) Mutate(ctx context.Context, tenant, runID string, decide Decide) (int64, error) {
	l, err := w.Open(ctx, tenant, runID, Outsider())
	if err != nil {
		return 0, err
	}
	err = l.Append(ctx, false, decide)
	seq := l.state.Seq
	l.Close()
	if err != nil {
		return 0, err
	}
	return seq, nil
}

// Load reads and folds a Run's whole log without writing, and returns it
// with its Records. A corrupt log fails its Run, and is returned as far as
// it folds with its *errs.CorruptLog.
func (w *Writer) Load(ctx context.Context, tenant, runID string) (*runlog.State, []runlog.Record, error) {
	st, recs, err := w.load(ctx, tenant, runID)
	var corrupt *errs.CorruptLog
	if errors.As(err, &corrupt) {
		w.FailCorrupt(ctx, tenant, st, corrupt)
	}
	return st, recs, err
}

// noForeign asks current for no Records.
const noForeign = -1

// current returns the Run's State, a cached one brought up to date or a
// fold of the whole log, with the Records after seq since (none when
// since is noForeign). A corrupt log fails its Run.
func (w *Writer) current(ctx context.Context, tenant, runID string, since int64) (*runlog.State, []runlog.Record, error) {
	if st := w.states.take(ctx, tenant, runID); st != nil && (since == noForeign || st.Seq <= since) {
		stored, err := w.store.ReadLog(ctx, tenant, runID, st.Seq+1, 0)
		if err == nil {
			if recs, err := FromStore(runID, stored); err == nil && st.ApplyAll(recs) == nil {
				return st, after(recs, since), nil
			}
		}
	}
	st, recs, err := w.Load(ctx, tenant, runID)
	if err != nil {
		return nil, nil, err
	}
	return st, after(recs, since), nil
}

func after(recs []runlog.Record, since int64) []runlog.Record {
	if since == noForeign {
		return nil
	}
	for i, r := range recs {
		if r.Seq > since {
			return recs[i:]
		}
	}
	return nil
}

// load folds the whole log.
func (w *Writer) load(ctx context.Context, tenant, runID string) (*runlog.State, []runlog.Record, error) {
	stored, err := w.store.ReadLog(ctx, tenant, runID, 1, 0)
	if err != nil {
		return nil, nil, err
	}
	recs, err := FromStore(runID, stored)
	if err != nil {
		st, ferr := runlog.Fold(runID, recs)
		if ferr != nil {
			return st, nil, ferr // an earlier corruption than the undecodable Record
		}
		return st, nil, err
	}
	st, err := runlog.Fold(runID, recs)
	return st, recs, err
}
