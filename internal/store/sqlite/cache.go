package sqlite

import (
	"sync"
	"time"

	"github.com/runsvc/runsvc/internal/store"
)

// runCacheSize bounds how many Runs' rows the cache holds, and
// recentRecords how many of each Run's newest Records.
const (
	runCacheSize  = 16384
	recentRecords = 32
)

// runCache keeps Runs' rows in memory so that GetRun needs no query. This
// process is the only writer of the file, so every committed write updates
// the cache in the writer goroutine, in commit order. A read that missed
// fills the cache only if no write committed while it read.
type runCache struct {
	mu    sync.RWMutex
	runs  map[runKey]store.Run
	epoch uint64
	// recent holds each cached Run's newest Records (consecutive, ending
	// at its LastSeq) for readers following the log. Only records reads
	// them, under the lock, and it copies them out.
	recent map[runKey][]store.Record
}

// runKey names a Run in the cache; a struct, so a lookup builds no string.
type runKey struct{ tenant, runID string }

func newRunCache() *runCache {
	return &runCache{runs: make(map[runKey]store.Run), recent: make(map[runKey][]store.Record)}
}

func cacheKey(tenant, runID string) runKey { return runKey{tenant, runID} }

func (c *runCache) get(tenant, runID string) (store.Run, bool, uint64) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	r, ok := c.runs[cacheKey(tenant, runID)]
	return r, ok, c.epoch
}

// put stores a row a write just committed, with the Records it created.
func (c *runCache) put(r store.Run, recs []store.Record) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.epoch++
	c.store(r)
	c.recent[cacheKey(r.Tenant, r.RunID)] = lastRecords(nil, recs)
}

// appended follows an append that committed: the row changes as change
// says and the Records join the recent ones.
func (c *runCache) appended(tenant, runID string, recs []store.Record, change func(*store.Run)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.epoch++
	key := cacheKey(tenant, runID)
	r, ok := c.runs[key]
	if !ok {
		return
	}
	change(&r)
	c.store(r)
	if old, ok := c.recent[key]; ok && len(old) > 0 && old[len(old)-1].Seq+1 == recs[0].Seq {
		c.recent[key] = lastRecords(old, recs)
	} else {
		delete(c.recent, key)
	}
}

// records returns a cached Run's Records from seq from (at most limit;
// limit <= 0 for all), when the recent ones reach back that far.
func (c *runCache) records(tenant, runID string, from int64, limit int) ([]store.Record, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	recent := c.recent[cacheKey(tenant, runID)]
	if len(recent) == 0 || from < recent[0].Seq || from > recent[len(recent)-1].Seq+1 {
		return nil, false
	}
	out := recent[from-recent[0].Seq:]
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return append([]store.Record(nil), out...), true
}

// lastRecords appends recs to old, in place while old has room (no
// reader holds it: records copies out under the lock), and keeps at most
// recentRecords: when they would not fit, it keeps the newest half in a
// new slice. Copying the whole window on every append cost 6% of the
// writer's CPU in BenchmarkAppend.
func lastRecords(old, recs []store.Record) []store.Record {
	if n := len(old) + len(recs); n > cap(old) {
		keep := old
		if n > recentRecords {
			keep = old[len(old)-min(len(old), max(0, recentRecords/2-len(recs))):]
		}
		grown := make([]store.Record, len(keep), min(recentRecords, max(2*cap(old), len(keep)+len(recs))))
		copy(grown, keep)
		old = grown
	}
	if over := len(recs) - recentRecords; over > 0 {
		recs = recs[over:]
	}
	for _, r := range recs {
		r.Time = r.Time.UTC().Round(0)
		old = append(old, r)
	}
	return old
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
	r.Index.Settled = false // written, never kept (store.Index.Settled)
	key := cacheKey(r.Tenant, r.RunID)
	if _, ok := c.runs[key]; !ok && len(c.runs) >= runCacheSize {
		for k := range c.runs { // evict an arbitrary eighth
			delete(c.runs, k)
			delete(c.recent, k)
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
	delete(c.recent, cacheKey(tenant, runID))
}
