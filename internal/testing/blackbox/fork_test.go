package blackbox_test

import (
	"testing"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/blackbox"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

const forkSpec = `{"name": "forks", "model": {"provider": "scripted", "script": {"turns": [
  {"toolCalls": [{"name": "memory_set", "arguments": {"key": "k", "value": 1}}]},
  {"toolCalls": [{"name": "memory_set", "arguments": {"key": "k", "value": 2}}]},
  {"text": "done", "delay": "3s"}]}},
 "tools": [{"name": "memory_set", "kind": "TOOL_KIND_BUILTIN"}]}`

// TestForkSurvivesKill: kill -9 the server while a fork is in its slow
// last turn; after a restart the fork is taken over and completes, its log
// gapless and still starting from the source's turn 2.
func TestForkSurvivesKill(t *testing.T) {
	data, addr := t.TempDir(), blackbox.FreePort(t)
	args := []string{"--data", data, "--lease-ttl", "2s"}
	p := blackbox.Serve(t, addr, args...)
	conn := p.Dial(t)
	testserver.Publish(t, runsvcv1.NewSpecServiceClient(conn), forkSpec)
	runs := runsvcv1.NewRunServiceClient(conn)
	ctx := testserver.Context(t)
	src, err := runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "forks", Input: "go"})
	if err != nil {
		t.Fatal(err)
	}
	srcID := src.GetRun().GetRunId()
	waitState(t, runs, srcID, runsvcv1.RunState_RUN_STATE_COMPLETED)
	resp, err := runs.ForkRun(ctx, &runsvcv1.ForkRunRequest{RunId: srcID, At: &runsvcv1.ForkRunRequest_Turn{Turn: 2}})
	if err != nil {
		t.Fatal(err)
	}
	forkID := resp.GetRun().GetRunId()
	waitUntil(t, func() bool {
		got, err := runs.GetRun(ctx, &runsvcv1.GetRunRequest{RunId: forkID})
		return err == nil && got.GetRun().GetTurn() == 3
	})

	p.Kill()
	p = blackbox.Serve(t, addr, args...)
	runs = runsvcv1.NewRunServiceClient(p.Dial(t))
	got := waitState(t, runs, forkID, runsvcv1.RunState_RUN_STATE_COMPLETED)
	if got.GetAnswer() != "done" || got.GetAttempt() != 2 || got.GetForkOf().GetRunId() != srcID || got.GetForkOf().GetTurn() != 2 {
		t.Errorf("fork answered %q after %d attempts, from %v; want \"done\" after 2, from %s turn 2", got.GetAnswer(), got.GetAttempt(), got.GetForkOf(), srcID)
	}
	recs := testserver.Records(t, runs, forkID)
	var calls int
	for i, r := range recs {
		if r.GetSeq() != int64(i+1) {
			t.Fatalf("fork record %d has seq %d", i+1, r.GetSeq())
		}
		if r.GetToolCallFinished() != nil {
			calls++
		}
	}
	if calls != 1 {
		t.Errorf("the fork finished %d tool calls, want 1 (turn 2's; turn 1's came from the source)", calls)
	}
}
