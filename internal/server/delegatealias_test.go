package server_test

import (
	"fmt"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// stoppable is a runsvc on a data directory of the test's choosing, which
// the test stops (gracefully) to start another on the same SQLite file.
type stoppable struct {
	specs   runsvcv1.SpecServiceClient
	runs    runsvcv1.RunServiceClient
	aliases runsvcv1.AliasServiceClient
	stop    func()
}

func serveOn(t *testing.T, data string) *stoppable {
	t.Helper()
	s := testserver.Start(t, testserver.WithData(data))
	return &stoppable{specs: s.Specs, runs: s.Runs, aliases: runsvcv1.NewAliasServiceClient(s.Conn), stop: s.Stop}
}

// The Specs of the delegation tests: child v1 asks a question before it
// answers "one" (so its parent stays mid-delegation), child v2 answers
// "two"; parent delegates to child@prod, and stray to child@nope.
const (
	childV1 = `{"name": "child", "tools": [{"name": "ask_user", "kind": "TOOL_KIND_BUILTIN"}], "model": {"provider": "scripted", "script": {"turns": [
	  {"toolCalls": [{"name": "ask_user", "arguments": {"question": "ready?"}}]}, {"text": "one"}]}}}`
	childV2      = `{"name": "child", "model": {"provider": "scripted", "script": {"turns": [{"text": "two"}]}}}`
	delegatingTo = `{"name": %q, "delegates": [%q], "model": {"provider": "scripted", "script": {"turns": [
	  {"toolCalls": [{"name": "delegate", "arguments": {"to": %[2]q, "task": "do it"}}]}, {"text": "relayed"}]}}}`
)

// childOf returns the one child Run of parent, waiting for it to exist.
func childOf(t *testing.T, rs runsvcv1.RunServiceClient, parentRunID string) *runsvcv1.Run {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := rs.ListRuns(ctxT(t), &runsvcv1.ListRunsRequest{ParentRunId: parentRunID})
		if err != nil {
			t.Fatal(err)
		}
		switch n := len(resp.GetRuns()); {
		case n == 1:
			return resp.GetRuns()[0]
		case n > 1:
			t.Fatalf("parent %s has %d children, want one", parentRunID, n)
		case time.Now().After(deadline):
			t.Fatalf("parent %s started no child", parentRunID)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// delegateResult is the result of the parent's delegate call: the child's
// answer, or the error the model was told.
func delegateResult(t *testing.T, rs runsvcv1.RunServiceClient, runID string) *runsvcv1.Record_ToolCallFinished {
	t.Helper()
	var found *runsvcv1.Record_ToolCallFinished
	for _, r := range testserver.Records(t, rs, runID) {
		if f := r.GetToolCallFinished(); f != nil {
			if found != nil {
				t.Fatalf("run %s finished more than one tool call", runID)
			}
			found = f
		}
	}
	if found == nil {
		t.Fatalf("run %s finished no tool call", runID)
	}
	return found
}

// waitRun waits until a Run is in state.
func waitRun(t *testing.T, rs runsvcv1.RunServiceClient, runID string, state runsvcv1.RunState) *runsvcv1.Run {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := rs.WaitRun(ctxT(t), &runsvcv1.WaitRunRequest{RunId: runID, Wait: durationpb.New(5 * time.Second)})
		if err != nil {
			t.Fatalf("WaitRun(%s): %v", runID, err)
		}
		if run := resp.GetRun(); run.GetState() == state {
			return run
		} else if time.Now().After(deadline) {
			t.Fatalf("run %s is %v, want %v", runID, run.GetState(), state)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func startOn(t *testing.T, rs runsvcv1.RunServiceClient, specName string) string {
	t.Helper()
	resp, err := rs.StartRun(ctxT(t), &runsvcv1.StartRunRequest{Spec: specName, Input: "go"})
	if err != nil {
		t.Fatalf("StartRun(%s): %v", specName, err)
	}
	return resp.GetRun().GetRunId()
}

// wantChild checks a child Run's Version, alias and side.
func wantChild(t *testing.T, child *runsvcv1.Run, version string) {
	t.Helper()
	if child.GetVersion() != version || child.GetAlias() != "prod" || child.GetAliasSide() != runsvcv1.AliasSide_ALIAS_SIDE_PRIMARY {
		t.Fatalf("child %s runs %s on alias %q side %v; want %s on prod, PRIMARY", child.GetRunId(), child.GetVersion(), child.GetAlias(), child.GetAliasSide(), version)
	}
}

// TestDelegatesNameAnAlias: parent lists child@prod. With prod on v1 a
// parent Run's delegate call starts its child on v1, the alias recorded;
// prod moves to v2 and a new parent Run's child runs v2; the first parent,
// mid-delegation, keeps its child on v1 across a restart of runsvc on the
// same SQLite file after the move, and gets v1's answer.
func TestDelegatesNameAnAlias(t *testing.T) {
	data := t.TempDir()
	s := serveOn(t, data)
	v1 := testserver.Publish(t, s.specs, childV1).GetVersion()
	v2 := testserver.Publish(t, s.specs, childV2).GetVersion()
	testserver.Publish(t, s.specs, fmt.Sprintf(delegatingTo, "parent", "child@prod"))
	moveAlias(t, s.aliases, &runsvcv1.MoveAliasRequest{Spec: "child", Alias: "prod", Version: v1})

	first := startOn(t, s.runs, "parent")
	waitRun(t, s.runs, first, runsvcv1.RunState_RUN_STATE_SUSPENDED)
	onV1 := childOf(t, s.runs, first)
	wantChild(t, waitRun(t, s.runs, onV1.GetRunId(), runsvcv1.RunState_RUN_STATE_SUSPENDED), v1)

	moveAlias(t, s.aliases, &runsvcv1.MoveAliasRequest{Spec: "child", Alias: "prod", Version: v2})
	second := startOn(t, s.runs, "parent")
	waitRun(t, s.runs, second, runsvcv1.RunState_RUN_STATE_COMPLETED)
	wantChild(t, childOf(t, s.runs, second), v2)
	if got := delegateResult(t, s.runs, second).GetOutput().GetStructValue().GetFields(); got["answer"].GetStringValue() != "two" || got["agent"].GetStringValue() != "child@prod" {
		t.Fatalf("the second parent's delegate call answered %v, want child@prod's two", got)
	}

	s.stop()
	s = serveOn(t, data)
	if _, err := s.runs.ResumeRun(ctxT(t), &runsvcv1.ResumeRunRequest{RunId: onV1.GetRunId(), Answer: "yes"}); err != nil {
		t.Fatalf("answering the child's question: %v", err)
	}
	waitRun(t, s.runs, first, runsvcv1.RunState_RUN_STATE_COMPLETED)
	child := childOf(t, s.runs, first)
	wantChild(t, child, v1)
	if child.GetRunId() != onV1.GetRunId() || child.GetAnswer() != "one" {
		t.Fatalf("the first parent's child is %s answering %q; want %s answering one", child.GetRunId(), child.GetAnswer(), onV1.GetRunId())
	}
	if got := delegateResult(t, s.runs, first).GetOutput().GetStructValue().GetFields(); got["answer"].GetStringValue() != "one" {
		t.Fatalf("the first parent's delegate call answered %v, want v1's one", got)
	}
}

// TestDelegateToAMissingAlias: a delegate call to child@nope, an alias
// child does not have, is the tool error ALIAS_NOT_FOUND the model sees;
// no child starts and the parent goes on to its answer.
func TestDelegateToAMissingAlias(t *testing.T) {
	s := testserver.Start(t)
	s.Publish(t, childV2)
	s.Publish(t, fmt.Sprintf(delegatingTo, "stray", "child@nope"))
	run := s.Settled(t, s.Start(t, "stray", "go").GetRunId())
	if run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED || run.GetAnswer() != "relayed" {
		t.Fatalf("the parent ended %v %q (%v), want COMPLETED", run.GetState(), run.GetAnswer(), run.GetFailure())
	}
	c := errdetails.ClassifyStatus(delegateResult(t, s.Runs, run.GetRunId()).GetError())
	if c.Reason != "ALIAS_NOT_FOUND" || c.Metadata["alias"] != "nope" || c.Metadata["spec"] != "child" {
		t.Fatalf("the delegate call's error is %+v, want ALIAS_NOT_FOUND of child@nope", c)
	}
	children, err := s.Runs.ListRuns(ctxT(t), &runsvcv1.ListRunsRequest{ParentRunId: run.GetRunId()})
	if err != nil || len(children.GetRuns()) != 0 {
		t.Fatalf("children %v, %v; want none", children.GetRuns(), err)
	}
}

// TestDelegateRequestByAListedAlias: a parent whose Spec lists child@prod
// may delegate to child through DelegationService, by that alias or by
// another way of naming child (the list says which Specs; the caller which
// Version), but not to a Spec it does not list.
func TestDelegateRequestByAListedAlias(t *testing.T) {
	s := testserver.Start(t)
	v2 := s.Publish(t, childV2).GetVersion()
	moveAlias(t, runsvcv1.NewAliasServiceClient(s.Conn), &runsvcv1.MoveAliasRequest{Spec: "child", Alias: "prod", Version: v2})
	s.Publish(t, `{"name": "asker", "delegates": ["child@prod"], "tools": [{"name": "ask_user", "kind": "TOOL_KIND_BUILTIN"}],
	  "model": {"provider": "scripted", "script": {"turns": [{"toolCalls": [{"name": "ask_user", "arguments": {"question": "?"}}]}, {"text": "done"}]}}}`)
	parent := s.Wait(t, s.Start(t, "asker", "go").GetRunId())
	for _, name := range []string{"child@prod", "child"} {
		resp, err := s.Delegation.Delegate(ctxT(t), &runsvcv1.DelegateRequest{ParentRunId: parent.GetRunId(), Spec: name, Task: "go"})
		if err != nil || resp.GetDelegation().GetAnswer() != "two" {
			t.Fatalf("Delegate(%s) = %v, %v", name, resp, err)
		}
	}
	_, err := s.Delegation.Delegate(ctxT(t), &runsvcv1.DelegateRequest{ParentRunId: parent.GetRunId(), Spec: "asker", Task: "go"})
	if c := errdetails.Classify(err); c.Reason != "INVALID_REQUEST" {
		t.Fatalf("Delegate(asker) = %+v, want INVALID_REQUEST", c)
	}
}
