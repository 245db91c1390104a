package engine_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/structpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/model/scripted"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

func publishTeam(t *testing.T, srv *testserver.Server) {
	srv.Publish(t, `{"name": "analyst", "model": {"provider": "scripted", "script": {"turns": [{"text": "the numbers look fine"}]}}}`)
	srv.Publish(t, `{"name": "slowpoke", "model": {"provider": "scripted", "script": {"turns": [{"text": "finally", "delay": "1.5s"}]}}}`)
	srv.Publish(t, `{"name": "breaker", "model": {"provider": "scripted", "script": {"turns": [{"toolCalls": [
	   {"name": "memory_set", "arguments": {"key": "a", "value": 1}}, {"name": "memory_set", "arguments": {"key": "b", "value": 2}}]}, {"text": "never"}]}},
	   "tools": [{"name": "memory_set", "kind": "TOOL_KIND_BUILTIN"}], "limits": {"maxToolRounds": 1}}`)
	srv.Publish(t, `{"name": "lead", "delegates": ["analyst", "breaker", "slowpoke"], "model": {"provider": "scripted", "script": {"turns": [
	   {"toolCalls": [{"name": "delegate", "arguments": {"to": "analyst", "task": "check the numbers"}}, {"name": "delegate", "arguments": {"to": "breaker", "task": "loop"}}]},
	   {"text": "summarised"}]}}}`)
}

// leadDelegatesToTwo runs lead, whose model delegates to analyst and to
// breaker at once: the parent suspends on both, gets analyst's answer and
// breaker's TOOL_LOOP_LIMIT failure as tool results, and completes with
// both children in its report.
func leadDelegatesToTwo(t *testing.T, ctx context.Context, srv *testserver.Server) {
	run := srv.Settled(t, srv.Start(t, "lead", "report").GetRunId())
	if run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED {
		t.Fatalf("parent %v %v", run.GetState(), run.GetFailure())
	}
	recs := srv.Records(t, run.GetRunId())
	var suspendedOnChildren bool
	for _, r := range recs {
		if s := r.GetSuspended(); s != nil && s.GetReason() == runsvcv1.SuspensionReason_SUSPENSION_REASON_CHILDREN && len(s.GetDelegationIds()) == 2 {
			suspendedOnChildren = true
		}
	}
	if !suspendedOnChildren {
		t.Error("the parent did not suspend on both children at once")
	}
	done := toolFinished(recs)
	if len(done) != 2 {
		t.Fatalf("results %v", done)
	}
	if ans := done[0].GetOutput().GetStructValue().GetFields()["answer"].GetStringValue(); ans != "the numbers look fine" {
		t.Errorf("analyst's answer %v", done[0].GetOutput())
	}
	c := errdetails.ClassifyStatus(done[1].GetError())
	if c.Reason != "TOOL_LOOP_LIMIT" || c.Message != "Circuit breaker triggered: 2 tool calls exceeded max_tool_rounds (1)" {
		t.Errorf("the failed child reached the parent as %+v", c)
	}
	rep, err := srv.Runs.GetReport(ctx, &runsvcv1.GetReportRequest{RunId: run.GetRunId(), ChildDepth: 1})
	if err != nil || len(rep.GetReport().GetChildren()) != 2 {
		t.Fatalf("report children: %v %v", rep, err)
	}
}

