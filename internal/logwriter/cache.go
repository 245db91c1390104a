package logwriter

import (
	"context"
	"sync"
	"time"

	"github.com/runsvc/runsvc/internal/lru"
	"github.com/runsvc/runsvc/internal/runlog"
)

// stateCacheSize bounds how many folded Runs a Writer keeps.
const stateCacheSize = 1024

// states keeps the folded State of Runs whose log was written recently, so
// that the next write reads only the Records since instead of folding the
// whole log again: runsvc's one cache type (internal/lru), least recently
// used out first, keyed by tenant and Run. A State is taken out while it
// is used, so two writers never share one (the mutex makes the lookup and
// the removal one step); only States that match the stored log exactly (no
// Record folded but not stored) are put back.
//
// A Log whose write gave the lease up (an Attempt suspending its Run) has
// written for the last time and gives its State back moments later: a
// take meanwhile (the resume that write let in, arriving first) waits for
// it, briefly, instead of folding the whole log again.
type states struct {
	mu   sync.Mutex
	once sync.Once
	c    *lru.Cache[*runlog.State]
	// closing holds, for each Run whose State such a Log still holds, a
	// channel closed when the Log gives it back.
	closing map[lru.Key]chan struct{}
}

// closingWait bounds how long a take waits for a State on its way back.
const closingWait = 100 * time.Millisecond

func (c *states) cache() *lru.Cache[*runlog.State] {
	c.once.Do(func() { c.c = lru.New[*runlog.State](stateCacheSize) })
	return c.c
}

func (c *states) take(ctx context.Context, tenant, runID string) *runlog.State {
	k := lru.Key{Tenant: tenant, ID: runID}
	st, back := c.takeNow(k)
	if st != nil || back == nil {
		return st
	}
	t := time.NewTimer(closingWait)
	defer t.Stop()
	select {
	case <-back:
	case <-t.C:
	case <-ctx.Done():
	}
	st, _ = c.takeNow(k)
	return st
}

// takeNow takes the State out, or returns the channel closed when a Log
// that has written for the last time gives it back.
func (c *states) takeNow(k lru.Key) (*runlog.State, chan struct{}) {
	c.mu.Lock()
	defer c.mu.Unlock()
	st, ok := c.cache().Get(k)
	if !ok {
		return nil, c.closing[k]
	}
	c.cache().Remove(k)
	return st, nil
}

func (c *states) put(tenant string, st *runlog.State) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cache().Add(lru.Key{Tenant: tenant, ID: st.RunID}, st)
}

// lastWrite marks a Run's State as held by a Log that will write no more
// and give it back on Close.
func (c *states) lastWrite(tenant, runID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := lru.Key{Tenant: tenant, ID: runID}
	if c.closing == nil {
		c.closing = map[lru.Key]chan struct{}{}
	}
	if c.closing[k] == nil {
		c.closing[k] = make(chan struct{})
	}
}

// closed ends a lastWrite mark, waking the takes that wait for it.
func (c *states) closed(tenant, runID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := lru.Key{Tenant: tenant, ID: runID}
	if ch := c.closing[k]; ch != nil {
		close(ch)
		delete(c.closing, k)
	}
}
