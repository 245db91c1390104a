package engine

import (
	"context"

	"github.com/runsvc/runsvc/internal/store"
)

// Store is what an Engine asks of the store itself (its Run logs it
// writes through the Writer): the leases it runs Runs under, a Run's row
// and log when it takes one over, a thread's compacted history, and the
// notifier that wakes it when a Run becomes runnable.
type Store interface {
	store.Leases
	// GetRun, ReadLog, GetThread, PutHistoryParts and HistoryParts are
	// store.Runs' and store.Threads'.
	GetRun(ctx context.Context, tenant, runID string) (store.Run, error)
	ReadLog(ctx context.Context, tenant, runID string, from int64, limit int) ([]store.Record, error)
	GetThread(ctx context.Context, tenant, threadID string) (store.Thread, bool, error)
	PutHistoryParts(ctx context.Context, parts []store.HistoryPart) error
	HistoryParts(ctx context.Context, tenant, threadID string, before int) ([]store.HistoryPart, error)
	// Notifier wakes the Engine when a Run becomes runnable.
	Notifier() store.Notifier
}
