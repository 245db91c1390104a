package blackbox_test

import (
	"context"
	"fmt"
	"testing"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/blackbox"
	"github.com/runsvc/runsvc/internal/testing/testserver"
	"github.com/runsvc/runsvc/internal/tool/a2atool/agenttest"
)

// a2aSpec is a Spec whose model sends message to the sample A2A agent
// through its a2a tool, declared by its card, then answers "done".
func a2aSpec(name, message, cardURL string) string {
	return fmt.Sprintf(`{"name": %q, "model": {"provider": "scripted", "script": {"turns": [
	  {"toolCalls": [{"name": "agent", "arguments": {"message": %q}}]}, {"text": "done"}]}},
	 "tools": [{"name": "agent", "kind": "TOOL_KIND_A2A", "timeout": "60s",
	   "a2a": {"cardUrl": %q, "pollInterval": "0.05s"}}],
	 "limits": {"deadline": "120s"}}`, name, message, cardURL)
}

// TestA2AToolKill: a Run calls an @a2a-js/sdk agent through an a2a tool,
// and runsvc is kill -9'd while the agent's task works (it answers after
// 3s). After the restart the Run follows the recorded task instead of
// sending again: the agent received ONE message, and the task's answer
// is the call's result in the log. Then a task asking for input suspends
// the calling Run QUESTION with the agent's question; ResumeRun's answer
// goes to the task, which completes the Run. Neither the kill nor a
// graceful stop while following (stopWhileFollowing) cancels the task.
func TestA2AToolKill(t *testing.T) {
	agent := agenttest.Start(t)
	data, addr := t.TempDir(), blackbox.FreePort(t)
	args := []string{"--data", data, "--lease-ttl", "1s"}
	p := blackbox.Serve(t, addr, args...)
	conn := p.Dial(t)
	specs, runs := runsvcv1.NewSpecServiceClient(conn), runsvcv1.NewRunServiceClient(conn)
	ctx := testserver.Context(t)
	testserver.Publish(t, specs, a2aSpec("slowagent", "slow 3000 hello", agent.CardURL()))
	testserver.Publish(t, specs, a2aSpec("askagent", "ask me", agent.CardURL()))

	resp, err := runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "slowagent", Input: "go"})
	if err != nil {
		t.Fatal(err)
	}
	id := resp.GetRun().GetRunId()
	waitUntil(t, func() bool { return a2aTask(recordsSoFar(t, runs, id)) != nil })
	p.Kill()
	p = blackbox.Serve(t, addr, args...)
	runs = runsvcv1.NewRunServiceClient(p.Dial(t))
	got := waitState(t, runs, id, runsvcv1.RunState_RUN_STATE_COMPLETED)
	if got.GetAttempt() < 2 {
		t.Errorf("the Run completed in attempt %d; the kill did not land during the call", got.GetAttempt())
	}
	recs := testserver.Records(t, runs, id)
	if out := toolOutput(recs); out != "echo: hello" {
		t.Errorf("the call's recorded result is %q, want the agent's answer", out)
	}
	if msgs := agent.Messages(t); len(msgs) != 1 {
		t.Fatalf("the agent received %d messages across the kill, want 1: %v", len(msgs), msgs)
	}
	if cancels := agent.Cancels(t); len(cancels) != 0 {
		t.Errorf("the agent was asked to cancel %v across the kill; a kill is no interrupt", cancels)
	}

	resp, err = runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "askagent", Input: "go"})
	if err != nil {
		t.Fatal(err)
	}
	id = resp.GetRun().GetRunId()
	asked := waitState(t, runs, id, runsvcv1.RunState_RUN_STATE_SUSPENDED).GetSuspension()
	if asked.GetReason() != runsvcv1.SuspensionReason_SUSPENSION_REASON_QUESTION || asked.GetQuestion() != "What is your name?" {
		t.Fatalf("suspension %v, want the agent's question", asked)
	}
	if _, err := runs.ResumeRun(ctx, &runsvcv1.ResumeRunRequest{RunId: id, Answer: "Ada"}); err != nil {
		t.Fatal(err)
	}
	waitState(t, runs, id, runsvcv1.RunState_RUN_STATE_COMPLETED)
	recs = testserver.Records(t, runs, id)
	if out := toolOutput(recs); out != "hello Ada" {
		t.Errorf("after the answer the call's result is %q, want the agent's", out)
	}
	if task := a2aTask(recs); task == nil || task.GetReplies() != 1 {
		t.Errorf("the last a2a_task record %v, want one reply", task)
	}
	if msgs := agent.Messages(t); len(msgs) != 3 {
		t.Errorf("the agent received %d messages in all, want 3 (the question's task and its answer): %v", len(msgs), msgs)
	}
	stopWhileFollowing(t, p, agent, addr, args)
}

