package cli

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"

	edpb "google.golang.org/genproto/googleapis/rpc/errdetails"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// outputClip bounds how much of a tool's output or an input the live view
// shows.
const outputClip = 300

// view renders a Run's records for a person as they arrive.
type view struct {
	a       *app
	runID   string
	initial *runsvcv1.Run // the Run when the watch began
	// calls are the tool calls the model issued, by id, for their
	// arguments when the Run suspends on them.
	calls map[string]*runsvcv1.ToolCall
	// starts are when the open model call ("model") and tool calls (by
	// id) started.
	starts map[string]*timestamppb.Timestamp
	// shownCurrent is true once the suspension the Run is in was shown
	// with the commands that answer it.
	shownCurrent bool
	// prog is the status line on a terminal; nil otherwise, and then a
	// line is printed when a call starts.
	prog *progress
	buf  bytes.Buffer
	// at is when the record being shown was written, for the timeline;
	// day is the date the timeline last showed.
	at  *timestamppb.Timestamp
	day string
	// abort is why the Run is being aborted, once the watch has seen the
	// request: it says why open tool calls closed without a result.
	abort runsvcv1.AbortCause
	// reasked is true once an answer failed the output schema: the next
	// such answer fails the Run.
	reasked bool
}

func (a *app) newView(runID string, initial *runsvcv1.Run) *view {
	v := &view{a: a, runID: runID, initial: initial, calls: map[string]*runsvcv1.ToolCall{}, starts: map[string]*timestamppb.Timestamp{}}
	if a.terminal {
		v.prog = newProgress(a.stdout, terminalWidth(a.stdout))
	}
	return v
}

func (v *view) close() {
	if v.prog != nil {
		v.prog.close()
	}
}

// printf buffers a line of output.
func (v *view) printf(format string, args ...any) {
	fmt.Fprintf(&v.buf, format, args...)
}

// flush writes what was buffered, above the status line if there is one.
func (v *view) flush() {
	if v.buf.Len() == 0 {
		return
	}
	out := v.stamped(v.buf.Bytes())
	if v.prog != nil {
		v.prog.write(out)
	} else {
		_, _ = v.a.stdout.Write(out)
	}
	v.buf.Reset()
	v.at = nil
}

// opened notes a call that started: a status line on a terminal, a plain
// line otherwise.
func (v *view) opened(key, label, plain string, at *timestamppb.Timestamp) {
	v.starts[key] = at
	if v.prog != nil {
		v.prog.start(key, label, at.AsTime())
		return
	}
	v.printf("  %s\n", plain)
}

// closed notes a call that ended and returns " after 1.2s", or "" when its
// start was not seen.
func (v *view) closed(key string, at *timestamppb.Timestamp) string {
	start, ok := v.starts[key]
	delete(v.starts, key)
	if v.prog != nil {
		v.prog.end(key)
	}
	if !ok {
		return ""
	}
	return " after " + between(start, at)
}

