package console

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// item is one Record as the timeline shows it.
type item struct {
	Seq     int64
	Time    string
	Attempt int32
	// Class is the kind of row, for styling and for tests: admitted,
	// attempt, turn, model, model-failed, tool, tool-failed, suspended,
	// resumed, message, abort, delegation, settled.
	Class   string
	Title   string
	Fields  []pair
	Blocks  []pair // label, preformatted text
	Failure *failureView
}

// timeline folds Records into rows, pairing starts with their ends to
// tell latencies, and naming each tool's kind from the Spec.
type timeline struct {
	kinds     map[string]string
	turnStart map[int32]time.Time
	callStart map[string]time.Time
	args      map[string]string
	items     []item
	// waited is true once the newest Attempt left the Run waiting (it
	// suspended it, or began on a Run still suspended and did not resume
	// it itself): a next Attempt is then a new claim, not a takeover of
	// one that died. It is runlog's AttemptWaited, so the console counts
	// what --max-attempts counts; runWaits is whether the Run waits now.
	waited, runWaits bool
	// takeovers counts the Attempts that followed one that died.
	takeovers int
}

func newTimeline(sp *runsvcv1.Spec) *timeline {
	t := &timeline{kinds: map[string]string{}, turnStart: map[int32]time.Time{}, callStart: map[string]time.Time{}, args: map[string]string{}}
	for _, tool := range sp.GetTools() {
		t.kinds[tool.GetName()] = strings.TrimPrefix(tool.GetKind().String(), "TOOL_KIND_")
	}
	return t
}

// kind is a tool's kind, BUILTIN for a tool the Spec does not declare.
func (t *timeline) kind(name string) string {
	if k, ok := t.kinds[name]; ok {
		return k
	}
	return "BUILTIN"
}

// jsonText is a message as compact JSON, for a <pre>.
func jsonText(m proto.Message) string {
	if m == nil {
		return ""
	}
	b, err := protojson.Marshal(m)
	if err != nil {
		return fmt.Sprintf("(unprintable: %v)", err)
	}
	return string(b)
}

// since is the time between a start and a Record, "—" without a start.
func since(start time.Time, ok bool, at *timestamppb.Timestamp) string {
	if !ok || at == nil {
		return "—"
	}
	return duration(at.AsTime().Sub(start))
}

func retryAfter(d *durationpb.Duration) string {
	if d == nil {
		return "—"
	}
	return duration(d.AsDuration())
}

// add folds one Record into the timeline.
func (t *timeline) add(r *runsvcv1.Record) {
	it := item{Seq: r.GetSeq(), Time: stamp(r.GetTime()), Attempt: r.GetAttempt()}
	t.waiting(r)
	switch b := r.GetBody().(type) {
	case *runsvcv1.Record_Admitted_:
		t.admitted(&it, b.Admitted)
	case *runsvcv1.Record_AttemptStarted_:
		it.Class, it.Title = "attempt", fmt.Sprintf("Attempt %d", b.AttemptStarted.GetAttempt())
		if b.AttemptStarted.GetAttempt() > 1 && !t.waited {
			it.Class, it.Title = "takeover", it.Title+" — takeover: the previous Attempt died while the Run was running"
			t.takeovers++
		}
		t.waited = t.runWaits
		it.Fields = []pair{{"worker", b.AttemptStarted.GetWorkerId()}}
	case *runsvcv1.Record_TurnStarted_:
		it.Class, it.Title = "turn", fmt.Sprintf("Turn %d", b.TurnStarted.GetTurn())
	case *runsvcv1.Record_ModelCallStarted_:
		t.turnStart[b.ModelCallStarted.GetTurn()] = r.GetTime().AsTime()
		it.Class, it.Title = "model-started", "Model call started"
		it.Fields = []pair{{"reserved tokens", fmt.Sprint(b.ModelCallStarted.GetReservedTokens())}}
	case *runsvcv1.Record_ModelCallFinished_:
		t.modelFinished(&it, r, b.ModelCallFinished)
	case *runsvcv1.Record_ModelCallFailed_:
		m := b.ModelCallFailed
		start, ok := t.turnStart[m.GetTurn()]
		it.Class, it.Title = "model-failed", fmt.Sprintf("Model call failed (turn %d)", m.GetTurn())
		it.Fields = []pair{{"latency", since(start, ok, r.GetTime())}, {"will retry", fmt.Sprint(m.GetWillRetry())}, {"retry after", retryAfter(m.GetRetryAfter())}}
		it.Failure = failureOf(m.GetFailure())
	case *runsvcv1.Record_ToolCallStarted_:
		t.callStart[b.ToolCallStarted.GetCallId()] = r.GetTime().AsTime()
		it.Class, it.Title = "tool-started", fmt.Sprintf("Tool call started: %s (%s)", b.ToolCallStarted.GetName(), t.kind(b.ToolCallStarted.GetName()))
		it.Fields = []pair{{"call", b.ToolCallStarted.GetCallId()}}
	case *runsvcv1.Record_ToolCallFinished_:
		t.toolFinished(&it, r, b.ToolCallFinished)
	case *runsvcv1.Record_ToolCallFailed_:
		f := b.ToolCallFailed
		it.Class, it.Title = "tool-failed", fmt.Sprintf("Tool call failed, will retry: %s (%s)", f.GetName(), t.kind(f.GetName()))
		it.Fields = []pair{{"call", f.GetCallId()}, {"retry after", retryAfter(f.GetRetryAfter())}}
		it.Failure = failureOf(f.GetError())
	default:
		t.other(&it, r)
	}
	t.items = append(t.items, it)
}