func TestDelegation(t *testing.T) {
	srv := testserver.Start(t)
	publishTeam(t, srv)
	ctx := testserver.Context(t)

	t.Run("model delegates; a failed child is a tool result", func(t *testing.T) { leadDelegatesToTwo(t, ctx, srv) })

	t.Run("sync and async", func(t *testing.T) {
		sync, err := srv.Delegation.Delegate(ctx, &runsvcv1.DelegateRequest{Spec: "analyst", Task: "check"})
		if err != nil || sync.GetDelegation().GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED || sync.GetDelegation().GetAnswer() != "the numbers look fine" {
			t.Fatalf("sync: %v %v", sync, err)
		}
		async, err := srv.Delegation.Delegate(ctx, &runsvcv1.DelegateRequest{Spec: "analyst", Task: "check", Async: true})
		if err != nil || async.GetDelegation().GetDelegationId() == "" {
			t.Fatalf("async: %v %v", async, err)
		}
		done, err := srv.Delegation.AwaitDelegation(ctx, &runsvcv1.AwaitDelegationRequest{DelegationId: async.GetDelegation().GetDelegationId(), Timeout: durationpb.New(10 * time.Second)})
		if err != nil || done.GetDelegation().GetAnswer() != "the numbers look fine" {
			t.Fatalf("await: %v %v", done, err)
		}
	})

	t.Run("await times out and the child goes on", func(t *testing.T) {
		d, err := srv.Delegation.Delegate(ctx, &runsvcv1.DelegateRequest{Spec: "slowpoke", Task: "take your time", Async: true})
		if err != nil {
			t.Fatal(err)
		}
		id := d.GetDelegation().GetDelegationId()
		_, err = srv.Delegation.AwaitDelegation(ctx, &runsvcv1.AwaitDelegationRequest{DelegationId: id, Timeout: durationpb.New(300 * time.Millisecond)})
		c := errdetails.Classify(err)
		if c.Reason != "DELEGATION_TIMEOUT" || c.Message != "Delegation to 'slowpoke' timed out after 0.3s" {
			t.Fatalf("await: %+v", c)
		}
		child := srv.Settled(t, d.GetDelegation().GetChildRunId())
		if child.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED || child.GetAnswer() != "finally" {
			t.Errorf("the child after the timeout: %v %q", child.GetState(), child.GetAnswer())
		}
	})

	t.Run("interrupting a parent interrupts its children", func(t *testing.T) {
		srv.Publish(t, `{"name": "waiter", "delegates": ["slowpoke"], "model": {"provider": "scripted", "script": {"turns": [
		  {"toolCalls": [{"name": "delegate", "arguments": {"to": "slowpoke", "task": "wait"}}]}, {"text": "never"}]}}}`)
		parent := srv.Wait(t, srv.Start(t, "waiter", "go").GetRunId())
		if parent.GetSuspension().GetReason() != runsvcv1.SuspensionReason_SUSPENSION_REASON_CHILDREN {
			t.Fatalf("parent %v", parent)
		}
		children, err := srv.Runs.ListRuns(ctx, &runsvcv1.ListRunsRequest{ParentRunId: parent.GetRunId()})
		if err != nil || len(children.GetRuns()) != 1 {
			t.Fatalf("children %v %v", children, err)
		}
		if _, err := srv.Runs.InterruptRun(ctx, &runsvcv1.InterruptRunRequest{RunId: parent.GetRunId()}); err != nil {
			t.Fatal(err)
		}
		child := srv.Settled(t, children.GetRuns()[0].GetRunId())
		if child.GetState() != runsvcv1.RunState_RUN_STATE_ABORTED {
			t.Errorf("child %v", child.GetState())
		}
	})
}

func TestDelegationDepthRefusedAtPublish(t *testing.T) {
	srv := testserver.Start(t)
	srv.Publish(t, `{"name": "d3", "model": {"provider": "scripted", "script": {"turns": [{"text": "x"}]}}}`)
	srv.Publish(t, `{"name": "d2", "delegates": ["d3"], "model": {"provider": "scripted", "script": {"turns": [{"text": "x"}]}}}`)
	srv.Publish(t, `{"name": "d1", "delegates": ["d2"], "model": {"provider": "scripted", "script": {"turns": [{"text": "x"}]}}}`)
	_, err := srv.Specs.PublishSpec(testserver.Context(t), &runsvcv1.PublishSpecRequest{Spec: &runsvcv1.Spec{
		Name: "d0", Delegates: []string{"d1"}, Limits: &runsvcv1.Limits{MaxDelegationDepth: 2},
		Model: &runsvcv1.ModelRef{Provider: "scripted", Script: &runsvcv1.Script{Turns: []*runsvcv1.ScriptTurn{{Text: "x"}}}},
	}})
	c := errdetails.Classify(err)
	if c.Reason != "SPEC_INVALID" || !strings.Contains(err.Error(), "d0 -> d1 -> d2 -> d3 is 3 deep") {
		t.Errorf("publish: %v", err)
	}
}

