package engine

import (
	"context"
	"errors"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/store"
)

// threadHistory returns the conversation of the Runs a Run continues on its
// thread, oldest first: each one's transcript without the tool calls it
// left unanswered. A continued Run that was deleted (DeleteRun on one Run
// of an idle thread) is where the history starts: the Runs before it are
// no longer part of it. What it reads does not grow with the thread
// (historyReader): the thread's row, then this process's cache, or the
// continued Run's log, or the thread's stored history in one query.
func (a *attempt) threadHistory(ctx context.Context) ([]runlog.Message, error) {
	row, err := a.runRow(ctx)
	if err != nil || row.ContinuesRunID == "" {
		return nil, err
	}
	// The thread's deletions are read before any history: a Run deleted
	// after this read makes what is read now unreachable in the cache.
	th, _, err := a.e.Store.GetThread(ctx, a.lease.Tenant, row.ThreadID)
	if err != nil {
		return nil, err
	}
	h := historyReader{e: a.e, tenant: a.lease.Tenant, threadID: row.ThreadID, deletions: th.Deletions}
	return h.through(ctx, row.ContinuesRunID)
}

// deletedRun reports whether err says a continued Run no longer exists.
func deletedRun(err error) bool {
	var nf *errs.RunNotFound
	return errors.As(err, &nf)
}

// answered drops the tool calls of an earlier Run that never got a result
// (it was interrupted mid-call), so a provider does not refuse the request
// for a call without its answer.
func answered(transcript []runlog.Message) []runlog.Message {
	results := map[string]bool{}
	for _, m := range transcript {
		if m.Role == runlog.RoleTool {
			results[m.CallID] = true
		}
	}
	out := make([]runlog.Message, 0, len(transcript))
	for _, m := range transcript {
		if m.Role == runlog.RoleAssistant && len(m.ToolCalls) > 0 {
			complete := true
			for _, c := range m.ToolCalls {
				complete = complete && results[c.ID]
			}
			if !complete {
				m.ToolCalls = nil
				if m.Text == "" {
					continue
				}
			}
		}
		out = append(out, m)
	}
	return out
}

// modelMessages converts transcript messages to the model's.
func modelMessages(transcript []runlog.Message) []model.Message {
	out := make([]model.Message, 0, len(transcript))
	for _, m := range transcript {
		// The provider gets its own ids back, whatever runsvc calls them.
		msg := model.Message{Role: m.Role, Text: m.Text, CallID: m.CallID, Name: m.Name}
		if m.ProviderCallID != "" {
			msg.CallID = m.ProviderCallID
		}
		for _, c := range m.ToolCalls {
			msg.ToolCalls = append(msg.ToolCalls, model.ToolCall{ID: c.ProviderCallID(), Name: c.Name, Arguments: c.Arguments})
		}
		out = append(out, msg)
	}
	return out
}

// runRow returns the Run's row: as admitted, when this process just
// admitted it, else read.
func (a *attempt) runRow(ctx context.Context) (store.Run, error) {
	if adm := a.admission; adm != nil {
		return adm.Row, nil
	}
	return a.e.Store.GetRun(ctx, a.lease.Tenant, a.lease.RunID)
}