// stopWhileFollowing: runsvc stopped gracefully (SIGTERM) while a Run
// follows an a2a task, then started again, follows the task to its end:
// a shutdown is no interrupt, and the agent is never asked to cancel.
func stopWhileFollowing(t *testing.T, p *blackbox.Process, agent *agenttest.Agent, addr string, args []string) {
	runs := runsvcv1.NewRunServiceClient(p.Dial(t))
	resp, err := runs.StartRun(testserver.Context(t), &runsvcv1.StartRunRequest{Spec: "slowagent", Input: "go"})
	if err != nil {
		t.Fatal(err)
	}
	id := resp.GetRun().GetRunId()
	waitUntil(t, func() bool { return a2aTask(recordsSoFar(t, runs, id)) != nil })
	if code := p.Stop(t); code != 0 {
		t.Fatalf("runsvc exited %d on SIGTERM", code)
	}
	p = blackbox.Serve(t, addr, args...)
	runs = runsvcv1.NewRunServiceClient(p.Dial(t))
	if got := waitState(t, runs, id, runsvcv1.RunState_RUN_STATE_COMPLETED); got.GetAttempt() < 2 {
		t.Errorf("the Run completed in attempt %d; the stop did not land during the call", got.GetAttempt())
	}
	if out := toolOutput(testserver.Records(t, runs, id)); out != "echo: hello" {
		t.Errorf("after the restart the call's result is %q, want the agent's answer", out)
	}
	if cancels := agent.Cancels(t); len(cancels) != 0 {
		t.Errorf("the agent was asked to cancel %v across a graceful stop; a shutdown is no interrupt", cancels)
	}
}

// recordsSoFar is a Run's log up to its last Record now.
func recordsSoFar(t *testing.T, runs runsvcv1.RunServiceClient, id string) []*runsvcv1.Record {
	t.Helper()
	ctx, cancel := context.WithCancel(testserver.Context(t))
	defer cancel()
	got, err := runs.GetRun(ctx, &runsvcv1.GetRunRequest{RunId: id})
	if err != nil {
		t.Fatal(err)
	}
	stream, err := runs.WatchRun(ctx, &runsvcv1.WatchRunRequest{RunId: id})
	if err != nil {
		t.Fatal(err)
	}
	var out []*runsvcv1.Record
	for int64(len(out)) < got.GetRun().GetLastSeq() {
		resp, err := stream.Recv()
		if err != nil {
			break
		}
		out = append(out, resp.GetRecord())
	}
	return out
}

// a2aTask is the last a2a_task Record of recs, or nil.
func a2aTask(recs []*runsvcv1.Record) *runsvcv1.Record_A2ATask {
	var last *runsvcv1.Record_A2ATask
	for _, r := range recs {
		if a := r.GetA2ATask(); a != nil {
			last = a
		}
	}
	return last
}

// toolOutput is the string output of the first finished tool call.
func toolOutput(recs []*runsvcv1.Record) string {
	for _, r := range recs {
		if f := r.GetToolCallFinished(); f != nil {
			if f.GetError() != nil {
				return "error: " + f.GetError().GetMessage()
			}
			return f.GetOutput().GetStringValue()
		}
	}
	return ""
}
