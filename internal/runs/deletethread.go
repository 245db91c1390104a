package runs

import (
	"context"
	"slices"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/store"
)

// threadDeleteBatch bounds how many Runs one store transaction of a
// thread's delete removes.
const threadDeleteBatch = 100

// threadDeleteTries bounds how often DeleteThread starts over when Runs
// keep joining the thread or their logs keep moving.
const threadDeleteTries = 4

// DeleteThread deletes every Run of a thread and then the thread itself,
// a batch of Runs per store transaction (store.Lifecycle.DeleteThread),
// and returns how many Runs it deleted. A thread with an active or
// waiting Run fails *errs.RunNotSettled and nothing is deleted, unless
// interrupt: then the waiting Runs and then the active one are
// interrupted, and deleted once settled. *errs.ThreadNotFound for an
// unknown thread.
func (m *Manager) DeleteThread(ctx context.Context, tenant, threadID string, interrupt bool) (int64, error) {
	if _, err := m.GetThread(ctx, tenant, threadID); err != nil {
		return 0, err
	}
	var n int64
	for try := 0; try < threadDeleteTries; try++ {
		runs, err := m.threadRuns(ctx, tenant, threadID)
		if err != nil {
			return n, err
		}
		if busy := unsettledRuns(runs); len(busy) > 0 {
			if !interrupt {
				return n, &errs.RunNotSettled{RunID: busy[0].RunID, State: busy[0].Index.State, Action: "be deleted with its thread " + threadID}
			}
			if err := m.interruptThread(ctx, tenant, busy); err != nil {
				return n, err
			}
			continue
		}
		deleted, gone, err := m.deleteThreadRuns(ctx, tenant, threadID, runs)
		n += deleted
		if err != nil || gone {
			return n, err
		}
	}
	return n, &errs.RunNotSettled{RunID: "", State: "joined", Action: "be deleted while Runs keep joining thread " + threadID}
}

// threadRuns lists every Run of a thread, oldest first.
func (m *Manager) threadRuns(ctx context.Context, tenant, threadID string) ([]store.Run, error) {
	var out []store.Run
	q := store.RunQuery{ThreadID: threadID, PageSize: threadDeleteBatch}
	for {
		page, next, err := m.store.ListRuns(ctx, tenant, q)
		if err != nil {
			return nil, err
		}
		out = append(out, page...)
		if next == "" {
			return out, nil
		}
		q.PageToken = next
	}
}

// unsettledRuns returns the Runs not settled (active or waiting), in the
// order given.
func unsettledRuns(runs []store.Run) []store.Run {
	var out []store.Run
	for _, r := range runs {
		if !runlog.Status(r.Index.State).Settled() {
			out = append(out, r)
		}
	}
	return out
}

// interruptThread interrupts a thread's unsettled Runs newest first, so
// no waiting one becomes active when the one ahead of it settles, and
// waits for each to settle.
func (m *Manager) interruptThread(ctx context.Context, tenant string, busy []store.Run) error {
	for _, r := range slices.Backward(busy) {
		if err := m.requestInterrupt(ctx, tenant, r.RunID, "its thread was deleted"); err != nil {
			return err
		}
		if _, err := m.WaitSettled(ctx, tenant, r.RunID, interruptWait); err != nil {
			return err
		}
	}
	return nil
}

// deleteThreadRuns deletes settled Runs of a thread batch by batch, the
// last batch also removing the thread's row once none of its Runs is
// left. It returns how many it deleted and whether the thread is gone.
func (m *Manager) deleteThreadRuns(ctx context.Context, tenant, threadID string, runs []store.Run) (int64, bool, error) {
	var n int64
	for from := 0; ; from += threadDeleteBatch {
		batch := runs[from:min(from+threadDeleteBatch, len(runs))]
		ds := make([]store.RunDeletion, len(batch))
		for i, r := range batch {
			ds[i] = m.deletion(ctx, r)
		}
		deleted, gone, err := m.store.DeleteThread(ctx, tenant, threadID, ds)
		n += int64(len(deleted))
		m.deleted.Add(int64(len(deleted)))
		if err != nil || gone || from+threadDeleteBatch >= len(runs) {
			return n, gone, err
		}
	}
}
