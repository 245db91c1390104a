package logwriter

import (
	"sync"

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
type states struct {
	mu   sync.Mutex
	once sync.Once
	c    *lru.Cache[*runlog.State]
}

func (c *states) cache() *lru.Cache[*runlog.State] {
	c.once.Do(func() { c.c = lru.New[*runlog.State](stateCacheSize) })
	return c.c
}

func (c *states) take(tenant, runID string) *runlog.State {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := lru.Key{Tenant: tenant, ID: runID}
	st, ok := c.cache().Get(k)
	if !ok {
		return nil
	}
	c.cache().Remove(k)
	return st
}

func (c *states) put(tenant string, st *runlog.State) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cache().Add(lru.Key{Tenant: tenant, ID: st.RunID}, st)
}
