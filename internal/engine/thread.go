package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/store"
)

// maxThreadDepth bounds how many earlier Runs of a thread a Run's
// history is read from.
const maxThreadDepth = 10000

// threadHistory returns the conversation of the Runs a Run continues on its
// thread, oldest first, read from their logs: nothing is copied into the
// Run's own log, so the thread's history has one home. A continued Run
// that was deleted (DeleteRun on one Run of an idle thread) is where the
// history starts: the Runs before it are no longer part of it.
func (a *attempt) threadHistory(ctx context.Context) ([]runlog.Message, error) {
	row, err := a.runRow(ctx)
	if err != nil {
		return nil, err
	}
	var chain [][]runlog.Message
	for id := row.ContinuesRunID; id != ""; {
		if len(chain) == maxThreadDepth {
			return nil, fmt.Errorf("thread %s is more than %d Runs deep", row.ThreadID, maxThreadDepth)
		}
		prev, err := a.e.Store.GetRun(ctx, a.lease.Tenant, id)
		if deletedRun(err) {
			break
		}
		if err != nil {
			return nil, err
		}
		st, _, err := a.e.Writer.Load(ctx, a.lease.Tenant, id)
		if err != nil {
			return nil, err
		}
		if st.Seq == 0 {
			break // deleted between the two reads: its log is gone
		}
		chain = append(chain, st.Transcript)
		id = prev.ContinuesRunID
	}
	var out []runlog.Message
	for _, transcript := range slices.Backward(chain) {
		out = append(out, answered(transcript)...)
	}
	return out, nil
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