// record shows one record. live is true for records appended after the
// watch began.
func (v *view) record(ctx context.Context, rec *runsvcv1.Record, live bool) {
	defer v.flush()
	if v.prog != nil {
		v.prog.end("backoff")
	}
	at := rec.GetTime()
	v.at = at
	switch b := rec.GetBody().(type) {
	case *runsvcv1.Record_Admitted_:
		v.admitted(b.Admitted)
	case *runsvcv1.Record_AttemptStarted_:
		v.printf("attempt %d started on worker %s\n", b.AttemptStarted.GetAttempt(), b.AttemptStarted.GetWorkerId())
	case *runsvcv1.Record_TurnStarted_:
		v.printf("turn %d\n", b.TurnStarted.GetTurn())
	case *runsvcv1.Record_ModelCallStarted_:
		v.opened("model", fmt.Sprintf("waiting for the model (turn %d)", b.ModelCallStarted.GetTurn()), "model call started", at)
	case *runsvcv1.Record_ModelCallFinished_:
		v.modelFinished(b.ModelCallFinished, at)
	case *runsvcv1.Record_ModelCallFailed_:
		f := b.ModelCallFailed
		v.printf("  model call failed%s: %s %s\n", v.closed("model", at), f.GetFailure().GetMessage(), statusTag(f.GetFailure()))
		if f.GetWillRetry() {
			v.retrying("the model call", f.GetRetryAfter().AsDuration(), at)
		}
	case *runsvcv1.Record_ToolCallStarted_:
		c := b.ToolCallStarted
		name := fmt.Sprintf("%s [%s]", c.GetName(), c.GetCallId())
		v.opened(c.GetCallId(), "running "+name, "tool "+name+" started", at)
	case *runsvcv1.Record_ToolCallFinished_:
		v.toolFinished(b.ToolCallFinished, at)
	case *runsvcv1.Record_ToolCallFailed_:
		c := b.ToolCallFailed
		name := fmt.Sprintf("%s [%s]", c.GetName(), c.GetCallId())
		v.printf("  tool %s failed%s: %s %s\n", name, v.closed(c.GetCallId(), at), c.GetError().GetMessage(), statusTag(c.GetError()))
		v.retrying(name, c.GetRetryAfter().AsDuration(), at)
	case *runsvcv1.Record_Suspended_:
		v.suspended(ctx, rec.GetSeq(), b.Suspended, live)
	case *runsvcv1.Record_Resumed_:
		v.resumed(b.Resumed)
	case *runsvcv1.Record_AbortRequested_:
		v.abortRequested(b.AbortRequested)
	case *runsvcv1.Record_MessageQueued_:
		mode := "steer"
		if b.MessageQueued.GetMode() == runsvcv1.MessageMode_MESSAGE_MODE_FOLLOW_UP {
			mode = "follow-up"
		}
		v.printf("message queued (%s): %s\n", mode, indent(clip(b.MessageQueued.GetText(), outputClip), "  "))
	case *runsvcv1.Record_MessageConsumed_:
		v.printf("  the model received %s\n", plural(len(b.MessageConsumed.GetQueuedSeqs()), "queued message", "queued messages"))
	case *runsvcv1.Record_DelegationStarted_:
		d := b.DelegationStarted
		v.printf("  delegated to spec %s as run %s (delegation %s): %s\n", d.GetSpec(), d.GetChildRunId(), d.GetDelegationId(), clip(d.GetTask(), outputClip))
	case *runsvcv1.Record_DelegationFinished_:
		v.delegationFinished(b.DelegationFinished)
	case *runsvcv1.Record_Settled_:
		v.settled(b.Settled.GetState(), b.Settled.GetAbortCause(), b.Settled.GetAnswer(), b.Settled.GetFailure())
	case *runsvcv1.Record_HistoryCompacted_:
		v.historyCompacted(b.HistoryCompacted)
	case *runsvcv1.Record_A2ATask_:
		a := b.A2ATask
		v.printf("  remote A2A task %s (call %s, %s)\n", a.GetTaskId(), a.GetCallId(), plural(int(a.GetReplies()), "reply", "replies"))
		if a.GetQuestion() != "" {
			v.printf("  it asks: %s\n", clip(a.GetQuestion(), outputClip))
		}
	default:
		v.printf("record %d of an unknown kind\n", rec.GetSeq())
	}
}

// historyCompacted says why the conversation was summarised and what the
// summary stands for.
func (v *view) historyCompacted(h *runsvcv1.Record_HistoryCompacted) {
	why := "did not fit the model's context"
	if h.GetAfterRefusal() {
		why = "was refused as too long"
	}
	v.printf("  history compacted: turn %d's model request %s, so a summary now stands for turns 1-%d (%s)\n",
		h.GetTurn(), why, h.GetThroughTurn(), plural(int(h.GetMessages()), "message", "messages"))
}

// admitted shows the Run's spec, its parent if it was delegated, its
// input and its deadline.
func (v *view) admitted(r *runsvcv1.Record_Admitted) {
	v.printf("run %s of spec %s (version %s)\n", v.runID, r.GetSpec(), r.GetVersion())
	if r.GetParentRunId() != "" {
		v.printf("  delegated by run %s (delegation %s, depth %d)\n", r.GetParentRunId(), r.GetDelegationId(), r.GetDepth())
	}
	v.printf("  input: %s\n", indent(orNone(clip(r.GetInput(), outputClip)), "         "))
	v.printf("  deadline: %s\n", when(r.GetDeadlineTime()))
}

// abortRequested says why the Run is being aborted.
func (v *view) abortRequested(r *runsvcv1.Record_AbortRequested) {
	v.abort = r.GetCause()
	if r.GetCause() == runsvcv1.AbortCause_ABORT_CAUSE_DEADLINE {
		v.printf("the run passed its deadline; aborting\n")
	} else if r.GetReason() != "" {
		v.printf("interrupt requested: %s\n", r.GetReason())
	} else {
		v.printf("interrupt requested\n")
	}
}

