package threadqueue_test

import (
	"errors"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/threadqueue"
)

// rows is a threadqueue.Tx on maps: one thread's row and its Runs.
type rows struct {
	thread *store.Thread
	runs   []*store.Run // in ThreadSeq order
}

func (x *rows) CreateThread(tenant, threadID string, now time.Time) error {
	if x.thread == nil {
		x.thread = &store.Thread{Tenant: tenant, ThreadID: threadID, CreateTime: now, UpdateTime: now}
	}
	return nil
}

func (x *rows) LockThread(string, string) (store.Thread, bool, error) {
	if x.thread == nil {
		return store.Thread{}, false, nil
	}
	return *x.thread, true, nil
}

func (x *rows) PutThread(t store.Thread) error { *x.thread = t; return nil }

func (x *rows) OldestWaiting(string, string) (string, error) {
	for _, r := range x.runs {
		if r.Waiting {
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

func (x *rows) Unwait(_, runID string) error { x.run(runID).Waiting = false; return nil }

func (x *rows) Activate(_, runID, continues string, now time.Time) error {
	r := x.run(runID)
	r.Waiting, r.Index.Runnable, r.ContinuesRunID, r.UpdateTime = false, true, continues, now
	return nil
}

// join creates Run id on the thread as a store's CreateRun would.
func (x *rows) join(t *testing.T, id string, reject bool) (*store.Run, error) {
	t.Helper()
	r := &store.Run{Tenant: "t", RunID: id, ThreadID: "th", CreateTime: time.Unix(int64(len(x.runs)), 0), Index: store.Index{Runnable: true}}
	if err := threadqueue.Join(x, r, reject); err != nil {
		return nil, err
	}
	x.runs = append(x.runs, r)
	return r, nil
}

// TestAThreadRunsOneRunAtATime walks a thread through its rules: the
// first Run is active, later ones wait in order or are refused, and each
// settle of the active Run hands the thread to the oldest waiting one.
func TestAThreadRunsOneRunAtATime(t *testing.T) {
	x := &rows{}
	first, _ := x.join(t, "r1", true)
	second, _ := x.join(t, "r2", false)
	third, _ := x.join(t, "r3", false)
	if first.Waiting || !first.Index.Runnable || first.ThreadSeq != 1 || first.ContinuesRunID != "" {
		t.Errorf("first = %+v; want active at 1", first)
	}
	if !second.Waiting || second.Index.Runnable || second.ThreadSeq != 2 || third.ThreadSeq != 3 {
		t.Errorf("second, third = %+v, %+v; want waiting at 2 and 3", second, third)
	}
	var busy *errs.ThreadBusy
	if _, err := x.join(t, "r4", true); !errors.As(err, &busy) || busy.ActiveRunID != "r1" {
		t.Fatalf("a rejecting join on a busy thread = %v; want ThreadBusy naming r1", err)
	}
	if x.thread.Runs != 3 {
		t.Errorf("the thread counts %d Runs after a refused one, want 3", x.thread.Runs)
	}
	now := time.Unix(100, 0)
	steps := []struct {
		settle, next, active, last string
	}{
		{settle: "r3", next: "", active: "r1", last: ""}, // a waiting Run settling (interrupted) hands nothing on
		{settle: "r1", next: "r2", active: "r2", last: "r1"},
		{settle: "r2", next: "", active: "", last: "r2"},
	}
	for _, st := range steps {
		next, err := threadqueue.Settle(x, "t", st.settle, "th", now)
		if err != nil || next != st.next {
			t.Fatalf("Settle(%s) = %q, %v; want %q", st.settle, next, err, st.next)
		}
		if x.run(st.settle).Waiting {
			t.Errorf("%s still waits after it settled", st.settle)
		}
		if x.thread.ActiveRunID != st.active || x.thread.LastRunID != st.last {
			t.Errorf("after %s settled the thread is active %q last %q, want %q %q", st.settle, x.thread.ActiveRunID, x.thread.LastRunID, st.active, st.last)
		}
	}
	if !second.Index.Runnable || second.ContinuesRunID != "r1" {
		t.Errorf("second = %+v; want claimable, continuing r1", second)
	}
	if again, _ := x.join(t, "r5", true); again.Waiting || again.ContinuesRunID != "r2" || again.ThreadSeq != 4 {
		t.Errorf("a Run on the idle thread = %+v; want active at 4 continuing r2", again)
	}
	if next, err := threadqueue.Settle(x, "t", "r0", "", now); next != "" || err != nil {
		t.Errorf("Settle on no thread = %q, %v; want nothing", next, err)
	}
}
