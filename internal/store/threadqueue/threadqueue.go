// Package threadqueue holds the rules of a thread's queue of Runs, once
// for every store adapter: a thread has at most one active Run; a Run
// started on a busy thread waits behind the others (or is refused, with
// RejectBusy); when the active Run settles, the oldest waiting Run becomes
// the active one, continuing from the settled one, and claimable.
//
// The adapters decide nothing: each runs Join and Settle inside its own
// transaction, through a Tx of row reads and writes that carry no rule,
// so a thread's change commits (or not) with the Run's.
package threadqueue

import (
	"fmt"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
)

// Tx is one adapter transaction's reads and writes of threads and their
// Runs. Its methods do what they say and decide nothing.
type Tx interface {
	// CreateThread inserts an empty thread row created at now, unless the
	// thread has one.
	CreateThread(tenant, threadID string, now time.Time) error
	// LockThread returns the thread's row, found false when it has none,
	// and holds it until the transaction ends: no other transaction
	// changes it meanwhile.
	LockThread(tenant, threadID string) (store.Thread, bool, error)
	// PutThread writes t's ActiveRunID, LastRunID, Runs and UpdateTime.
	PutThread(t store.Thread) error
	// OldestWaiting returns the thread's waiting Run with the lowest
	// ThreadSeq, "" when none waits.
	OldestWaiting(tenant, threadID string) (string, error)
	// Unwait clears a Run's waiting flag.
	Unwait(tenant, runID string) error
	// Activate clears a Run's waiting flag, sets its runnable flag and its
	// ContinuesRunID to continues, and its update time to now.
	Activate(tenant, runID, continues string, now time.Time) error
}

// Join puts r, a Run being created on its thread (r.ThreadID), on the
// thread, inside the transaction that inserts r's row afterwards: it sets
// r's ThreadSeq, and either makes r the active Run, continuing the
// thread's last one, or makes it wait, not runnable; with rejectBusy a
// busy thread is *errs.ThreadBusy instead.
func Join(tx Tx, r *store.Run, rejectBusy bool) error {
	if err := tx.CreateThread(r.Tenant, r.ThreadID, r.CreateTime); err != nil {
		return err
	}
	t, found, err := tx.LockThread(r.Tenant, r.ThreadID)
	if err == nil && !found {
		err = fmt.Errorf("thread %s has no row after its creation", r.ThreadID)
	}
	if err != nil {
		return err
	}
	r.Waiting, r.ContinuesRunID = false, ""
	if t.ActiveRunID != "" {
		if rejectBusy {
			return &errs.ThreadBusy{ThreadID: r.ThreadID, ActiveRunID: t.ActiveRunID}
		}
		r.Waiting, r.Index.Runnable = true, false
	} else {
		t.ActiveRunID, r.ContinuesRunID = r.RunID, t.LastRunID
	}
	t.Runs++
	t.UpdateTime = r.CreateTime
	r.ThreadSeq = t.Runs
	return tx.PutThread(t)
}

// Settle follows Run runID of threadID ("" for none: nothing to do)
// settling at now, inside the transaction that settles it: the Run waits
// no more and, when it was its thread's active Run, the thread's oldest
// waiting Run becomes the active one, continuing from it, and claimable.
// It returns that Run's id, "" when none became active.
func Settle(tx Tx, tenant, runID, threadID string, now time.Time) (string, error) {
	if threadID == "" {
		return "", nil
	}
	if err := tx.Unwait(tenant, runID); err != nil {
		return "", err
	}
	t, found, err := tx.LockThread(tenant, threadID)
	if err != nil || !found || t.ActiveRunID != runID {
		return "", err
	}
	next, err := tx.OldestWaiting(tenant, threadID)
	if err != nil {
		return "", err
	}
	if next != "" {
		if err := tx.Activate(tenant, next, runID, now); err != nil {
			return "", err
		}
	}
	t.ActiveRunID, t.LastRunID, t.UpdateTime = next, runID, now
	return next, tx.PutThread(t)
}
