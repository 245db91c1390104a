package runs

import (
	"context"
	"sync"

	"github.com/runsvc/runsvc/internal/runlog"
)

// stateCacheSize bounds how many folded Runs an outsider keeps.
const stateCacheSize = 1024

// states keeps the folded State of Runs outsiders wrote to recently, so
// the next outsider append reads only the Records since, instead of
// folding the whole log again. A State is taken out while it is used, so
// two writers never share one.
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

// current returns the Run's State: a remembered one brought up to date
// with the Records since, or a fold of the whole log.
func (m *Manager) current(ctx context.Context, tenant, runID string) (*runlog.State, error) {
	if st := m.states.take(tenant, runID); st != nil {
		stored, err := m.store.ReadLog(ctx, tenant, runID, st.Seq+1, 0)
		if err == nil {
			if recs, err := FromStore(runID, stored); err == nil && st.ApplyAll(recs) == nil {
				return st, nil
			}
		}
	}
	st, _, err := m.Load(ctx, tenant, runID)
	return st, err
}
