package runs

import (
	"context"
	"encoding/json"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/logwriter"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/store"
)

// MaxReportDepth bounds how many levels of children a report includes.
const MaxReportDepth = 8

// Report is a Run's outcome as data.
type Report struct {
	Run       Run
	Finished  bool
	ToolCalls []ToolCallReport
	Children  []Report
	Duration  time.Duration
	Records   int64
	// Corruption is set when the log does not fold.
	Corruption *errs.CorruptLog
}

// ToolCallReport is one tool call and its outcome.
type ToolCallReport struct {
	Call   runlog.ToolCall
	Turn   int
	Output json.RawMessage
	Error  *errs.Stored
	// InDoubt marks an at-most-once call closed as in doubt.
	InDoubt bool
}

// Report builds a Run's report, with its children to childDepth levels.
func (m *Manager) Report(ctx context.Context, tenant, runID string, childDepth int) (Report, error) {
	if childDepth < 0 || childDepth > MaxReportDepth {
		return Report{}, errs.BadField("child_depth", "must be between 0 and %d", MaxReportDepth)
	}
	_, recs, err := m.writer.Load(ctx, tenant, runID)
	corrupt, isCorrupt := err.(*errs.CorruptLog)
	if err != nil && !isCorrupt {
		return Report{}, err
	}
	if isCorrupt {
		// The Records as far as they fold; the Run failed when Load met
		// the corruption, so it is read after.
		stored, err := m.store.ReadLog(ctx, tenant, runID, 1, 0)
		if err != nil {
			return Report{}, err
		}
		recs, _ = logwriter.FromStore(runID, stored)
		recs = recs[:min(len(recs), int(corrupt.Seq-1))]
	}
	run, err := m.Get(ctx, tenant, runID)
	if err != nil {
		return Report{}, err
	}
	rep := Report{Run: run, Finished: run.Status == runlog.StatusCompleted, Records: run.LastSeq, Corruption: corrupt}
	end := m.clock.Now()
	if run.Settled() {
		end = run.SettleTime
	}
	rep.Duration = end.Sub(run.CreateTime)
	byID := map[string]int{}
	for _, r := range recs {
		switch op := r.Op.(type) {
		case *runlog.ModelCallFinished:
			for _, c := range op.ToolCalls {
				byID[c.ID] = len(rep.ToolCalls)
				rep.ToolCalls = append(rep.ToolCalls, ToolCallReport{Call: c, Turn: op.Turn})
			}
		case *runlog.ToolCallFinished:
			if i, ok := byID[op.CallID]; ok {
				rep.ToolCalls[i].Output, rep.ToolCalls[i].Error = op.Output, op.Error
				rep.ToolCalls[i].InDoubt = op.InDoubt
			}
		}
	}
	if childDepth > 0 {
		token := ""
		for {
			children, next, err := m.store.ListRuns(ctx, tenant, store.RunQuery{ParentRunID: runID, PageSize: 500, PageToken: token})
			if err != nil {
				return Report{}, err
			}
			for i := len(children) - 1; i >= 0; i-- {
				child, err := m.Report(ctx, tenant, children[i].RunID, childDepth-1)
				if isRunNotFound(err) {
					continue // deleted since it was listed
				}
				if err != nil {
					return Report{}, err
				}
				rep.Children = append(rep.Children, child)
			}
			if next == "" {
				break
			}
			token = next
		}
	}
	return rep, nil
}
