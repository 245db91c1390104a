package a2atool_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/tool"
	"github.com/runsvc/runsvc/internal/tool/a2atool"
	"github.com/runsvc/runsvc/internal/tool/a2atool/agenttest"
)

// call is a call of an a2a tool with message, to the agent by a.
func call(id, message string, a spec.A2ATool) tool.Call {
	args, _ := json.Marshal(map[string]string{"message": message})
	a.PollInterval = 20 * time.Millisecond
	return tool.Call{RunID: "run-1", CallID: id, Name: "agent", Arguments: args, Tool: spec.Tool{Name: "agent", Kind: spec.KindA2A, A2A: &a}}
}

// TestSampleAgent: against @a2a-js/sdk's server, over JSON-RPC, HTTP+JSON
// and through the agent card, a call's answer is the task's artifact
// (a data part as JSON), a FAILED task is TOOL_FAILED, a REJECTED one
// TOOL_REJECTED, and a question is a rejection outside a Run; the agent
// gets each message once, with the call's message id.
func TestSampleAgent(t *testing.T) {
	agent := agenttest.Start(t)
	x := a2atool.New(nil)
	ways := map[string]spec.A2ATool{
		"jsonrpc":   {URL: agent.JSONRPC()},
		"http+json": {URL: agent.REST(), Binding: spec.A2ABindingHTTPJSON},
		"card":      {CardURL: agent.CardURL()},
	}
	tests := []struct {
		message string
		want    string // the output, or the error's type
	}{
		{message: "hi", want: `"echo: hi"`},
		{message: "slow 50 later", want: `"echo: later"`},
		{message: "data x", want: `{"echo":"data x"}`},
		{message: "fail now", want: "*errs.ToolFailed"},
		{message: "reject this", want: "*errs.ToolRejected"},
		{message: "ask me", want: "*errs.ToolRejected"},
	}
	n := 0
	for way, a := range ways {
		for _, tt := range tests {
			t.Run(way+"/"+tt.message, func(t *testing.T) {
				n++
				c := call("call-"+way+"-"+tt.message, tt.message, a)
				out, err := x.Execute(context.Background(), c)
				got := string(out)
				if err != nil {
					got = typeName(err)
				}
				if got != tt.want {
					t.Errorf("got %s (%v), want %s", got, err, tt.want)
				}
				ids := agent.Messages(t)
				if len(ids) != n || ids[n-1] != tool.RemoteMessageID(c, 0) {
					t.Errorf("the agent received %v, want %d messages ending with %s", ids, n, tool.RemoteMessageID(c, 0))
				}
			})
		}
	}
}

// TestSampleAgentQuestion: a task asking for input is reported with its
// question; the answer sent as its next message completes it, and
// following it after the answer does not take the old question for a new
// one.
func TestSampleAgentQuestion(t *testing.T) {
	agent := agenttest.Start(t)
	x := a2atool.New(nil)
	ctx := context.Background()
	c := call("q", "ask me", spec.A2ATool{URL: agent.JSONRPC()})
	task, err := x.Send(ctx, c, tool.RemoteMessage{ID: tool.RemoteMessageID(c, 0), Text: "ask me"})
	if err != nil || task.ID == "" {
		t.Fatalf("Send: %+v %v", task, err)
	}
	task, err = x.Follow(ctx, c, task, "")
	if err != nil || task.State != tool.RemoteInputRequired || task.Question != "What is your name?" || task.QuestionID == "" {
		t.Fatalf("Follow: %+v %v", task, err)
	}
	if _, err := x.Send(ctx, c, tool.RemoteMessage{ID: tool.RemoteMessageID(c, 1), TaskID: task.ID, ContextID: task.ContextID, Text: "Ada"}); err != nil {
		t.Fatal(err)
	}
	done, err := x.Follow(ctx, c, tool.RemoteTask{ID: task.ID, State: tool.RemoteWorking}, task.QuestionID)
	if err != nil || done.State != tool.RemoteCompleted || string(done.Output) != `"hello Ada"` {
		t.Fatalf("after the answer: %+v %v", done, err)
	}
	_, err = x.Follow(ctx, c, tool.RemoteTask{ID: "no-such-task", State: tool.RemoteWorking}, "")
	var rejected *errs.ToolRejected
	if !errors.As(err, &rejected) || !strings.Contains(rejected.Message, "TASK_NOT_FOUND") {
		t.Errorf("an unknown task: %v, want TOOL_REJECTED naming TASK_NOT_FOUND", err)
	}
}

func typeName(err error) string {
	switch err.(type) {
	case *errs.ToolFailed:
		return "*errs.ToolFailed"
	case *errs.ToolRejected:
		return "*errs.ToolRejected"
	case *errs.TransientFailure:
		return "*errs.TransientFailure"
	case *errs.AccessDenied:
		return "*errs.AccessDenied"
	}
	return err.Error()
}

// TestSampleAgentCancel: over JSON-RPC and HTTP+JSON, Cancel of a working
// task reaches the agent as CancelTask and ends the task CANCELED; a
// task that completed already, one the agent refuses to cancel
// (TaskNotCancelable) and one it does not know (TaskNotFound) are nothing
// to do, not failures.
func TestSampleAgentCancel(t *testing.T) {
	agent := agenttest.Start(t)
	x := a2atool.New(nil)
	ctx := context.Background()
	ways := map[string]spec.A2ATool{
		"jsonrpc":   {URL: agent.JSONRPC()},
		"http+json": {URL: agent.REST(), Binding: spec.A2ABindingHTTPJSON},
	}
	for way, a := range ways {
		t.Run(way, func(t *testing.T) {
			send := func(message string) (tool.Call, tool.RemoteTask) {
				c := call("cancel-"+way+"-"+message, message, a)
				task, err := x.Send(ctx, c, tool.RemoteMessage{ID: tool.RemoteMessageID(c, 0), Text: message})
				if err != nil || task.ID == "" {
					t.Fatalf("Send %q: %+v %v", message, task, err)
				}
				return c, task
			}
			c, working := send("slow 30000 long")
			if err := x.Cancel(ctx, c, working.ID); err != nil {
				t.Fatalf("Cancel of a working task: %v", err)
			}
			_, err := x.Follow(ctx, c, working, "")
			var rejected *errs.ToolRejected
			if !errors.As(err, &rejected) || !strings.Contains(rejected.Message, "was canceled") {
				t.Errorf("the canceled task: %v, want it CANCELED", err)
			}
			c, done := send("hi")
			if _, err := x.Follow(ctx, c, done, ""); err != nil {
				t.Fatal(err)
			}
			c, refusing := send("slow 300 nocancel")
			for name, id := range map[string]string{"completed": done.ID, "not cancelable": refusing.ID, "unknown": "no-such-task"} {
				if err := x.Cancel(ctx, c, id); err != nil {
					t.Errorf("Cancel of a %s task: %v, want nothing to do", name, err)
				}
			}
			if cancels := agent.Cancels(t); !slices.Contains(cancels, working.ID) || !slices.Contains(cancels, refusing.ID) {
				t.Errorf("the agent saw cancels of %v, want %s and %s among them", cancels, working.ID, refusing.ID)
			}
		})
	}
}