func TestMemory(t *testing.T) {
	srv := testserver.Start(t)
	other := testserver.Dial(t, srv.Addr)
	writer := runsvcv1.NewMemoryServiceClient(other)
	ctx := testserver.Context(t)
	scope := &runsvcv1.MemoryScope{Scope: &runsvcv1.MemoryScope_Namespace{Namespace: "team"}}

	t.Run("a blocked read wakes on a write from another connection", func(t *testing.T) {
		type result struct {
			resp *runsvcv1.GetValueResponse
			err  error
			took time.Duration
		}
		got := make(chan result, 1)
		start := time.Now()
		go func() {
			resp, err := srv.Memory.GetValue(ctx, &runsvcv1.GetValueRequest{Scope: scope, Keys: []string{"sentiment"}, Wait: durationpb.New(10 * time.Second)})
			got <- result{resp, err, time.Since(start)}
		}()
		time.Sleep(200 * time.Millisecond)
		set := time.Now()
		if _, err := writer.SetValue(ctx, &runsvcv1.SetValueRequest{Scope: scope, Key: "sentiment", Value: structpb.NewStringValue("positive")}); err != nil {
			t.Fatal(err)
		}
		r := <-got
		if r.err != nil || len(r.resp.GetEntries()) != 1 || r.resp.GetEntries()[0].GetValue().GetStringValue() != "positive" {
			t.Fatalf("read: %v %v", r.resp, r.err)
		}
		if r.took >= 10*time.Second {
			t.Fatal("the read waited out its timeout instead of waking")
		}
		t.Logf("woke %v after the write", time.Since(set))
	})

	t.Run("the wait applies per missing key", func(t *testing.T) {
		start := time.Now()
		_, err := srv.Memory.GetValue(ctx, &runsvcv1.GetValueRequest{Scope: scope, Keys: []string{"x", "y"}, Wait: durationpb.New(time.Second)})
		took := time.Since(start)
		c := errdetails.Classify(err)
		if c.Reason != "AWAIT_TIMEOUT" || c.Message != "Timeout waiting for :x in ns/team after 1 seconds" || c.Metadata["namespace"] != "ns/team" || c.Metadata["missingKeys"] != "x, y" {
			t.Fatalf("got %+v", c)
		}
		if took < 2*time.Second {
			t.Errorf("failed after %v; two missing keys wait 1s each", took)
		}
	})

	t.Run("values that cannot cross the boundary", func(t *testing.T) {
		big := structpb.NewStringValue(strings.Repeat("x", 300<<10))
		_, err := writer.SetValue(ctx, &runsvcv1.SetValueRequest{Scope: scope, Key: "big", Value: big})
		if c := errdetails.Classify(err); c.Reason != "VALUE_NOT_PORTABLE" {
			t.Errorf("big value: %+v", c)
		}
	})

	t.Run("a run family shares memory with its delegates", func(t *testing.T) {
		srv.Publish(t, `{"name": "reader", "model": {"provider": "scripted", "script": {"turns": [
		  {"toolCalls": [{"name": "memory_get", "arguments": {"keys": ["plan"], "wait_seconds": 5}}]}, {"text": "read it"}]}},
		  "tools": [{"name": "memory_get", "kind": "TOOL_KIND_BUILTIN"}]}`)
		srv.Publish(t, `{"name": "planner", "delegates": ["reader"], "model": {"provider": "scripted", "script": {"turns": [
		  {"toolCalls": [{"name": "memory_set", "arguments": {"key": "plan", "value": {"steps": 3}}}, {"name": "delegate", "arguments": {"to": "reader", "task": "read the plan"}}]},
		  {"text": "planned"}]}},
		  "tools": [{"name": "memory_set", "kind": "TOOL_KIND_BUILTIN"}]}`)
		parent := srv.Settled(t, srv.Start(t, "planner", "plan").GetRunId())
		children, _ := srv.Runs.ListRuns(ctx, &runsvcv1.ListRunsRequest{ParentRunId: parent.GetRunId()})
		if len(children.GetRuns()) != 1 {
			t.Fatalf("children %v", children)
		}
		done := toolFinished(srv.Records(t, children.GetRuns()[0].GetRunId()))
		steps := done[0].GetOutput().GetStructValue().GetFields()["plan"].GetStructValue().GetFields()["steps"].GetNumberValue()
		if steps != 3 {
			t.Errorf("the child read %v", done[0].GetOutput())
		}
		got, err := srv.Memory.GetValue(ctx, &runsvcv1.GetValueRequest{Scope: &runsvcv1.MemoryScope{Scope: &runsvcv1.MemoryScope_RunId{RunId: children.GetRuns()[0].GetRunId()}}, Keys: []string{"plan"}})
		if err != nil || len(got.GetEntries()) != 1 {
			t.Errorf("the family's memory through the child's id: %v %v", got, err)
		}
	})
}

