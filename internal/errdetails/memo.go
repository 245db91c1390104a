package errdetails

import (
	"strconv"
	"sync"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
)

// memoSize bounds the statuses a Mapper remembers.
const memoSize = 4096

// memo remembers the statuses of errors seen recently. A status is a pure
// function of its row, message, metadata and retry delay, so an error that
// repeats (a storm of OVERLOADED or STORE_UNAVAILABLE, a client polling a
// Run that does not exist) is mapped once. Statuses are immutable and
// shared.
type memo struct {
	mu sync.RWMutex
	m  map[string]*Outcome
}

// memoKeyMax bounds a key; errors whose key would be longer (long
// violation lists) are not remembered.
const memoKeyMax = 2048

// memoKey appends to b what identifies everything a status shows, or
// returns nil for errors not worth remembering: INTERNAL ones (each has
// its own errorId) and those too long to key.
func memoKey(b []byte, r *row, typed error, message string, retryable bool, delay time.Duration) []byte {
	if r.reason == "INTERNAL" {
		return nil
	}
	b = append(b, r.reason...)
	b = append(b, 0)
	b = append(b, message...)
	b = append(b, 0)
	b = strconv.AppendBool(b, retryable)
	b = strconv.AppendInt(b, int64(delay), 10)
	b = append(b, 0)
	b = errs.AppendMetadataValues(b, typed)
	for _, v := range violationsOf(typed) {
		b = append(append(append(append(b, v.Field...), 0), v.Description...), 0)
		if len(b) > memoKeyMax {
			return nil
		}
	}
	return b
}

// get returns the Outcome remembered under key, or nil. The lookup does
// not copy key.
func (c *memo) get(key []byte) *Outcome {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.m[string(key)]
}

func (c *memo) put(key string, o *Outcome) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= memoSize {
		c.m = make(map[string]*Outcome, 64)
	}
	c.m[key] = o
}