// delegationFinished shows how a child Run ended: its answer or failure.
func (v *view) delegationFinished(d *runsvcv1.Record_DelegationFinished) {
	v.printf("  delegation %s (run %s) %s", d.GetDelegationId(), d.GetChildRunId(), stateName(d.GetState()))
	switch {
	case d.GetState() == runsvcv1.RunState_RUN_STATE_COMPLETED:
		v.printf(": %s\n", indent(clip(d.GetAnswer(), outputClip), "    "))
	case d.GetFailure() != nil:
		v.printf(": %s %s\n", d.GetFailure().GetMessage(), statusTag(d.GetFailure()))
	default:
		v.printf("\n")
	}
}

func (v *view) modelFinished(f *runsvcv1.Record_ModelCallFinished, at *timestamppb.Timestamp) {
	line := "  model answered" + v.closed("model", at)
	if in, out := f.GetInputTokens(), f.GetOutputTokens(); in+out > 0 {
		line += fmt.Sprintf(" (%d tokens in, %d out)", in, out)
	}
	v.printf("%s\n", line)
	if t := strings.TrimSpace(f.GetText()); t != "" {
		v.printf("  model: %s\n", indent(t, "         "))
	}
	for _, c := range f.GetToolCalls() {
		v.calls[c.GetCallId()] = c
		v.printf("  calls %s [%s] %s\n", c.GetName(), c.GetCallId(), compactJSON(c.GetArguments()))
	}
	v.outputViolations(f.GetOutputViolations())
}

// outputViolations says why the next turn re-asks the model: its answer
// failed the Spec's output schema. The first such answer is asked for
// again; the next fails the Run.
func (v *view) outputViolations(vs []*edpb.BadRequest_FieldViolation) {
	if len(vs) == 0 {
		return
	}
	var why []string
	for _, fv := range vs {
		why = append(why, fv.GetField()+": "+fv.GetDescription())
	}
	then := "the model is asked again with these"
	if v.reasked {
		then = "the Run fails OUTPUT_INVALID"
	}
	v.reasked = true
	v.printf("  the answer does not match the Spec's output schema (%s); %s\n", clip(strings.Join(why, "; "), outputClip), then)
}

func (v *view) toolFinished(f *runsvcv1.Record_ToolCallFinished, at *timestamppb.Timestamp) {
	name := fmt.Sprintf("%s [%s]", f.GetName(), f.GetCallId())
	took := v.closed(f.GetCallId(), at)
	switch {
	case f.GetOrphaned():
		v.printf("  tool %s closed without a result: %s\n", name, v.orphanedWhy(f))
	case f.GetInDoubt():
		v.printf("  tool %s IN DOUBT, not made again: %s %s\n", name, f.GetError().GetMessage(), statusTag(f.GetError()))
	case f.GetError() != nil:
		v.printf("  tool %s failed%s: %s %s\n", name, took, f.GetError().GetMessage(), statusTag(f.GetError()))
	default:
		v.printf("  tool %s returned%s: %s\n", name, took, clip(compactJSON(f.GetOutput()), outputClip))
	}
}

// orphanedWhy says why a tool call closed without a result: the Run was
// interrupted, it passed its deadline, or (a watch that did not see the
// abort request) what the Record says.
func (v *view) orphanedWhy(f *runsvcv1.Record_ToolCallFinished) string {
	switch v.abort {
	case runsvcv1.AbortCause_ABORT_CAUSE_INTERRUPTED:
		return "the run was interrupted before it answered"
	case runsvcv1.AbortCause_ABORT_CAUSE_DEADLINE:
		return "the run passed its deadline before it answered"
	}
	if msg := f.GetError().GetMessage(); msg != "" {
		return "orphaned (" + msg + ")"
	}
	return "orphaned: the run ended before it answered"
}

// retrying says a failed call will be tried again, and shows the wait on
// the status line.
func (v *view) retrying(what string, after time.Duration, at *timestamppb.Timestamp) {
	v.printf("  retrying %s in %s\n", what, shortDuration(after))
	if v.prog != nil {
		v.prog.start("backoff", "waiting to retry "+what, at.AsTime())
	}
}

