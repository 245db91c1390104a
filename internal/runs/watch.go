package runs

import (
	"context"

	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/store"
)

const watchBatch = 256

// Watch sends a Run's Records from seq from in order, none skipped, then
// new ones as they are appended, and returns nil after the Record that
// settles the Run. A slow receiver slows the watch; it never loses Records.
func (m *Manager) Watch(ctx context.Context, tenant, runID string, from int64, send func(runlog.Record) error) error {
	if _, err := m.Get(ctx, tenant, runID); err != nil {
		return err
	}
	sub := m.store.Notifier().Subscribe(store.RunTopic(tenant, runID))
	defer sub.Close()
	if from < 1 {
		from = 1
	}
	for {
		stored, err := m.store.ReadLog(ctx, tenant, runID, from, watchBatch)
		if err != nil {
			return err
		}
		recs, err := FromStore(runID, stored)
		if err != nil {
			return err
		}
		for _, r := range recs {
			if err := send(r); err != nil {
				return err
			}
			from = r.Seq + 1
			if _, settled := r.Op.(*runlog.Settled); settled {
				return nil
			}
		}
		if len(recs) == watchBatch {
			continue
		}
		if len(recs) == 0 {
			// Asked for records past the end of a settled log: there will be
			// none, so the watch is over.
			run, err := m.Get(ctx, tenant, runID)
			if err != nil {
				return err
			}
			if run.Settled() && from > run.LastSeq {
				return nil
			}
		}
		select {
		case <-sub.C():
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
