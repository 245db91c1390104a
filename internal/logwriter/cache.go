package logwriter

import (
	"sync"

	"github.com/runsvc/runsvc/internal/runlog"
)

// stateCacheSize bounds how many folded Runs a Writer keeps.
const stateCacheSize = 1024

// states keeps the folded State of Runs whose log was written recently, so
// that the next write reads only the Records since instead of folding the
// whole log again. A State is taken out while it is used, so two writers
// never share one; only States that match the stored log exactly (no
// Record folded but not stored) are put back.
type states struct {
	mu sync.Mutex
	m  map[string]*runlog.State
}

func (c *states) take(tenant, runID string) *runlog.State {
	c.mu.Lock()
	defer c.mu.Unlock()
	key := tenant + "/" + runID
	st := c.m[key]
	delete(c.m, key)
	return st
}

func (c *states) put(tenant string, st *runlog.State) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= stateCacheSize {
		c.m = make(map[string]*runlog.State, 64)
	}
	c.m[tenant+"/"+st.RunID] = st
}