// waiting follows whether the Run waits, and whether the newest Attempt
// left it waiting, as runlog's fold does.
func (t *timeline) waiting(r *runsvcv1.Record) {
	switch r.GetBody().(type) {
	case *runsvcv1.Record_Suspended_:
		t.runWaits, t.waited = true, true
	case *runsvcv1.Record_Resumed_:
		t.runWaits = false
		if r.GetAttempt() != 0 {
			t.waited = false // the Attempt resumed the Run itself
		}
	}
}

func (t *timeline) admitted(it *item, a *runsvcv1.Record_Admitted) {
	it.Class, it.Title = "admitted", "Admitted"
	it.Fields = []pair{{"spec", a.GetSpec()}, {"version", a.GetVersion()}, {"deadline", stamp(a.GetDeadlineTime())}}
	if a.GetParentRunId() != "" {
		it.Fields = append(it.Fields, pair{"parent", a.GetParentRunId()})
	}
	if f := a.GetForkOf(); f != nil {
		it.Fields = append(it.Fields, pair{"forked from", fmt.Sprintf("%s before turn %d (seq %d)", f.GetRunId(), f.GetTurn(), f.GetSeq())})
	}
	it.Blocks = []pair{{"input", a.GetInput()}}
}

func (t *timeline) modelFinished(it *item, r *runsvcv1.Record, m *runsvcv1.Record_ModelCallFinished) {
	start, ok := t.turnStart[m.GetTurn()]
	cost := "unpriced"
	if m.GetPriced() {
		cost = fmt.Sprintf("$%.6f", m.GetCostUsd())
	}
	it.Class, it.Title = "model", fmt.Sprintf("Model call (turn %d)", m.GetTurn())
	it.Fields = []pair{{"latency", since(start, ok, r.GetTime())}, {"input tokens", fmt.Sprint(m.GetInputTokens())},
		{"output tokens", fmt.Sprint(m.GetOutputTokens())}, {"cost", cost}}
	if m.GetText() != "" {
		it.Blocks = append(it.Blocks, pair{"text", m.GetText()})
	}
	for _, call := range m.GetToolCalls() {
		args := jsonText(call.GetArguments())
		t.args[call.GetCallId()] = args
		it.Blocks = append(it.Blocks, pair{fmt.Sprintf("asks %s (%s), call %s", call.GetName(), t.kind(call.GetName()), call.GetCallId()), args})
	}
}

func (t *timeline) toolFinished(it *item, r *runsvcv1.Record, f *runsvcv1.Record_ToolCallFinished) {
	start, ok := t.callStart[f.GetCallId()]
	it.Class, it.Title = "tool", fmt.Sprintf("Tool call: %s (%s)", f.GetName(), t.kind(f.GetName()))
	it.Fields = []pair{{"call", f.GetCallId()}, {"latency", since(start, ok, r.GetTime())}}
	if f.GetOrphaned() {
		it.Fields = append(it.Fields, pair{"orphaned", "closed without a result after the deadline"})
	}
	if f.GetInDoubt() {
		it.Fields = append(it.Fields, pair{"in doubt", "started, but its result was never recorded"})
	}
	it.Blocks = []pair{{"arguments", t.args[f.GetCallId()]}}
	if f.GetError() != nil {
		it.Failure = failureOf(f.GetError())
	} else {
		it.Blocks = append(it.Blocks, pair{"result", jsonText(f.GetOutput())})
	}
}

