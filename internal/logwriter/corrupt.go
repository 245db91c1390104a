package logwriter

import (
	"context"
	"errors"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
)

// FailCorrupt fails the Run of a corrupt log: its index reads FAILED with
// the corruption as its failure, it is no longer claimable nor woken, and
// nothing is appended (no Record may follow a corrupt one, and nothing
// repairs a log). st is the log folded as far as it folds; the caller
// keeps it. A Run already failed this way is left alone. It is best
// effort: a Run it could not mark is marked by the next reader to fold
// its log.
func (w *Writer) FailCorrupt(ctx context.Context, tenant string, st *runlog.State, c *errs.CorruptLog) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	failure := errs.Store(c, "")
	view := st.Clone()
	view.Status, view.AbortCause, view.Answer, view.Failure = runlog.StatusFailed, "", "", &failure
	view.SettleTime = w.clock.Now().UTC()
	view.Suspension, view.Abort, view.Open = nil, nil, nil
	for range 3 {
		run, err := w.store.GetRun(ctx, tenant, c.RunID)
		if err != nil {
			w.log.Warn("failing a run with a corrupt log", "runId", c.RunID, "err", err)
			return
		}
		if run.Index.State == string(runlog.StatusFailed) && !run.Index.Runnable && run.Index.WakeAt.IsZero() && failedCorrupt(run.Index.Summary) {
			return
		}
		err = w.store.SetIndex(ctx, tenant, c.RunID, run.LastSeq, Index(view), view.SettleTime)
		var conflict *errs.SeqConflict
		if errors.As(err, &conflict) {
			continue // the log grew (and is still corrupt): mark what it is now
		}
		if err != nil {
			w.log.Warn("failing a run with a corrupt log", "runId", c.RunID, "err", err)
			return
		}
		w.log.Error("run log is corrupt; the run failed", "runId", c.RunID, "seq", c.Seq, "corruption", c.Reason, "detail", c.Detail)
		if w.settled != nil && view.Admission != nil {
			w.settled(ctx, view)
		}
		return
	}
}

// failedCorrupt reports whether an index summary carries a LOG_CORRUPT
// failure.
func failedCorrupt(summary []byte) bool {
	var s Summary
	if decodeSummary(summary, &s) != nil || s.Failure == nil {
		return false
	}
	return errors.Is(s.Failure.Err(), &errs.CorruptLog{})
}