func TestBus(t *testing.T) {
	srv := testserver.Start(t)
	srv.Publish(t, `{"name": "alice", "bus": {"enabled": true}, "model": {"provider": "scripted", "script": {"turns": [{"text": "x"}]}}}`)
	srv.Publish(t, `{"name": "bob", "bus": {"enabled": true, "channels": ["alerts"]}, "model": {"provider": "scripted", "script": {"turns": [{"text": "x"}]}}}`)
	srv.Publish(t, `{"name": "carol", "model": {"provider": "scripted", "script": {"turns": [{"text": "x"}]}}}`)
	ctx := testserver.Context(t)
	send := func(channel, text, inReplyTo string) *runsvcv1.BusMessage {
		resp, err := srv.Bus.SendMessage(ctx, &runsvcv1.BusServiceSendMessageRequest{Sender: "alice", Channel: channel, Content: structpb.NewStringValue(text), InReplyTo: inReplyTo})
		if err != nil {
			t.Fatal(err)
		}
		return resp.GetMessage()
	}
	first := send("bob", "sent while nobody listens", "")

	receive := func(ackTimeout time.Duration) (runsvcv1.BusService_ReceiveClient, func()) {
		rctx, cancel := context.WithCancel(testserver.Context(t))
		stream, err := srv.Bus.Receive(rctx, &runsvcv1.ReceiveRequest{Channel: "bob", AckTimeout: durationpb.New(ackTimeout)})
		if err != nil {
			t.Fatal(err)
		}
		return stream, cancel
	}
	stream, crash := receive(500 * time.Millisecond)
	got, err := stream.Recv()
	if err != nil || got.GetMessage().GetMessageId() != first.GetMessageId() || got.GetMessage().GetDeliveryCount() != 1 {
		t.Fatalf("delivery after connecting: %v %v", got, err)
	}
	crash() // the receiver dies before acknowledging

	stream, stop := receive(30 * time.Second)
	defer stop()
	got, err = stream.Recv()
	if err != nil || got.GetMessage().GetMessageId() != first.GetMessageId() || got.GetMessage().GetDeliveryCount() != 2 {
		t.Fatalf("redelivery: %v %v", got, err)
	}
	if _, err := srv.Bus.AcknowledgeMessages(ctx, &runsvcv1.AcknowledgeMessagesRequest{Channel: "bob", MessageIds: []string{first.GetMessageId()}}); err != nil {
		t.Fatal(err)
	}
	reply := send("bob", "a reply", first.GetMessageId())
	got, err = stream.Recv()
	if err != nil || got.GetMessage().GetInReplyTo() != first.GetMessageId() || got.GetMessage().GetMessageId() != reply.GetMessageId() {
		t.Fatalf("reply: %v %v", got, err)
	}

	for _, tc := range []struct{ sender, channel, reason string }{
		{"carol", "bob", "BUS_NOT_CONFIGURED"},
		{"alice", "nowhere", "CHANNEL_NOT_FOUND"},
	} {
		_, err := srv.Bus.SendMessage(ctx, &runsvcv1.BusServiceSendMessageRequest{Sender: tc.sender, Channel: tc.channel, Content: structpb.NewStringValue("x")})
		if c := errdetails.Classify(err); c.Reason != tc.reason {
			t.Errorf("%s -> %s: %+v", tc.sender, tc.channel, c)
		}
	}
}

// TestDelegationFanOutLimit: a model that asks for more delegations in one
// turn than the Spec allows gets the extra ones answered with an error;
// a scripted Spec doing the same is refused at publish.
func TestDelegationFanOutLimit(t *testing.T) {
	srv := testserver.Start(t)
	srv.Publish(t, `{"name": "helper", "model": {"provider": "scripted", "script": {"turns": [{"text": "helped"}]}}}`)
	_, err := srv.Specs.PublishSpec(testserver.Context(t), &runsvcv1.PublishSpecRequest{Spec: &runsvcv1.Spec{
		Name: "greedy", Delegates: []string{"helper"}, Limits: &runsvcv1.Limits{MaxDelegationsPerTurn: 1},
		Model: &runsvcv1.ModelRef{Provider: "scripted", Script: &runsvcv1.Script{Turns: []*runsvcv1.ScriptTurn{
			{ToolCalls: []*runsvcv1.ScriptToolCall{{Name: "delegate"}, {Name: "delegate"}}}, {Text: "x"}}}},
	}})
	if c := errdetails.Classify(err); c.Reason != "SPEC_INVALID" || !strings.Contains(err.Error(), "max_delegations_per_turn") {
		t.Fatalf("publishing a scripted fan-out over the limit: %v", err)
	}

	model := newFakeOpenAI(t, func(n int, w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		if n == 1 {
			_, _ = io.WriteString(w, `{"id": "chatcmpl-1", "object": "chat.completion", "created": 1764400000, "model": "m",
			  "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": null, "tool_calls": [
			    {"id": "call_a", "type": "function", "function": {"name": "delegate", "arguments": "{\"to\": \"helper\", \"task\": \"one\"}"}},
			    {"id": "call_b", "type": "function", "function": {"name": "delegate", "arguments": "{\"to\": \"helper\", \"task\": \"two\"}"}}]}}],
			  "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}`)
			return
		}
		_, _ = io.WriteString(w, completion)
	})
	srv.Publish(t, fmt.Sprintf(`{"name": "greedy-llm", "delegates": ["helper"], "limits": {"maxDelegationsPerTurn": 1},
	  "model": {"provider": "openai", "model": "m", "baseUrl": %q}}`, model.srv.URL+"/v1"))
	run := srv.Settled(t, srv.Start(t, "greedy-llm", "go").GetRunId())
	if run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED {
		t.Fatalf("state %v failure %v", run.GetState(), run.GetFailure())
	}
	done := toolFinished(srv.Records(t, run.GetRunId()))
	if len(done) != 2 || done[0].GetError() != nil {
		t.Fatalf("results %v", done)
	}
	if c := errdetails.ClassifyStatus(done[1].GetError()); c.Reason != "TOOL_REJECTED" || !strings.Contains(c.Message, "max_delegations_per_turn") {
		t.Errorf("the second delegation: %+v", c)
	}
	children, _ := srv.Runs.ListRuns(testserver.Context(t), &runsvcv1.ListRunsRequest{ParentRunId: run.GetRunId()})
	if len(children.GetRuns()) != 1 {
		t.Errorf("%d children started, want 1", len(children.GetRuns()))
	}
}

