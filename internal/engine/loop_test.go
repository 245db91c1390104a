package engine_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/structpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

const clientSpec = `{"name": "weather", "instructions": "Answer briefly.",
 "model": {"provider": "scripted", "script": {"turns": [
   {"text": "Let me look.", "toolCalls": [{"name": "lookup", "arguments": {"q": "weather"}}, {"name": "lookup", "arguments": {"q": "wind"}}], "usage": {"inputTokens": 10, "outputTokens": 5}},
   {"text": "It is sunny and calm.", "usage": {"inputTokens": 20, "outputTokens": 6}}]}},
 "tools": [{"name": "lookup", "kind": "TOOL_KIND_CLIENT", "description": "Look things up"}]}`

// kinds lists the record kinds of a log, checking that seq is gapless.
func kinds(t *testing.T, recs []*runsvcv1.Record) []string {
	t.Helper()
	var out []string
	for i, r := range recs {
		if r.GetSeq() != int64(i+1) {
			t.Fatalf("record %d has seq %d: the log has a gap", i, r.GetSeq())
		}
		name := fmt.Sprintf("%T", r.GetBody())
		name = strings.TrimPrefix(name, "*runsvcv1.Record_")
		out = append(out, strings.TrimSuffix(name, "_"))
	}
	return out
}

func TestClientToolRoundTrip(t *testing.T) {
	srv := testserver.Start(t)
	srv.Publish(t, clientSpec)
	run := srv.Start(t, "weather", "What is the weather?")
	run = srv.Wait(t, run.GetRunId())
	if run.GetState() != runsvcv1.RunState_RUN_STATE_SUSPENDED {
		t.Fatalf("state %v, want SUSPENDED", run.GetState())
	}
	sus := run.GetSuspension()
	if sus.GetReason() != runsvcv1.SuspensionReason_SUSPENSION_REASON_TOOL_RESULTS || len(sus.GetToolCalls()) != 2 {
		t.Fatalf("suspension %v: want TOOL_RESULTS for both calls at once", sus)
	}
	if got := sus.GetToolCalls()[1].GetArguments().GetFields()["q"].GetStringValue(); got != "wind" {
		t.Errorf("second call's arguments: %v", sus.GetToolCalls()[1].GetArguments())
	}
	_, err := srv.Runs.ResumeRun(testserver.Context(t), &runsvcv1.ResumeRunRequest{RunId: run.GetRunId(), ToolResults: []*runsvcv1.ToolResult{
		{CallId: "call_1_1", Output: structpb.NewStringValue("sunny")},
		{CallId: "call_1_2", Error: &runsvcv1.ToolError{Message: "anemometer offline", Retryable: true}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	run = srv.Settled(t, run.GetRunId())
	if run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED || run.GetAnswer() != "It is sunny and calm." {
		t.Fatalf("settled %v with %q", run.GetState(), run.GetAnswer())
	}
	if u := run.GetUsage(); u.GetInputTokens() != 30 || u.GetOutputTokens() != 11 || u.GetModelCalls() != 2 || u.GetToolCalls() != 2 || u.GetUnpricedCalls() != 2 {
		t.Errorf("usage %v", u)
	}
	recs := srv.Records(t, run.GetRunId())
	want := "Admitted AttemptStarted TurnStarted ModelCallStarted ModelCallFinished Suspended Resumed AttemptStarted ToolCallStarted ToolCallFinished ToolCallStarted ToolCallFinished TurnStarted ModelCallStarted ModelCallFinished Settled"
	if got := strings.Join(kinds(t, recs), " "); got != want {
		t.Errorf("log:\n got %s\nwant %s", got, want)
	}
	failed := recs[11].GetToolCallFinished()
	if c := errdetails.ClassifyStatus(failed.GetError()); c.Reason != "TOOL_FAILED" || !c.Retryable {
		t.Errorf("the client's tool error is recorded as %+v, want TOOL_FAILED retryable", c)
	}
}

func TestResumeRefusals(t *testing.T) {
	srv := testserver.Start(t)
	srv.Publish(t, clientSpec)
	run := srv.Wait(t, srv.Start(t, "weather", "hi").GetRunId())
	id := run.GetRunId()
	approved := true
	cases := []struct {
		name   string
		req    *runsvcv1.ResumeRunRequest
		reason string
		field  string
	}{
		{name: "unknown call id", req: &runsvcv1.ResumeRunRequest{RunId: id, ToolResults: []*runsvcv1.ToolResult{{CallId: "call_1_1"}, {CallId: "call_1_2"}, {CallId: "call_9_9"}}}, reason: "INVALID_REQUEST", field: "tool_results[2].call_id"},
		{name: "a result missing", req: &runsvcv1.ResumeRunRequest{RunId: id, ToolResults: []*runsvcv1.ToolResult{{CallId: "call_1_1"}}}, reason: "INVALID_REQUEST", field: "tool_results"},
		{name: "the wrong kind of answer", req: &runsvcv1.ResumeRunRequest{RunId: id, Approved: &approved}, reason: "INVALID_REQUEST", field: "approved"},
		{name: "no run id", req: &runsvcv1.ResumeRunRequest{}, reason: "INVALID_REQUEST", field: "run_id"},
		{name: "unknown run", req: &runsvcv1.ResumeRunRequest{RunId: "run_nope", Answer: "x"}, reason: "RUN_NOT_FOUND"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := srv.Runs.ResumeRun(testserver.Context(t), tc.req)
			c := errdetails.Classify(err)
			if c.Reason != tc.reason {
				t.Fatalf("reason %s (%v), want %s", c.Reason, err, tc.reason)
			}
			if tc.field != "" && !strings.Contains(fmt.Sprint(errdetails.FromStatus(status.Convert(err))), tc.field) {
				t.Errorf("error %v does not name field %s", err, tc.field)
			}
		})
	}
	// The refusals changed nothing: the Run still waits.
	if got := srv.Wait(t, id).GetState(); got != runsvcv1.RunState_RUN_STATE_SUSPENDED {
		t.Fatalf("state after refused resumes: %v", got)
	}
}

func TestIdempotentStart(t *testing.T) {
	srv := testserver.Start(t)
	srv.Publish(t, clientSpec)
	ctx := testserver.Context(t)
	first, err := srv.Runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "weather", Input: "a", RequestId: "req-1"})
	if err != nil || !first.GetCreated() {
		t.Fatalf("first start: %v %v", first, err)
	}
	again, err := srv.Runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "weather", Input: "a", RequestId: "req-1"})
	if err != nil || again.GetCreated() || again.GetRun().GetRunId() != first.GetRun().GetRunId() {
		t.Fatalf("repeated start: %v %v", again, err)
	}
	_, err = srv.Runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "weather", Input: "b", RequestId: "req-1"})
	c := errdetails.Classify(err)
	if c.Code != codes.AlreadyExists || c.Reason != "REQUEST_ID_REUSED" || c.Metadata["runId"] != first.GetRun().GetRunId() {
		t.Errorf("reused id: %+v", c)
	}
}

