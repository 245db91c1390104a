package runs

import (
	"context"

	"github.com/runsvc/runsvc/internal/logwriter"
	"github.com/runsvc/runsvc/internal/store"
)

// Store is what a Manager asks of the store: what its Writer of Run logs
// needs, creating Runs, finding, listing and reading them and their
// threads and concurrency keys, deleting them, the Spec Version an export carries, and the
// notifier that wakes waiters and watchers.
type Store interface {
	logwriter.Store
	store.Lifecycle
	// CreateRun, GetRunByDelegation and ListRuns are store.Runs'.
	CreateRun(ctx context.Context, r store.NewRun) (store.Run, bool, error)
	GetRunByDelegation(ctx context.Context, tenant, delegationID string) (store.Run, error)
	ListRuns(ctx context.Context, tenant string, q store.RunQuery) ([]store.Run, string, error)
	// GetThread and ListThreads are store.Threads'.
	GetThread(ctx context.Context, tenant, threadID string) (store.Thread, bool, error)
	ListThreads(ctx context.Context, tenant string, q store.ThreadQuery) ([]store.Thread, string, error)
	// KeyQueue is store.ConcurrencyKeys'.
	KeyQueue(ctx context.Context, tenant, key string) (store.KeyQueue, error)
	// GetSpec is store.Specs'.
	GetSpec(ctx context.Context, tenant, name, version string) (store.Spec, error)
	// Notifier tells waiters and watchers that a Run changed or ended.
	Notifier() store.Notifier
}