// other folds the Records outsiders and the ending write.
func (t *timeline) other(it *item, r *runsvcv1.Record) {
	switch b := r.GetBody().(type) {
	case *runsvcv1.Record_Suspended_:
		t.suspended(it, b.Suspended)
	case *runsvcv1.Record_Resumed_:
		t.resumed(it, b.Resumed)
	case *runsvcv1.Record_AbortRequested_:
		it.Class, it.Title = "abort", "Stop requested: "+strings.TrimPrefix(b.AbortRequested.GetCause().String(), "ABORT_CAUSE_")
		it.Fields = []pair{{"reason", b.AbortRequested.GetReason()}}
	case *runsvcv1.Record_MessageQueued_:
		it.Class, it.Title = "message", "Message queued ("+strings.TrimPrefix(b.MessageQueued.GetMode().String(), "MESSAGE_MODE_")+")"
		it.Blocks = []pair{{"text", b.MessageQueued.GetText()}}
	case *runsvcv1.Record_HistoryCompacted_:
		c := b.HistoryCompacted
		it.Class, it.Title = "message", fmt.Sprintf("History compacted: turns 1 to %d summarised", c.GetThroughTurn())
		it.Fields = []pair{{"messages", fmt.Sprint(c.GetMessages())}, {"after refusal", fmt.Sprint(c.GetAfterRefusal())}}
		it.Blocks = []pair{{"summary", c.GetSummary()}}
	case *runsvcv1.Record_MessageConsumed_:
		it.Class, it.Title = "message", "Messages given to the model"
		it.Fields = []pair{{"queued seqs", fmt.Sprint(b.MessageConsumed.GetQueuedSeqs())}}
	case *runsvcv1.Record_DelegationStarted_:
		d := b.DelegationStarted
		it.Class, it.Title = "delegation", "Delegated to "+d.GetSpec()
		it.Fields = []pair{{"delegation", d.GetDelegationId()}, {"child run", d.GetChildRunId()}}
		it.Blocks = []pair{{"task", d.GetTask()}}
	case *runsvcv1.Record_DelegationFinished_:
		d := b.DelegationFinished
		it.Class, it.Title = "delegation", "Delegation settled: "+strings.TrimPrefix(d.GetState().String(), "RUN_STATE_")
		it.Fields = []pair{{"delegation", d.GetDelegationId()}, {"child run", d.GetChildRunId()}}
		if d.GetAnswer() != "" {
			it.Blocks = []pair{{"answer", d.GetAnswer()}}
		}
		it.Failure = failureOf(d.GetFailure())
	case *runsvcv1.Record_Settled_:
		s := b.Settled
		it.Class, it.Title = "settled", "Settled: "+strings.TrimPrefix(s.GetState().String(), "RUN_STATE_")
		if s.GetAbortCause() != runsvcv1.AbortCause_ABORT_CAUSE_UNSPECIFIED {
			it.Fields = []pair{{"abort cause", strings.TrimPrefix(s.GetAbortCause().String(), "ABORT_CAUSE_")}}
		}
		if s.GetAnswer() != "" {
			it.Blocks = []pair{{"answer", s.GetAnswer()}}
		}
		it.Failure = failureOf(s.GetFailure())
	case *runsvcv1.Record_A2ATask_:
		a := b.A2ATask
		it.Class, it.Title = "delegation", "Remote A2A task "+a.GetTaskId()
		it.Fields = []pair{{"call", a.GetCallId()}, {"context", a.GetContextId()}, {"replies", fmt.Sprint(a.GetReplies())}}
		if a.GetQuestion() != "" {
			it.Blocks = []pair{{"question", a.GetQuestion()}}
		}
	default:
		it.Class, it.Title = "unknown", "Record of a kind this console does not know"
	}
}

func (t *timeline) suspended(it *item, s *runsvcv1.Record_Suspended) {
	it.Class, it.Title = "suspended", "Suspended: waits for "+strings.TrimPrefix(s.GetReason().String(), "SUSPENSION_REASON_")
	it.Fields = []pair{{"until", stamp(s.GetExpireTime())}}
	if w := s.GetWakeTime(); w != nil {
		it.Fields = []pair{{"sleeping until", stamp(w)}}
	}
	if len(s.GetCallIds()) > 0 {
		it.Fields = append(it.Fields, pair{"calls", strings.Join(s.GetCallIds(), ", ")})
	}
	if s.GetCallId() != "" {
		it.Fields = append(it.Fields, pair{"call", s.GetCallId()})
	}
	if s.GetApprovalReason() != "" {
		it.Fields = append(it.Fields, pair{"why", s.GetApprovalReason()})
	}
	if len(s.GetDelegationIds()) > 0 {
		it.Fields = append(it.Fields, pair{"delegations", strings.Join(s.GetDelegationIds(), ", ")})
	}
	if s.GetQuestion() != "" {
		it.Blocks = []pair{{"question", s.GetQuestion()}}
	}
}

