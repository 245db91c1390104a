package runs

import (
	"context"
	"sync"

	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/store"
)

// tailWindow is how many of a Run's newest Records a tail keeps for its
// watchers; a watcher further behind reads the store itself.
const tailWindow = 1024

// tails shares the reading of Runs' new Records among everyone in this
// process watching them: one store read per append, whatever the number of
// watchers of the Run.
type tails struct {
	store store.Store
	mu    sync.Mutex
	byRun map[string]*tail
}

// tail follows one Run's log.
type tail struct {
	mu      sync.Mutex
	recs    []runlog.Record // the newest Records, consecutive
	next    int64           // the seq of the next Record to read
	changed chan struct{}   // closed when Records arrive, then replaced
	users   int
	stop    context.CancelFunc
}

func newTails(s store.Store) *tails { return &tails{store: s, byRun: map[string]*tail{}} }

// acquire returns the tail of a Run, starting its reader for the first
// user; release must follow.
func (ts *tails) acquire(tenant, runID string, lastSeq int64) *tail {
	key := tenant + "/" + runID
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if t, ok := ts.byRun[key]; ok {
		t.users++
		return t
	}
	ctx, cancel := context.WithCancel(context.Background())
	t := &tail{next: lastSeq + 1, changed: make(chan struct{}), users: 1, stop: cancel}
	ts.byRun[key] = t
	sub := ts.store.Notifier().Subscribe(store.RunTopic(tenant, runID))
	go ts.follow(ctx, sub, tenant, runID, t)
	return t
}

func (ts *tails) release(tenant, runID string, t *tail) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	t.users--
	if t.users == 0 {
		t.stop()
		delete(ts.byRun, tenant+"/"+runID)
	}
}

// follow reads new Records after every signal until stopped. A read that
// fails leaves the tail behind; watchers then read the store themselves.
func (ts *tails) follow(ctx context.Context, sub store.Subscription, tenant, runID string, t *tail) {
	defer sub.Close()
	for {
		for {
			t.mu.Lock()
			next := t.next
			t.mu.Unlock()
			stored, err := ts.store.ReadLog(ctx, tenant, runID, next, watchBatch)
			if err != nil || len(stored) == 0 {
				break
			}
			recs, err := FromStore(runID, stored)
			if err != nil {
				break
			}
			t.mu.Lock()
			t.recs = append(t.recs, recs...)
			if over := len(t.recs) - tailWindow; over > 0 {
				t.recs = append([]runlog.Record(nil), t.recs[over:]...)
			}
			t.next = recs[len(recs)-1].Seq + 1
			close(t.changed)
			t.changed = make(chan struct{})
			t.mu.Unlock()
			if len(stored) < watchBatch {
				break
			}
		}
		select {
		case <-sub.C():
		case <-ctx.Done():
			return
		}
	}
}

// since returns the tail's Records from seq from, and whether the tail
// covers from at all (false when from is older than its window), with the
// channel that closes when more arrive.
func (t *tail) since(from int64) ([]runlog.Record, bool, <-chan struct{}) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if from >= t.next {
		return nil, true, t.changed
	}
	if len(t.recs) == 0 || from < t.recs[0].Seq {
		return nil, false, t.changed
	}
	// Records are never changed in place and the window is only ever
	// appended to or replaced, so readers share the slice (capped, so a
	// reader's append cannot reach into it).
	out := t.recs[from-t.recs[0].Seq : len(t.recs) : len(t.recs)]
	return out, true, t.changed
}
