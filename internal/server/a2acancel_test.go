package server_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/testing/testserver"
	"github.com/runsvc/runsvc/internal/tool"
	"github.com/runsvc/runsvc/internal/tool/a2atool"
	"github.com/runsvc/runsvc/internal/tool/a2atool/agenttest"
)

// a2aCallSpec is a Spec whose model sends message to the sample A2A agent
// at cardURL through its a2a tool, then answers "done".
func a2aCallSpec(name, message, cardURL, deadline string) string {
	return fmt.Sprintf(`{"name": %q, "model": {"provider": "scripted", "script": {"turns": [
	  {"toolCalls": [{"name": "agent", "arguments": {"message": %q}}]}, {"text": "done"}]}},
	 "tools": [{"name": "agent", "kind": "TOOL_KIND_A2A", "timeout": "60s",
	   "a2a": {"cardUrl": %q, "pollInterval": "0.05s"}}],
	 "limits": {"deadline": %q}}`, name, message, cardURL, deadline)
}

// TestA2ACancelOnInterrupt: a Run whose a2a call's remote task is open
// when the Run is interrupted tells the agent: InterruptRun while the
// call follows a long task, the Run's deadline passing then, and
// InterruptRun while the Run is suspended on the task's question each
// reach the @a2a-js/sdk agent as one CancelTask for that task, which ends
// CANCELED there.
func TestA2ACancelOnInterrupt(t *testing.T) {
	agent := agenttest.Start(t)
	srv := testserver.Start(t)
	tests := []struct {
		name, message, deadline string
		interrupt               bool
		before                  runsvcv1.RunState // the state to interrupt in, once the task is recorded
	}{
		{name: "following", message: "slow 30000 long", deadline: "120s", interrupt: true, before: runsvcv1.RunState_RUN_STATE_RUNNING},
		{name: "deadline", message: "slow 30000 long", deadline: "1s"},
		{name: "asking", message: "ask me", deadline: "120s", interrupt: true, before: runsvcv1.RunState_RUN_STATE_SUSPENDED},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv.Publish(t, a2aCallSpec("cancel-"+tt.name, tt.message, agent.CardURL(), tt.deadline))
			id := srv.Start(t, "cancel-"+tt.name, "go").GetRunId()
			task := waitA2ATask(t, srv, id)
			if tt.interrupt {
				waitRunState(t, srv, id, tt.before)
				interrupt(t, srv, id)
			}
			if got := srv.Settled(t, id).GetState(); got != runsvcv1.RunState_RUN_STATE_ABORTED {
				t.Fatalf("the Run settled %v, want ABORTED", got)
			}
			waitFor(t, func() bool { return slices.Contains(agent.Cancels(t), task) })
			if n := len(slices.DeleteFunc(agent.Cancels(t), func(id string) bool { return id != task })); n != 1 {
				t.Errorf("the agent saw %d cancels of %s, want 1", n, task)
			}
			c := tool.Call{RunID: "check", CallID: "check", Name: "agent", Tool: spec.Tool{Name: "agent", Kind: spec.KindA2A, A2A: &spec.A2ATool{URL: agent.JSONRPC()}}}
			_, err := a2atool.New(nil).Follow(testserver.Context(t), c, tool.RemoteTask{ID: task, State: tool.RemoteWorking}, "")
			if err == nil || !strings.Contains(err.Error(), "was canceled") {
				t.Errorf("the agent's task %s after the abort: %v, want CANCELED", task, err)
			}
		})
	}
}

// TestA2ACancelAgentUnhelpful: an agent that is down, or that answers
// the CancelTask TaskNotCancelable, neither holds up nor fails the
// Run's interruption: InterruptRun answers the Run ABORTED.
func TestA2ACancelAgentUnhelpful(t *testing.T) {
	srv := testserver.Start(t)
	tests := []struct {
		name, message string
		down          bool
	}{
		{name: "down", message: "ask me", down: true},
		{name: "notcancelable", message: "slow 30000 nocancel"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			agent := agenttest.Start(t)
			srv.Publish(t, a2aCallSpec("unhelpful-"+tt.name, tt.message, agent.CardURL(), "120s"))
			id := srv.Start(t, "unhelpful-"+tt.name, "go").GetRunId()
			task := waitA2ATask(t, srv, id)
			if tt.down {
				waitRunState(t, srv, id, runsvcv1.RunState_RUN_STATE_SUSPENDED)
				agent.Stop()
			}
			if got := interrupt(t, srv, id).GetState(); got != runsvcv1.RunState_RUN_STATE_ABORTED {
				t.Errorf("InterruptRun answered the Run %v, want ABORTED", got)
			}
			if !tt.down {
				waitFor(t, func() bool { return slices.Contains(agent.Cancels(t), task) })
			}
		})
	}
}

// interrupt interrupts a Run and returns it as InterruptRun answers it.
func interrupt(t *testing.T, srv *testserver.Server, id string) *runsvcv1.Run {
	t.Helper()
	resp, err := srv.Runs.InterruptRun(testserver.Context(t), &runsvcv1.InterruptRunRequest{RunId: id, Reason: "no longer needed"})
	if err != nil {
		t.Fatalf("InterruptRun: %v", err)
	}
	return resp.GetRun()
}

// waitA2ATask waits for a Run's log to record its a2a call's task, and
// returns the task's id.
func waitA2ATask(t *testing.T, srv *testserver.Server, id string) string {
	t.Helper()
	var task string
	waitFor(t, func() bool {
		for _, r := range srv.RecordsSoFar(t, id) {
			if a := r.GetA2ATask(); a != nil {
				task = a.GetTaskId()
			}
		}
		return task != ""
	})
	return task
}

// waitRunState waits for a Run to be in state.
func waitRunState(t *testing.T, srv *testserver.Server, id string, state runsvcv1.RunState) {
	t.Helper()
	waitFor(t, func() bool {
		resp, err := srv.Runs.GetRun(testserver.Context(t), &runsvcv1.GetRunRequest{RunId: id})
		return err == nil && resp.GetRun().GetState() == state
	})
}