func (t *timeline) resumed(it *item, s *runsvcv1.Record_Resumed) {
	it.Class, it.Title = "resumed", "Resumed: "+strings.TrimPrefix(s.GetReason().String(), "SUSPENSION_REASON_")
	switch s.GetReason() {
	case runsvcv1.SuspensionReason_SUSPENSION_REASON_APPROVAL:
		it.Fields = []pair{{"approved", fmt.Sprint(s.GetApproved())}}
		if s.GetNote() != "" {
			it.Fields = append(it.Fields, pair{"note", s.GetNote()})
		}
	case runsvcv1.SuspensionReason_SUSPENSION_REASON_QUESTION:
		it.Blocks = []pair{{"answer", s.GetAnswer()}}
	}
	for _, res := range s.GetToolResults() {
		it.Blocks = append(it.Blocks, pair{"result for " + res.GetCallId(), jsonText(res)})
	}
}

// records reads a Run's log up to lastSeq through WatchRun.
func (c *Console) records(ctx context.Context, runID string, lastSeq int64) ([]*runsvcv1.Record, error) {
	if lastSeq <= 0 {
		return nil, nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := c.runs.WatchRun(ctx, &runsvcv1.WatchRunRequest{RunId: runID, FromSeq: 1})
	if err != nil {
		return nil, err
	}
	var out []*runsvcv1.Record
	for {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if rec := resp.GetRecord(); rec != nil {
			out = append(out, rec)
			if rec.GetSeq() >= lastSeq {
				return out, nil
			}
		}
	}
}

// runView is a Run's page.
type runView struct {
	Run      *runsvcv1.Run
	State    string
	Live     bool
	Failure  *failureView
	Items    []item
	Actions  actions
	Cost     string
	Duration string

	// Takeovers counts the Attempts that followed one that died.
	Takeovers int
}

// runPage is a Run's timeline.
//
// Its Server-Timing header says how long reading the Run took (the RPCs,
// "read") and the whole page until it was rendered ("page"), in ms.
func (c *Console) runPage(w http.ResponseWriter, r *http.Request, s *session) {
	start := time.Now()
	ctx, cancel := callCtx(r, s)
	defer cancel()
	v, err := c.runView(ctx, r.PathValue("id"), s)
	if err != nil {
		c.rpcError(w, r, s, err)
		return
	}
	read := time.Since(start)
	c.renderTimed(w, s, "run.html", "Run "+v.Run.GetRunId(), v, func() string {
		return fmt.Sprintf("read;dur=%.3f, page;dur=%.3f", ms(read), ms(time.Since(start)))
	})
}

// ms is d in milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// runView reads a Run, its Spec Version and its log.
func (c *Console) runView(ctx context.Context, id string, s *session) (*runView, error) {
	got, err := c.runs.GetRun(ctx, &runsvcv1.GetRunRequest{RunId: id})
	if err != nil {
		return nil, err
	}
	run := got.GetRun()
	sp, err := c.specs.GetSpec(ctx, &runsvcv1.GetSpecRequest{Name: run.GetSpec(), Version: run.GetVersion()})
	if err != nil {
		// The page still shows the log; tools' kinds are then unknown.
		sp = &runsvcv1.GetSpecResponse{}
	}
	recs, err := c.records(ctx, id, run.GetLastSeq())
	if err != nil {
		return nil, err
	}
	tl := newTimeline(sp.GetSpec())
	for _, rec := range recs {
		tl.add(rec)
	}
	v := &runView{Run: run, State: strings.TrimPrefix(run.GetState().String(), "RUN_STATE_"), Failure: failureOf(run.GetFailure()), Items: tl.items, Takeovers: tl.takeovers}
	v.Live = run.GetSettleTime() == nil
	v.Actions = actionsFor(run, s)
	v.Cost = costText(run.GetUsage())
	if run.GetSettleTime() != nil {
		v.Duration = duration(run.GetSettleTime().AsTime().Sub(run.GetCreateTime().AsTime()))
	}
	return v, nil
}

// costText is a Run's cost: "no pricing" when its model calls had no
// price (a Spec without pricing), else the priced calls' cost and how
// many calls had no price.
func costText(u *runsvcv1.Usage) string {
	unpriced := u.GetUnpricedCalls()
	if unpriced > 0 && u.GetCostUsd() == 0 {
		return "no pricing"
	}
	cost := fmt.Sprintf("$%.6f", u.GetCostUsd())
	if unpriced > 0 {
		cost += fmt.Sprintf(" + %d unpriced calls", unpriced)
	}
	return cost
}
