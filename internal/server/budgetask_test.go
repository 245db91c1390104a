package server_test

import (
	"fmt"
	"testing"

	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/fakeopenai"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// askingRun starts a Run whose token budget (25) covers its first call
// (15 tokens) but not its second, with limits.on_exhausted ASK, and
// returns it suspended.
func askingRun(t *testing.T) (*testserver.Server, *runsvcv1.Run) {
	fake := fakeopenai.StartWith(t, fakeopenai.Options{ByConversation: true},
		fakeopenai.Turn{Calls: []fakeopenai.Call{{ID: "c1", Name: "step", Args: "{}"}}}, fakeopenai.Turn{Text: "done"})
	s := testserver.Start(t)
	s.Publish(t, fmt.Sprintf(`{"name": "asks", "model": {"provider": "openai", "model": "fake", "baseUrl": %q},
	  "tools": [{"name": "step", "kind": "TOOL_KIND_WORKER"}], "limits": {"tokenBudget": 25, "onExhausted": "BUDGET_EXHAUSTED_ASK"}}`, fake.URL))
	s.StartWorker(t, "steps", map[string]testserver.ToolFunc{"step": func(map[string]any) (any, *runsvcv1.ToolError) { return "ok", nil }})
	run := s.Wait(t, s.Start(t, "asks", "go").GetRunId())
	sus := run.GetSuspension()
	b := sus.GetBudget()
	if run.GetState() != runsvcv1.RunState_RUN_STATE_SUSPENDED || sus.GetReason() != runsvcv1.SuspensionReason_SUSPENSION_REASON_APPROVAL ||
		b.GetDimension() != "tokens" || b.GetSpent() != 15 || b.GetReserve() <= 0 || b.GetLimit() != 25 || b.GetSpent()+b.GetReserve() <= b.GetLimit() {
		t.Fatalf("run is %v with suspension %v", run.GetState(), sus)
	}
	return s, run
}

// TestBudgetAskApproved: the Run suspends for APPROVAL of its token
// budget with what it spent and would reserve; approving with a higher
// limit completes it.
func TestBudgetAskApproved(t *testing.T) {
	s, run := askingRun(t)
	_, err := s.Runs.ResumeRun(testserver.Context(t), &runsvcv1.ResumeRunRequest{RunId: run.GetRunId(), Approved: proto.Bool(true), BudgetLimit: proto.Float64(1000)})
	if err != nil {
		t.Fatal(err)
	}
	done := s.Settled(t, run.GetRunId())
	if done.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED || done.GetAnswer() != "done" {
		t.Fatalf("run settled %v with %q: %v", done.GetState(), done.GetAnswer(), done.GetFailure())
	}
}

// TestBudgetAskDenied: denying fails the Run BUDGET_EXCEEDED; approving
// without a limit that covers the ask is INVALID_REQUEST.
func TestBudgetAskDenied(t *testing.T) {
	s, run := askingRun(t)
	_, err := s.Runs.ResumeRun(testserver.Context(t), &runsvcv1.ResumeRunRequest{RunId: run.GetRunId(), Approved: proto.Bool(true), BudgetLimit: proto.Float64(20)})
	if reasonOf(err) != "INVALID_REQUEST" {
		t.Fatalf("approving with a limit below the spend: %v", err)
	}
	resp, err := s.Runs.ResumeRun(testserver.Context(t), &runsvcv1.ResumeRunRequest{RunId: run.GetRunId(), Approved: proto.Bool(false)})
	if err != nil {
		t.Fatal(err)
	}
	done := s.Settled(t, resp.GetRun().GetRunId())
	if done.GetState() != runsvcv1.RunState_RUN_STATE_FAILED || reasonOf(status.ErrorProto(done.GetFailure())) != "BUDGET_EXCEEDED" {
		t.Fatalf("run settled %v: %v", done.GetState(), done.GetFailure())
	}
}