func TestInterrupt(t *testing.T) {
	srv := testserver.Start(t)
	srv.Publish(t, clientSpec)
	srv.Publish(t, `{"name": "slow", "model": {"provider": "scripted", "script": {"turns": [{"text": "done", "delay": "60s"}]}}}`)
	ctx := testserver.Context(t)
	cases := []struct {
		name string
		spec string
	}{
		{name: "suspended", spec: "weather"},
		{name: "mid model call", spec: "slow"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			run := srv.Start(t, tc.spec, "go")
			deadline := time.Now().Add(10 * time.Second)
			for {
				got, _ := srv.Runs.GetRun(ctx, &runsvcv1.GetRunRequest{RunId: run.GetRunId()})
				if got.GetRun().GetState() != runsvcv1.RunState_RUN_STATE_QUEUED {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("never started")
				}
				time.Sleep(10 * time.Millisecond)
			}
			start := time.Now()
			if _, err := srv.Runs.InterruptRun(ctx, &runsvcv1.InterruptRunRequest{RunId: run.GetRunId(), Reason: "user pressed stop"}); err != nil {
				t.Fatal(err)
			}
			got := srv.Settled(t, run.GetRunId())
			if got.GetState() != runsvcv1.RunState_RUN_STATE_ABORTED || got.GetAbortCause() != runsvcv1.AbortCause_ABORT_CAUSE_INTERRUPTED || got.GetFailure() != nil {
				t.Fatalf("settled %v %v %v", got.GetState(), got.GetAbortCause(), got.GetFailure())
			}
			if took := time.Since(start); took > 10*time.Second {
				t.Errorf("interrupt took %v", took)
			}
			// Interrupting a settled Run is a no-op.
			again, err := srv.Runs.InterruptRun(ctx, &runsvcv1.InterruptRunRequest{RunId: run.GetRunId()})
			if err != nil || again.GetRun().GetLastSeq() != got.GetLastSeq() {
				t.Errorf("second interrupt: %v, seq %d -> %d", err, got.GetLastSeq(), again.GetRun().GetLastSeq())
			}
		})
	}
}