// deafChildren answers like the scripted model, except for a Spec whose
// script says "deaf": that call ignores cancellation and answers only when
// release closes, so its Run settles late after an interruption.
type deafChildren struct {
	scripted *scripted.Model
	called   chan string
	release  chan struct{}
}

func (m deafChildren) Complete(ctx context.Context, req model.Request) (model.Response, error) {
	if len(req.Model.Script) == 0 || req.Model.Script[0].Text != "deaf" {
		return m.scripted.Complete(ctx, req)
	}
	m.called <- req.RunID
	<-m.release
	return model.Response{Text: "deaf"}, nil
}

// TestInterruptReachesEveryChild: a parent interrupted while waiting on
// children that are slow to stop asks every one of them to stop, however
// many there are, without waiting for each in turn.
func TestInterruptReachesEveryChild(t *testing.T) {
	const children = 7
	m := deafChildren{scripted: scripted.New(clock.Real{}), called: make(chan string, children), release: make(chan struct{})}
	srv := testserver.Start(t, func(c *server.Config) { c.Models = model.Providers{spec.ProviderScripted: m} })
	srv.Publish(t, `{"name": "deaf", "model": {"provider": "scripted", "script": {"turns": [{"text": "deaf"}]}}}`)
	var calls []string
	for range children {
		calls = append(calls, `{"name": "delegate", "arguments": {"to": "deaf", "task": "listen"}}`)
	}
	srv.Publish(t, `{"name": "boss", "delegates": ["deaf"], "model": {"provider": "scripted", "script": {"turns": [
	  {"toolCalls": [`+strings.Join(calls, ", ")+`]}, {"text": "never"}]}}}`)
	ctx := testserver.Context(t)
	parent := srv.Start(t, "boss", "go")
	for range children {
		select {
		case <-m.called:
		case <-ctx.Done():
			t.Fatal("not every child reached its model")
		}
	}
	srv.Wait(t, parent.GetRunId())
	if _, err := srv.Runs.InterruptRun(ctx, &runsvcv1.InterruptRunRequest{RunId: parent.GetRunId(), Reason: "stop"}); err != nil {
		t.Fatal(err)
	}
	close(m.release)
	if got := srv.Settled(t, parent.GetRunId()); got.GetState() != runsvcv1.RunState_RUN_STATE_ABORTED {
		t.Fatalf("parent settled %v, want ABORTED", got.GetState())
	}
	list, err := srv.Runs.ListRuns(ctx, &runsvcv1.ListRunsRequest{ParentRunId: parent.GetRunId()})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.GetRuns()) != children {
		t.Fatalf("%d children, want %d", len(list.GetRuns()), children)
	}
	for _, c := range list.GetRuns() {
		if got := srv.Settled(t, c.GetRunId()); got.GetState() != runsvcv1.RunState_RUN_STATE_ABORTED || got.GetAbortCause() != runsvcv1.AbortCause_ABORT_CAUSE_INTERRUPTED {
			t.Errorf("child %s settled %v %v, want ABORTED by interruption", c.GetRunId(), got.GetState(), got.GetAbortCause())
		}
	}
}
