package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/secret"
	"github.com/runsvc/runsvc/internal/spec"
)

// compactionInstructions tell the summarising model what to do.
const compactionInstructions = "You compact a conversation between a user, an assistant and its tools. " +
	"Summarise it so the assistant can go on without it: keep every fact, decision, tool result and open question it still needs. " +
	"Answer with the summary only."

// summaryPrefix introduces the summary the model gets in place of the
// compacted messages.
const summaryPrefix = "Summary of the earlier conversation (turns 1 to %d were compacted):\n"

// tokenBound returns an upper bound of a request's input tokens, without
// the model's tokenizer: a byte-level BPE token covers at least one byte,
// so a text has at most as many tokens as bytes; each message adds the
// few tokens of its framing, each tool its definition's bytes.
func tokenBound(req model.Request) int64 {
	n := 3 + len(req.OutputSchema)
	for _, m := range req.Messages {
		n += 4 + len(m.Role) + len(m.Text) + len(m.Name) + len(m.CallID)
		for _, c := range m.ToolCalls {
			n += 4 + len(c.ID) + len(c.Name) + len(c.Arguments)
		}
	}
	for _, t := range req.Tools {
		n += 8 + len(t.Name) + len(t.Description) + len(t.Parameters)
	}
	return int64(n)
}

// summarised returns the messages the model gets for the thread history
// and the transcript: the compaction's summary in place of the messages it
// covers (history first, then transcript), then the rest in order.
func summarised(history []runlog.Message, st *runlog.State) []model.Message {
	c := st.Compaction
	if c == nil {
		return modelMessages(slices.Concat(history, st.Transcript))
	}
	h := min(c.HistoryMessages, len(history))
	var summary model.Message
	if c.HistoryMessages > 0 {
		summary = model.Message{Role: model.RoleUser, Text: fmt.Sprintf(threadSummaryPrefix, c.HistoryMessages, c.ThroughTurn) + c.Summary}
	} else {
		summary = model.Message{Role: model.RoleUser, Text: fmt.Sprintf(summaryPrefix, c.ThroughTurn) + c.Summary}
	}
	if c.Messages > 0 {
		// All the history is covered by then (or, in a log from before
		// history was compacted, none of it, which stays before the
		// summary as it was).
		return slices.Concat(modelMessages(history[h:]), []model.Message{summary}, modelMessages(st.Transcript[c.Messages:]))
	}
	return slices.Concat([]model.Message{summary}, modelMessages(history[h:]), modelMessages(st.Transcript))
}

// threadSummaryPrefix introduces a summary that covers thread history.
const threadSummaryPrefix = "Summary of the earlier conversation (%d messages of the thread's earlier Runs and turns 1 to %d of this Run were compacted):\n"

// covered returns the thread history and transcript as one sequence, and
// how many of its messages the newest compaction covers, with its summary.
func covered(history []runlog.Message, st *runlog.State) ([]runlog.Message, int, string) {
	all := slices.Concat(history, st.Transcript)
	c := st.Compaction
	if c == nil {
		return all, 0, ""
	}
	if c.Messages > 0 && c.HistoryMessages < len(history) {
		// A log from before history was compacted: its summary covers
		// transcript only and the history is not cut any more.
		return st.Transcript, c.Messages, c.Summary
	}
	return all, min(c.HistoryMessages, len(history)) + c.Messages, c.Summary
}

// compactionModel is the model that summarises and its context window.
func (a *attempt) compactionModel() (spec.Model, int64) {
	m := a.spec.Model
	if c := a.spec.Compaction; c != nil && c.Model != nil {
		m = *c.Model
	}
	window := m.Window()
	if window == 0 {
		window = a.spec.Model.Window()
	}
	return m, window
}

// overWindow reports whether req does not fit the Spec model's window and
// the Spec asks for compaction.
func (a *attempt) overWindow(req model.Request) bool {
	w := a.spec.Model.Window()
	return a.spec.Compaction != nil && w > 0 && tokenBound(req) > w
}

// compactCut returns how many messages of all (the thread history, then
// the transcript) a new compaction would cover, prev or less when there is
// nothing new to summarise: it keeps the newest assistant message and what
// follows it, and covers no more than the summarising model's window
// takes.
func compactCut(all []runlog.Message, prev int, prevSummary string, budget int) int {
	cut := 0
	for i := len(all) - 1; i > prev; i-- {
		if all[i].Role == runlog.RoleAssistant {
			cut = i
			break
		}
	}
	// Cover less while the summary request would not fit, down to one
	// group (a user or assistant message with its tool results).
	for cut > prev+1 && len(prevSummary)+len(render(all[prev:cut])) > budget {
		i := cut - 1
		for i > prev+1 && all[i].Role == runlog.RoleTool {
			i--
		}
		cut = i
	}
	return cut
}