func (v *view) suspended(ctx context.Context, seq int64, s *runsvcv1.Record_Suspended, live bool) {
	sus := suspensionOfRecord(s, v.calls)
	cur := v.initial.GetSuspension()
	current := live || (v.initial.GetState() == runsvcv1.RunState_RUN_STATE_SUSPENDED &&
		s.GetReason() == cur.GetReason() && proto.Equal(s.GetExpireTime(), cur.GetExpireTime()))
	if current && !sus.complete() {
		if !live {
			sus = suspensionOfRun(cur)
		} else if r, err := v.a.getRun(ctx, v.runID); err == nil && r.GetState() == runsvcv1.RunState_RUN_STATE_SUSPENDED {
			sus = suspensionOfRun(r.GetSuspension())
		}
	}
	v.a.printSuspension(&v.buf, "", v.runID, sus, current)
	v.shownCurrent = v.shownCurrent || current
}

// currentSuspension shows the suspension the Run was in when the watch
// began, if its record was not shown.
func (v *view) currentSuspension() {
	defer v.flush()
	if !v.shownCurrent {
		v.a.printSuspension(&v.buf, "", v.runID, suspensionOfRun(v.initial.GetSuspension()), true)
		v.shownCurrent = true
	}
}

func (v *view) resumed(r *runsvcv1.Record_Resumed) {
	switch r.GetReason() {
	case runsvcv1.SuspensionReason_SUSPENSION_REASON_TOOL_RESULTS:
		v.printf("resumed with %s\n", plural(len(r.GetToolResults()), "tool result", "tool results"))
		for _, tr := range r.GetToolResults() {
			if e := tr.GetError(); e != nil {
				retry := "not retryable"
				if e.GetRetryable() {
					retry = "retryable"
				}
				v.printf("  error for %s: %s (%s)\n", tr.GetCallId(), e.GetMessage(), retry)
			} else {
				v.printf("  result for %s: %s\n", tr.GetCallId(), clip(compactJSON(tr.GetOutput()), outputClip))
			}
		}
	case runsvcv1.SuspensionReason_SUSPENSION_REASON_QUESTION:
		v.printf("resumed with the answer: %s\n", indent(clip(r.GetAnswer(), outputClip), "  "))
	case runsvcv1.SuspensionReason_SUSPENSION_REASON_APPROVAL:
		switch d := r.GetInDoubt(); {
		case d != nil:
			v.printf("resumed: the call in doubt %s\n", map[runsvcv1.InDoubtOutcome]string{
				runsvcv1.InDoubtOutcome_IN_DOUBT_OUTCOME_HAPPENED:       "happened",
				runsvcv1.InDoubtOutcome_IN_DOUBT_OUTCOME_DID_NOT_HAPPEN: "did not happen; making it now",
				runsvcv1.InDoubtOutcome_IN_DOUBT_OUTCOME_SKIP:           "is skipped",
			}[d.GetOutcome()])
		case r.GetApproved():
			v.printf("resumed: approved\n")
		case r.GetNote() != "":
			v.printf("resumed: denied: %s\n", r.GetNote())
		default:
			v.printf("resumed: denied\n")
		}
	case runsvcv1.SuspensionReason_SUSPENSION_REASON_CHILDREN:
		v.printf("resumed: the delegated runs settled\n")
	case runsvcv1.SuspensionReason_SUSPENSION_REASON_TIMER:
		if r.GetEarly() {
			v.printf("woke: woken early\n")
		} else {
			v.printf("woke: the timer fired\n")
		}
	default:
		v.printf("resumed\n")
	}
}

// settled shows how the Run ended, from its Settled record or, when the
// watch began after it, from the Run.
func (v *view) settled(state runsvcv1.RunState, cause runsvcv1.AbortCause, answer string, failure *spb.Status) {
	defer v.flush()
	if v.at == nil {
		v.at = v.initial.GetSettleTime()
	}
	switch state {
	case runsvcv1.RunState_RUN_STATE_COMPLETED:
		if a := strings.TrimRight(answer, "\n"); strings.Contains(a, "\n") {
			v.printf("completed:\n  %s\n", indent(a, "  "))
		} else {
			v.printf("completed: %s\n", a)
		}
		return
	case runsvcv1.RunState_RUN_STATE_ABORTED:
		v.printf("aborted: %s", abortText(cause))
	default:
		v.printf("%s", strings.ToLower(stateName(state)))
	}
	if failure != nil {
		sep := ": "
		if state == runsvcv1.RunState_RUN_STATE_ABORTED {
			sep = "; "
		}
		v.printf("%s%s %s", sep, failure.GetMessage(), statusTag(failure))
	}
	v.printf("\n")
}