func TestMessages(t *testing.T) {
	srv := testserver.Start(t)
	srv.Publish(t, `{"name": "chat", "model": {"provider": "scripted", "script": {"turns": [
	  {"toolCalls": [{"name": "lookup", "arguments": {}}]},
	  {"text": "first answer"},
	  {"text": "second answer"}]}},
	  "tools": [{"name": "lookup", "kind": "TOOL_KIND_CLIENT"}]}`)
	ctx := testserver.Context(t)
	run := srv.Wait(t, srv.Start(t, "chat", "hi").GetRunId())
	for _, m := range []struct {
		text string
		mode runsvcv1.MessageMode
	}{{"be brief", runsvcv1.MessageMode_MESSAGE_MODE_STEER}, {"and then?", runsvcv1.MessageMode_MESSAGE_MODE_FOLLOW_UP}} {
		if _, err := srv.Runs.SendMessage(ctx, &runsvcv1.SendMessageRequest{RunId: run.GetRunId(), Text: m.text, Mode: m.mode}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := srv.Runs.ResumeRun(ctx, &runsvcv1.ResumeRunRequest{RunId: run.GetRunId(), ToolResults: []*runsvcv1.ToolResult{{CallId: "call_1_1", Output: structpb.NewStringValue("x")}}}); err != nil {
		t.Fatal(err)
	}
	got := srv.Settled(t, run.GetRunId())
	if got.GetAnswer() != "second answer" || got.GetTurn() != 3 {
		t.Fatalf("answer %q after %d turns: the follow-up must keep the Run going after its first answer", got.GetAnswer(), got.GetTurn())
	}
	var consumed [][]int64
	for _, r := range srv.Records(t, run.GetRunId()) {
		if mc := r.GetMessageConsumed(); mc != nil {
			consumed = append(consumed, mc.GetQueuedSeqs())
		}
	}
	if len(consumed) != 2 {
		t.Errorf("messages consumed in %v, want the steer at turn 2 and the follow-up at turn 3", consumed)
	}
	_, err := srv.Runs.SendMessage(ctx, &runsvcv1.SendMessageRequest{RunId: run.GetRunId(), Text: "late"})
	if c := errdetails.Classify(err); c.Reason != "RUN_ALREADY_SETTLED" || c.Metadata["runState"] != "COMPLETED" {
		t.Errorf("message to a settled run: %+v", c)
	}
}

func TestStreamText(t *testing.T) {
	srv := testserver.Start(t)
	srv.Publish(t, clientSpec)
	srv.Publish(t, `{"name": "broken", "model": {"provider": "scripted", "script": {"turns": [{"fail": {"httpStatus": 500, "times": 9}}]}}, "limits": {"transientRetryBudget": -1}}`)
	ctx := testserver.Context(t)
	run := srv.Wait(t, srv.Start(t, "weather", "hi").GetRunId())
	stream, err := srv.Runs.StreamText(ctx, &runsvcv1.StreamTextRequest{RunId: run.GetRunId()})
	if err != nil {
		t.Fatal(err)
	}
	// Each turn's text may come in pieces as the model streams it; the
	// turn's last message is the one sent when its Record is stored.
	first, final, err := readTurnText(stream)
	if err != nil || first != "Let me look." || final {
		t.Fatalf("first turn's text %q (final %v) %v", first, final, err)
	}
	if _, err := srv.Runs.ResumeRun(ctx, &runsvcv1.ResumeRunRequest{RunId: run.GetRunId(), ToolResults: []*runsvcv1.ToolResult{{CallId: "call_1_1"}, {CallId: "call_1_2"}}}); err != nil {
		t.Fatal(err)
	}
	last, final, err := readTurnText(stream)
	if err != nil || last != "It is sunny and calm." || !final {
		t.Fatalf("final text %q (final %v) %v", last, final, err)
	}
	if _, err := stream.Recv(); err == nil || !strings.Contains(err.Error(), "EOF") {
		t.Fatalf("after the answer: %v, want the stream to end OK", err)
	}

	failed := srv.Settled(t, srv.Start(t, "broken", "hi").GetRunId())
	stream, err = srv.Runs.StreamText(ctx, &runsvcv1.StreamTextRequest{RunId: failed.GetRunId()})
	if err != nil {
		t.Fatal(err)
	}
	_, err = stream.Recv()
	if c := errdetails.Classify(err); c.Reason != "RUN_FAILED" || c.Metadata["failureReason"] != "INFERENCE_FAILED" {
		t.Errorf("text of a failed run: %+v", c)
	}
}

// readTurnText reads one turn's StreamText messages up to the committed
// one and returns the turn's text and whether it is the final answer.
func readTurnText(stream runsvcv1.RunService_StreamTextClient) (string, bool, error) {
	var text strings.Builder
	for {
		msg, err := stream.Recv()
		if err != nil {
			return text.String(), false, err
		}
		text.WriteString(msg.GetText())
		if msg.GetCommitted() {
			return text.String(), msg.GetFinal(), nil
		}
	}
}

func TestWaitRunReturnsWhenItsWaitElapses(t *testing.T) {
	srv := testserver.Start(t)
	srv.Publish(t, `{"name": "slow", "model": {"provider": "scripted", "script": {"turns": [{"text": "done", "delay": "60s"}]}}}`)
	run := srv.Start(t, "slow", "go")
	got, err := srv.Runs.WaitRun(testserver.Context(t), &runsvcv1.WaitRunRequest{RunId: run.GetRunId(), Wait: durationpb.New(300 * time.Millisecond)})
	if err != nil {
		t.Fatalf("WaitRun that times out must be OK: %v", err)
	}
	if s := got.GetRun().GetState(); s != runsvcv1.RunState_RUN_STATE_RUNNING && s != runsvcv1.RunState_RUN_STATE_QUEUED {
		t.Errorf("state %v", s)
	}
}

// lateAnswer is a model whose answer arrives just as the Run is
// interrupted: it waits until its call is cancelled, then answers anyway.
type lateAnswer struct{ called chan struct{} }

func (m lateAnswer) Complete(ctx context.Context, req model.Request) (model.Response, error) {
	select {
	case m.called <- struct{}{}:
	default:
	}
	<-ctx.Done()
	return model.Response{Text: "answered as the stop came", Usage: model.Usage{InputTokens: 3, OutputTokens: 2}}, nil
}

func TestInterruptAsTheModelAnswers(t *testing.T) {
	m := lateAnswer{called: make(chan struct{}, 1)}
	srv := testserver.Start(t, func(c *server.Config) { c.Models = model.Providers{spec.ProviderScripted: m} })
	srv.Publish(t, `{"name": "late", "model": {"provider": "scripted", "script": {"turns": [{"text": "unused"}]}}}`)
	ctx := testserver.Context(t)
	run := srv.Start(t, "late", "go")
	select {
	case <-m.called:
	case <-ctx.Done():
		t.Fatal("the model was never called")
	}
	// An outsider's record ahead of the abort request: the answer's
	// record must follow both.
	if _, err := srv.Runs.SendMessage(ctx, &runsvcv1.SendMessageRequest{RunId: run.GetRunId(), Text: "and then?", Mode: runsvcv1.MessageMode_MESSAGE_MODE_FOLLOW_UP}); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.Runs.InterruptRun(ctx, &runsvcv1.InterruptRunRequest{RunId: run.GetRunId(), Reason: "stop"}); err != nil {
		t.Fatal(err)
	}
	got := srv.Settled(t, run.GetRunId())
	if got.GetState() != runsvcv1.RunState_RUN_STATE_ABORTED || got.GetAbortCause() != runsvcv1.AbortCause_ABORT_CAUSE_INTERRUPTED {
		t.Fatalf("settled %v %v %v, want ABORTED by interruption", got.GetState(), got.GetAbortCause(), got.GetFailure())
	}
	// The turn's start is stored with the answer, or 5 ms into the call
	// if the call still runs: before the outsiders' records, after them,
	// or between. The answer follows both, and the Attempt's own records
	// keep their order.
	log := kinds(t, srv.Records(t, run.GetRunId()))
	own := slices.DeleteFunc(slices.Clone(log), func(k string) bool { return k == "MessageQueued" || k == "AbortRequested" })
	answered := slices.Index(log, "ModelCallFinished")
	queued, abort := slices.Index(log, "MessageQueued"), slices.Index(log, "AbortRequested")
	if strings.Join(own, " ") != "Admitted AttemptStarted TurnStarted ModelCallStarted ModelCallFinished Settled" ||
		queued < 0 || abort < queued || answered < abort {
		t.Errorf("log %s: want Admitted AttemptStarted TurnStarted ModelCallStarted ModelCallFinished Settled with MessageQueued and AbortRequested, in that order, before ModelCallFinished", strings.Join(log, " "))
	}
}
