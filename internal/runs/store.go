package runs

import (
	"context"

	"github.com/runsvc/runsvc/internal/store"
)

// Store is what a Manager asks of the store itself (it appends to logs
// through its Writer): creating Runs, finding, listing and reading them
// and their threads, deleting them, the Spec Version an export carries,
// and the notifier that wakes waiters and watchers.
type Store interface {
	store.Lifecycle
	// CreateRun, ReadLog, GetRun, GetRunByDelegation and ListRuns are
	// store.Runs'.
	CreateRun(ctx context.Context, r store.NewRun) (store.Run, bool, error)
	ReadLog(ctx context.Context, tenant, runID string, from int64, limit int) ([]store.Record, error)
	GetRun(ctx context.Context, tenant, runID string) (store.Run, error)
	GetRunByDelegation(ctx context.Context, tenant, delegationID string) (store.Run, error)
	ListRuns(ctx context.Context, tenant string, q store.RunQuery) ([]store.Run, string, error)
	// GetThread and ListThreads are store.Threads'.
	GetThread(ctx context.Context, tenant, threadID string) (store.Thread, bool, error)
	ListThreads(ctx context.Context, tenant string, q store.ThreadQuery) ([]store.Thread, string, error)
	// GetSpec is store.Specs'.
	GetSpec(ctx context.Context, tenant, name, version string) (store.Spec, error)
	// Notifier tells waiters and watchers that a Run changed or ended.
	Notifier() store.Notifier
}
