package sqlite

import (
	"sync"
	"time"

	"github.com/runsvc/runsvc/internal/store"
)

// runCacheSize bounds how many Runs' rows the cache holds.
const runCacheSize = 16384

// runCache keeps Runs' rows in memory so that GetRun needs no query. This
// process is the only writer of the file, so every committed write updates
// the cache in the writer goroutine, in commit order. A read that missed
// fills the cache only if no write committed while it read.
type runCache struct {
	mu    sync.RWMutex
	runs  map[string]store.Run
	epoch uint64
}

func newRunCache() *runCache { return &runCache{runs: make(map[string]store.Run)} }

func cacheKey(tenant, runID string) string { return tenant + "\x00" + runID }

func (c *runCache) get(tenant, runID string) (store.Run, bool, uint64) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	r, ok := c.runs[cacheKey(tenant, runID)]
	return r, ok, c.epoch
}

// put stores a row a write just committed.
func (c *runCache) put(r store.Run) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.epoch++
	c.store(r)
}

// fill stores a row read at epoch, unless a write committed since.
func (c *runCache) fill(r store.Run, epoch uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.epoch == epoch {
		c.store(r)
	}
}

func (c *runCache) store(r store.Run) {
	// Rows read back from the file carry UTC times without a monotonic
	// reading; cached rows must look the same.
	for _, t := range []*time.Time{&r.CreateTime, &r.UpdateTime, &r.LeaseExpires, &r.Index.WakeAt} {
		if !t.IsZero() {
			*t = t.UTC().Round(0)
		}
	}
	key := cacheKey(r.Tenant, r.RunID)
	if _, ok := c.runs[key]; !ok && len(c.runs) >= runCacheSize {
		for k := range c.runs { // evict an arbitrary eighth
			delete(c.runs, k)
			if len(c.runs) <= runCacheSize*7/8 {
				break
			}
		}
	}
	c.runs[key] = r
}

// update changes a cached row after a write committed; a row not cached
// stays uncached.
func (c *runCache) update(tenant, runID string, change func(*store.Run)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.epoch++
	key := cacheKey(tenant, runID)
	if r, ok := c.runs[key]; ok {
		change(&r)
		c.store(r)
	}
}

// drop forgets a row after a write that changed it in a way the cache does
// not follow.
func (c *runCache) drop(tenant, runID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.epoch++
	delete(c.runs, cacheKey(tenant, runID))
}
