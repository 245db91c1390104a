package logwriter

import (
	"errors"
	"math/rand/v2"
	"time"

	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/store"
)

// ErrSuperseded ends a worker's append: another worker wrote to the log,
// or the Run settled, so this writer's view of it no longer counts.
var ErrSuperseded = errors.New("another writer superseded this one")

// Policy is how a Log writes: whose Records it stamps, and what an append
// does when another writer got there first (*errs.SeqConflict).
type Policy struct {
	// Attempt stamps the Records: 0 for an outsider, the Attempt's number
	// for a worker.
	Attempt int
	// Lease, when set, must still be held for an append to go in.
	Lease *store.Lease
	// Tries bounds the appends of one Append call; 0 means no bound but
	// the caller's deadline, or Wait without one.
	Tries int
	// Wait bounds how long one Append call keeps retrying when ctx has no
	// deadline of its own.
	Wait time.Duration
	// Backoff is the pause before retry n (n >= 1); nil retries at once.
	Backoff func(n int) time.Duration
	// Foreign checks the State read after a conflict and the Records that
	// others appended since this Log last stored; an error ends the
	// Append with it.
	Foreign func(st *runlog.State, recs []runlog.Record) error
}

// Outsider is the policy of writers from outside a worker (messages,
// resumes, interrupts, a child's ending): after a conflict, read again
// and decide again, pausing with jitter, for as long as the caller's
// deadline allows, so that contention alone never fails the caller: it
// sees its own deadline's error at worst. A caller without a deadline gets
// *errs.SeqConflict after 30s of it.
func Outsider() Policy {
	return Policy{Wait: 30 * time.Second, Backoff: Jitter(time.Millisecond, 100*time.Millisecond)}
}

// Worker is the policy of the worker holding lease in Attempt attempt:
// after a conflict with outsiders' Records, fold them in and try once
// more; a Record of another worker, or a Run that settled meanwhile, ends
// the Append with ErrSuperseded.
func Worker(lease *store.Lease, attempt int) Policy {
	return Policy{Attempt: attempt, Lease: lease, Tries: 2, Foreign: func(st *runlog.State, recs []runlog.Record) error {
		if st.Settled() {
			return ErrSuperseded
		}
		for _, r := range recs {
			if r.Attempt != 0 && r.Attempt != attempt {
				return ErrSuperseded
			}
		}
		return nil
	}}
}

// Jitter returns a backoff that doubles from base up to max and waits a
// random part of it ("full jitter"), so that writers that collided once
// spread out instead of colliding again.
func Jitter(base, max time.Duration) func(n int) time.Duration {
	return func(n int) time.Duration {
		d := base << min(n-1, 16)
		if d > max || d <= 0 {
			d = max
		}
		return time.Duration(rand.Int64N(int64(d)) + 1)
	}
}
