// Package waiting keeps what this process's Runs wait on right now while
// they make no progress, such as a model call held by the provider rate
// limiter: a live signal for GetRun, never durable (a Run's durable waits,
// such as a concurrency slot, are read from the store).
package waiting

import (
	"sync"
	"time"
)

// Wait is what a Run waits on and since when.
type Wait struct {
	What  string
	Since time.Time
}

// Board holds the waits of this process's Runs. A nil *Board holds
// nothing and ignores what it is told.
type Board struct {
	mu    sync.Mutex
	waits map[string]Wait
}

// New returns an empty Board.
func New() *Board { return &Board{waits: map[string]Wait{}} }

func key(tenant, runID string) string { return tenant + "\x00" + runID }

// Set records that a Run waits on what since since; an empty what clears
// it.
func (b *Board) Set(tenant, runID, what string, since time.Time) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if what == "" {
		delete(b.waits, key(tenant, runID))
		return
	}
	b.waits[key(tenant, runID)] = Wait{What: what, Since: since}
}

// Get returns what a Run waits on, found false when nothing.
func (b *Board) Get(tenant, runID string) (Wait, bool) {
	if b == nil {
		return Wait{}, false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	w, ok := b.waits[key(tenant, runID)]
	return w, ok
}