// render writes messages as plain text for the summarising model.
func render(msgs []runlog.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		switch m.Role {
		case runlog.RoleTool:
			fmt.Fprintf(&b, "tool %s returned: %s\n", m.Name, m.Text)
		default:
			fmt.Fprintf(&b, "%s: %s\n", m.Role, m.Text)
			for _, c := range m.ToolCalls {
				fmt.Fprintf(&b, "%s called %s(%s)\n", m.Role, c.Name, c.Arguments)
			}
		}
	}
	return b.String()
}

// compact summarises the transcript's older messages with the compaction
// model and records it, reporting false when there was nothing to
// summarise (or the summary could not be made: the request then goes as
// it is, and the provider's answer decides).
func (a *attempt) compact(ctx context.Context, turn int, afterRefusal bool) (bool, error) {
	st := a.state
	m, window := a.compactionModel()
	budget := int(window) - len(compactionInstructions) - 64
	all, prev, prevSummary := covered(a.history, st)
	cut := compactCut(all, prev, prevSummary, budget)
	if cut <= prev {
		return false, nil
	}
	text := render(all[prev:cut])
	if prevSummary != "" {
		text = "Summary so far:\n" + prevSummary + "\n\nThen:\n" + text
	}
	if len(text) > budget && budget > 0 {
		text = "[...] " + text[len(text)-budget:]
	}
	req := model.Request{RunID: st.RunID, Turn: turn, Attempt: 1, Model: m, Messages: []model.Message{
		{Role: model.RoleSystem, Text: compactionInstructions}, {Role: model.RoleUser, Text: text},
	}}
	if a.w.Pending() {
		// A model call waits: what is folded goes first (AttemptStarted
		// among it, which counts the Attempt).
		if err := a.append(ctx, false); err != nil {
			return true, err
		}
	}
	resp, err := a.summarise(ctx, req)
	if err != nil {
		a.log.Warn("compaction failed; the request goes uncompacted", "turn", turn, "err", err)
		return false, nil
	}
	op := &runlog.HistoryCompacted{
		Turn: turn, Messages: cut, Summary: resp.Text, AfterRefusal: afterRefusal,
		InputTokens: resp.Usage.InputTokens, OutputTokens: resp.Usage.OutputTokens,
	}
	if len(all) > len(st.Transcript) { // history and transcript
		op.HistoryMessages, op.Messages = min(cut, len(a.history)), max(cut-len(a.history), 0)
	}
	for _, msg := range st.Transcript[:op.Messages] {
		if msg.Role == runlog.RoleAssistant {
			op.ThroughTurn++
		}
	}
	return true, a.append(ctx, false, op)
}

// summarise makes the compaction model's call.
func (a *attempt) summarise(ctx context.Context, req model.Request) (model.Response, error) {
	provider, ok := a.e.Models[req.Model.Provider]
	if !ok {
		return model.Response{}, errors.New("no model provider " + req.Model.Provider)
	}
	if name := req.Model.APIKeyCredential; name != "" {
		key, err := a.e.Secrets.Resolve(ctx, secret.Scope(a.state.Admission.Tenant, a.spec.Name), name)
		if err != nil {
			return model.Response{}, err
		}
		req.APIKey = key
	}
	callCtx, cancel := a.opContext(ctx, a.state.Admission.Deadline)
	defer cancel()
	return provider.Complete(callCtx, req)
}

// refusedTooLong handles a provider's context-length refusal: once a turn,
// it closes the failed call, compacts and reports true, so the turn is
// asked again.
func (a *attempt) refusedTooLong(ctx context.Context, turn int, err error) (bool, error) {
	var tooLong *model.ContextLengthExceeded
	st := a.state
	if !errors.As(err, &tooLong) || a.spec.Compaction == nil {
		return false, nil
	}
	if c := st.Compaction; c != nil && c.Turn == turn && c.AfterRefusal {
		return false, nil // compacted for this turn's refusal already
	}
	_, window := a.compactionModel()
	all, prev, prevSummary := covered(a.history, st)
	if compactCut(all, prev, prevSummary, int(window)) <= prev {
		return false, nil
	}
	a.log.Info("model refused the request as too long; compacting", "turn", turn)
	if err := a.append(ctx, false, &runlog.ModelCallFailed{Turn: turn, Failure: errs.Store(err, ""), WillRetry: true}); err != nil {
		return true, err
	}
	done, cerr := a.compact(ctx, turn, true)
	if cerr != nil || done {
		return true, cerr
	}
	return true, a.settle(ctx, runlog.StatusFailed, "", "", err)
}
