package engine

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
)

// TestOpenRemoteTasks: the tasks an interrupted Run cancels are those of
// its a2a calls the agent did not answer: one the Run was suspended on
// (unfinished) and one the abort closed as orphaned; never a call the
// agent answered or failed, nor one that recorded no task.
func TestOpenRemoteTasks(t *testing.T) {
	failed := errs.Stored{Message: "the agent's task failed"}
	remote := func(id string) *runlog.A2ATask { return &runlog.A2ATask{CallID: id, TaskID: "task-" + id} }
	st := &runlog.State{Calls: []*runlog.Call{
		{ToolCall: runlog.ToolCall{ID: "asking"}, Remote: remote("asking")},
		{ToolCall: runlog.ToolCall{ID: "orphaned"}, Remote: remote("orphaned"), Finished: true, Orphaned: true, Error: &failed},
		{ToolCall: runlog.ToolCall{ID: "answered"}, Remote: remote("answered"), Finished: true, Output: json.RawMessage(`"ok"`)},
		{ToolCall: runlog.ToolCall{ID: "failed"}, Remote: remote("failed"), Finished: true, Error: &failed},
		{ToolCall: runlog.ToolCall{ID: "unsent"}, Finished: true, Orphaned: true, Error: &failed},
	}}
	var got []string
	for _, c := range openRemoteTasks(st) {
		got = append(got, c.Remote.TaskID)
	}
	if want := []string{"task-asking", "task-orphaned"}; !slices.Equal(got, want) {
		t.Errorf("open remote tasks %v, want %v", got, want)
	}
}
