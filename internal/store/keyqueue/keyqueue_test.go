package keyqueue_test

import (
	"slices"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/keyqueue"
)

// rows is a keyqueue.Tx on maps: one key's row and its Runs.
type rows struct {
	key  *keyqueue.Key
	runs []*store.Run // in KeySeq order
}

func (x *rows) CreateKey(tenant, key string, now time.Time) error {
	if x.key == nil {
		x.key = &keyqueue.Key{Tenant: tenant, Key: key, Limit: 1, UpdateTime: now}
	}
	return nil
}

func (x *rows) LockKey(string, string) (keyqueue.Key, bool, error) { return *x.key, true, nil }
func (x *rows) PutKey(k keyqueue.Key) error                        { *x.key = k; return nil }

func (x *rows) OldestWaiting(string, string) (string, error) {
	for _, r := range x.runs {
		if r.KeyState == store.KeyWaits {
			return r.RunID, nil
		}
	}
	return "", nil
}

func (x *rows) run(id string) *store.Run {
	for _, r := range x.runs {
		if r.RunID == id {
			return r
		}
	}
	return nil
}

func (x *rows) SetKeyState(_, runID string, state int) error {
	x.run(runID).KeyState = state
	return nil
}

func (x *rows) Grant(_, runID string, _ time.Time) error {
	r := x.run(runID)
	r.KeyState, r.Index.Runnable = store.KeyHolds, !r.Waiting
	return nil
}

// join creates Run id on the key with limit as a store's CreateRun would.
func (x *rows) join(t *testing.T, id string, limit int) []string {
	t.Helper()
	r := &store.Run{Tenant: "t", RunID: id, ConcurrencyKey: "k", ConcurrencyLimit: limit, Index: store.Index{Runnable: true}}
	granted, err := keyqueue.Join(x, r, false)
	if err != nil {
		t.Fatal(err)
	}
	x.runs = append(x.runs, r)
	return granted
}

// TestARaisedLimitLetsWaitingRunsIn: a start with a higher limit gives the
// new slots to the Runs already waiting, oldest first, before itself.
func TestARaisedLimitLetsWaitingRunsIn(t *testing.T) {
	x := &rows{}
	x.join(t, "r1", 1)
	x.join(t, "r2", 1)
	x.join(t, "r3", 1)
	if granted := x.join(t, "r4", 3); !slices.Equal(granted, []string{"r2", "r3"}) {
		t.Fatalf("a start raising the limit to 3 granted %v; want r2 and r3", granted)
	}
	if r4 := x.run("r4"); r4.KeyState != store.KeyWaits || r4.Index.Runnable || r4.KeySeq != 4 {
		t.Errorf("r4 = %+v; want it waiting at 4, behind the three holders", r4)
	}
	granted, err := keyqueue.Settle(x, "t", "r1", "k", store.KeyHolds, time.Unix(1, 0))
	if err != nil || !slices.Equal(granted, []string{"r4"}) || x.key.Held != 3 {
		t.Fatalf("settling r1 granted %v (%v), held %d; want r4, 3 held", granted, err, x.key.Held)
	}
	if granted, _ := keyqueue.Settle(x, "t", "r1", "k", store.KeyNone, time.Unix(2, 0)); granted != nil || x.key.Held != 3 {
		t.Errorf("settling a Run that left already granted %v, held %d", granted, x.key.Held)
	}
}
