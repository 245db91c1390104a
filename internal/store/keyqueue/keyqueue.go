// Package keyqueue holds the rules of a concurrency key's slots, once for
// every store adapter: at most Limit Runs of a key hold a slot at once; a
// Run started while every slot is held waits, not claimable, behind the
// key's other waiting Runs (or is refused, with RejectLimited); when a Run
// holding a slot settles, the key's oldest waiting Runs take the freed
// slots and become claimable. A suspended Run keeps its slot.
//
// The adapters decide nothing: each runs Join and Settle inside its own
// transaction, through a Tx of row reads and writes that carry no rule,
// so the key's change commits (or not) with the Run's. The slot count is
// in the store, never in a process: it holds across replicas and kill -9.
package keyqueue

import (
	"fmt"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
)

// Key is a concurrency key's row.
type Key struct {
	Tenant string
	Key    string
	// Limit is how many Runs may hold a slot at once: the newest start's.
	Limit int
	// Held counts the Runs holding a slot.
	Held int
	// Runs counts the Runs started on the key; a Run's KeySeq is its place.
	Runs       int
	UpdateTime time.Time
}

// Tx is one adapter transaction's reads and writes of keys and their
// Runs. Its methods do what they say and decide nothing.
type Tx interface {
	// CreateKey inserts an empty key row created at now, unless the key
	// has one.
	CreateKey(tenant, key string, now time.Time) error
	// LockKey returns the key's row, found false when it has none, and
	// holds it until the transaction ends.
	LockKey(tenant, key string) (Key, bool, error)
	// PutKey writes k's Limit, Held, Runs and UpdateTime.
	PutKey(k Key) error
	// OldestWaiting returns the key's waiting Run (KeyWaits) with the
	// lowest KeySeq, "" when none waits.
	OldestWaiting(tenant, key string) (string, error)
	// SetKeyState sets a Run's KeyState.
	SetKeyState(tenant, runID string, state int) error
	// Grant sets a Run's KeyState to KeyHolds and makes it runnable unless
	// it waits on its thread, updated at now.
	Grant(tenant, runID string, now time.Time) error
}

// Join puts r, a Run being created with r.ConcurrencyKey, on its key,
// inside the transaction that inserts r's row afterwards: it sets r's
// KeySeq and KeyState, and r waits, not runnable, when every slot is held;
// with reject that is *errs.ConcurrencyLimited instead. It returns the
// Runs already waiting that a raised limit let in, now claimable.
func Join(tx Tx, r *store.Run, reject bool) ([]string, error) {
	if err := tx.CreateKey(r.Tenant, r.ConcurrencyKey, r.CreateTime); err != nil {
		return nil, err
	}
	k, found, err := tx.LockKey(r.Tenant, r.ConcurrencyKey)
	if err == nil && !found {
		err = fmt.Errorf("concurrency key %s has no row after its creation", r.ConcurrencyKey)
	}
	if err != nil {
		return nil, err
	}
	k.Limit = max(r.ConcurrencyLimit, 1)
	granted, err := fill(tx, &k, r.CreateTime)
	if err != nil {
		return nil, err
	}
	if k.Held >= k.Limit {
		if reject {
			return nil, &errs.ConcurrencyLimited{Key: r.ConcurrencyKey, Limit: k.Limit}
		}
		r.KeyState, r.Index.Runnable = store.KeyWaits, false
	} else {
		r.KeyState = store.KeyHolds
		k.Held++
	}
	k.Runs++
	k.UpdateTime = r.CreateTime
	r.KeySeq = k.Runs
	return granted, tx.PutKey(k)
}

// Settle follows Run runID settling at now, inside the transaction that
// settles it; key and state are the Run's ConcurrencyKey and KeyState as
// read in that transaction. The Run leaves its key; when it held a slot,
// the key's oldest waiting Runs take the free slots and become claimable.
// It returns those Runs' ids.
func Settle(tx Tx, tenant, runID, key string, state int, now time.Time) ([]string, error) {
	if key == "" || state == store.KeyNone {
		return nil, nil
	}
	if err := tx.SetKeyState(tenant, runID, store.KeyNone); err != nil || state != store.KeyHolds {
		return nil, err
	}
	k, found, err := tx.LockKey(tenant, key)
	if err != nil || !found {
		return nil, err
	}
	k.Held = max(k.Held-1, 0)
	granted, err := fill(tx, &k, now)
	if err != nil {
		return nil, err
	}
	k.UpdateTime = now
	return granted, tx.PutKey(k)
}

// fill gives k's free slots to its oldest waiting Runs.
func fill(tx Tx, k *Key, now time.Time) ([]string, error) {
	var granted []string
	for k.Held < max(k.Limit, 1) {
		next, err := tx.OldestWaiting(k.Tenant, k.Key)
		if err != nil || next == "" {
			return granted, err
		}
		if err := tx.Grant(k.Tenant, next, now); err != nil {
			return granted, err
		}
		k.Held++
		granted = append(granted, next)
	}
	return granted, nil
}
