package engine

import (
	"context"
	"errors"
	"fmt"
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

// summarised returns the messages the model gets for a transcript: the
// compaction's summary in place of the messages it covers, then the rest.
func summarised(st *runlog.State) (string, []runlog.Message) {
	c := st.Compaction
	if c == nil {
		return "", st.Transcript
	}
	return fmt.Sprintf(summaryPrefix, c.ThroughTurn) + c.Summary, st.Transcript[c.Messages:]
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

// compactCut returns how many transcript messages a new compaction would
// cover, 0 when there is nothing new to summarise: it keeps the newest
// assistant message and what follows it, and covers no more than the
// summarising model's window takes.
func compactCut(st *runlog.State, budget int) int {
	prev, prevSummary := 0, ""
	if c := st.Compaction; c != nil {
		prev, prevSummary = c.Messages, c.Summary
	}
	cut := 0
	for i := len(st.Transcript) - 1; i > prev; i-- {
		if st.Transcript[i].Role == runlog.RoleAssistant {
			cut = i
			break
		}
	}
	// Cover less while the summary request would not fit, down to one
	// group (a user or assistant message with its tool results).
	for cut > prev+1 && len(prevSummary)+len(render(st.Transcript[prev:cut])) > budget {
		i := cut - 1
		for i > prev+1 && st.Transcript[i].Role == runlog.RoleTool {
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
	cut := compactCut(st, budget)
	prev, prevSummary, through := 0, "", 0
	if c := st.Compaction; c != nil {
		prev, prevSummary = c.Messages, c.Summary
	}
	if cut <= prev {
		return false, nil
	}
	for _, msg := range st.Transcript[:cut] {
		if msg.Role == runlog.RoleAssistant {
			through++
		}
	}
	text := render(st.Transcript[prev:cut])
	if prevSummary != "" {
		text = "Summary so far:\n" + prevSummary + "\n\nThen:\n" + text
	}
	if len(text) > budget && budget > 0 {
		text = "[...] " + text[len(text)-budget:]
	}
	req := model.Request{RunID: st.RunID, Turn: turn, Attempt: 1, Model: m, Messages: []model.Message{
		{Role: model.RoleSystem, Text: compactionInstructions}, {Role: model.RoleUser, Text: text},
	}}
	resp, err := a.summarise(ctx, req)
	if err != nil {
		a.log.Warn("compaction failed; the request goes uncompacted", "turn", turn, "err", err)
		return false, nil
	}
	return true, a.append(ctx, false, &runlog.HistoryCompacted{
		Turn: turn, ThroughTurn: through, Messages: cut, Summary: resp.Text, AfterRefusal: afterRefusal,
		InputTokens: resp.Usage.InputTokens, OutputTokens: resp.Usage.OutputTokens,
	})
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
	if compactCut(st, int(window)) <= 0 || (st.Compaction != nil && compactCut(st, int(window)) <= st.Compaction.Messages) {
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
