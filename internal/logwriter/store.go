package logwriter

import (
	"context"
	"time"

	"github.com/runsvc/runsvc/internal/store"
)

// Store is what a Writer asks of the store: to append to a Run's log with
// its index, to read the log and the Run's row back, and to set the index
// of a Run whose log no Record may follow (a corrupt one).
type Store interface {
	// Append, ReadLog, GetRun and SetIndex are store.Runs'.
	Append(ctx context.Context, a store.Append) error
	ReadLog(ctx context.Context, tenant, runID string, from int64, limit int) ([]store.Record, error)
	GetRun(ctx context.Context, tenant, runID string) (store.Run, error)
	SetIndex(ctx context.Context, tenant, runID string, lastSeq int64, idx store.Index, now time.Time) error
}
