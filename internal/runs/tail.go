package runs

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/live"
	"github.com/runsvc/runsvc/internal/logwriter"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/store"
)

// tailWindow is how many of a Run's newest Records a tail keeps for its
// watchers at least (twice as many at most); a watcher further behind
// reads the store itself.
const tailWindow = 1024

// tailRetry is how soon a tail whose store read failed reads again.
const tailRetry = 200 * time.Millisecond

// tails shares the reading of Runs' new Records among everyone in this
// process watching them: one store read per append, whatever the number of
// watchers of the Run.
type tails struct {
	store  Store
	writer *logwriter.Writer
	mu     sync.Mutex
	byRun  map[string]*tail
}

// tail follows one Run's log from its start and folds it, so that it
// knows how far the log is good: watchers send only Records the tail has
// folded, and end with the corruption where the fold stopped.
type tail struct {
	// shown is what watchers read, replaced whole after each read of the
	// store: every watcher reads it at every wake, and the mutex it had,
	// taken by 1,000 watchers for every Record, was 2% of the watch
	// phase's CPU (its cache line moving between the two cores).
	shown atomic.Pointer[tailShown]
	// state is the log folded up to shown's next-1, used by follow only.
	state *runlog.State
	// mu guards the fields below it.
	mu sync.Mutex
	// wakes are the watchers' own channels, each poked (live.Poke) when
	// Records arrive, so that a waiting watcher waits on a channel no
	// other watcher locks.
	wakes []chan struct{}
	users int
	stop  context.CancelFunc
}

// tailShown is a tail as its watchers see it; never changed once shown.
type tailShown struct {
	recs    []runlog.Record // the newest Records, consecutive
	next    int64           // the seq of the next Record to read
	corrupt *errs.CorruptLog
}

func newTails(s Store, w *logwriter.Writer) *tails {
	return &tails{store: s, writer: w, byRun: map[string]*tail{}}
}

// acquire returns the tail of a Run, starting its reader for the first
// user, and pokes wake whenever Records arrive; release must follow.
func (ts *tails) acquire(tenant, runID string, wake chan struct{}) *tail {
	key := tenant + "/" + runID
	ts.mu.Lock()
	defer ts.mu.Unlock()
	t, ok := ts.byRun[key]
	if ok {
		t.users++
	} else {
		ctx, cancel := context.WithCancel(context.Background())
		t = &tail{state: runlog.New(runID), users: 1, stop: cancel}
		t.shown.Store(&tailShown{next: 1})
		ts.byRun[key] = t
		sub := ts.store.Notifier().Subscribe(store.RunTopic(tenant, runID))
		go ts.follow(ctx, sub, tenant, runID, t)
	}
	t.mu.Lock()
	t.wakes = append(t.wakes, wake)
	t.mu.Unlock()
	return t
}

func (ts *tails) release(tenant, runID string, t *tail, wake chan struct{}) {
	t.mu.Lock()
	for i, c := range t.wakes {
		if c == wake {
			last := len(t.wakes) - 1
			t.wakes[i], t.wakes[last] = t.wakes[last], nil
			t.wakes = t.wakes[:last]
			break
		}
	}
	t.mu.Unlock()
	ts.mu.Lock()
	defer ts.mu.Unlock()
	t.users--
	if t.users == 0 {
		t.stop()
		delete(ts.byRun, tenant+"/"+runID)
	}
}

// follow reads and folds new Records after every signal until stopped or
// the log proves corrupt, which fails the Run. A read that fails is tried
// again shortly.
func (ts *tails) follow(ctx context.Context, sub store.Subscription, tenant, runID string, t *tail) {
	defer sub.Close()
	for {
		failed := false
		for {
			more, err := ts.readMore(ctx, tenant, runID, t)
			var corrupt *errs.CorruptLog
			if errors.As(err, &corrupt) {
				<-ctx.Done() // nothing after a corrupt Record is ever read
				return
			}
			failed = err != nil
			if !more || failed {
				break
			}
		}
		var retry <-chan time.Time
		if failed {
			retry = time.After(tailRetry)
		}
		select {
		case <-sub.C():
		case <-retry:
		case <-ctx.Done():
			return
		}
	}
}

// readMore reads one batch, folds it, and reports whether there may be
// more; a corrupt Record stops the tail with the Records before it kept.
func (ts *tails) readMore(ctx context.Context, tenant, runID string, t *tail) (bool, error) {
	shown := t.shown.Load()
	stored, err := ts.store.ReadLog(ctx, tenant, runID, shown.next, watchBatch)
	if err != nil || len(stored) == 0 {
		return false, err
	}
	recs, err := logwriter.FromStore(runID, stored)
	good := 0
	for _, r := range recs {
		if ferr := t.state.Apply(r); ferr != nil {
			err = ferr
			break
		}
		good++
	}
	var corrupt *errs.CorruptLog
	if errors.As(err, &corrupt) {
		// Fail the Run before any watcher hears of the corruption, so
		// that what a watcher reads next already says FAILED.
		ts.writer.FailCorrupt(ctx, tenant, t.state, corrupt)
	}
	if good > 0 || corrupt != nil {
		t.show(shown, recs[:good], corrupt)
	}
	return len(stored) == watchBatch && err == nil, err
}

// show shows watchers the Records after those of shown, then wakes them.
// Appending to shown's slice is safe: watchers' views of it are capped at
// their length, and Records are never changed in place.
func (t *tail) show(shown *tailShown, recs []runlog.Record, corrupt *errs.CorruptLog) {
	next := &tailShown{recs: shown.recs, next: shown.next, corrupt: corrupt}
	if len(recs) > 0 {
		next.recs = append(next.recs, recs...)
		// The window is cut back to tailWindow once it holds twice that:
		// cut at every append once full, it was a copy of 1,024 Records
		// (57 KB, all pointers for the GC to scan) per Record appended.
		if over := len(next.recs) - tailWindow; len(next.recs) >= 2*tailWindow {
			next.recs = append(make([]runlog.Record, 0, 2*tailWindow), next.recs[over:]...)
		}
		next.next = recs[len(recs)-1].Seq + 1
	}
	t.shown.Store(next)
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, w := range t.wakes {
		live.Poke(w)
	}
}

// tailView is what a tail shows a watcher from one seq.
type tailView struct {
	// recs are the tail's Records from the seq asked, when covered.
	recs    []runlog.Record
	covered bool
	// next is the seq of the first Record the tail has not folded: a
	// watcher sends nothing from there on.
	next int64
	// corrupt is where the log stopped folding, once the watcher is there.
	corrupt *errs.CorruptLog
}

// since returns the tail's view from seq from: its Records when it covers
// from (false when from is older than its window). Records arriving after
// it poke the watcher's wake channel.
func (t *tail) since(from int64) tailView {
	shown := t.shown.Load()
	v := tailView{next: shown.next}
	recs := shown.recs
	switch {
	case from >= shown.next:
		v.covered = true
		v.corrupt = shown.corrupt
	case len(recs) == 0 || from < recs[0].Seq:
	default:
		// Records are never changed in place and the window is only ever
		// appended to or replaced, so readers share the slice (capped, so
		// a reader's append cannot reach into it).
		v.recs, v.covered = recs[from-recs[0].Seq:len(recs):len(recs)], true
	}
	return v
}
