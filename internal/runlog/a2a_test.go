package runlog_test

import (
	"errors"
	"testing"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
)

// TestA2ATaskFold: an a2a call's remote task is kept on the call; a
// question closes the open call so the Run can suspend on it; the answer
// ResumeRun gives is consumed once a reply is recorded; a task for
// another call, or a second task, is a corrupt log.
func TestA2ATaskFold(t *testing.T) {
	head := []runlog.Op{
		admitted(),
		&runlog.AttemptStarted{Attempt: 1, WorkerID: "w"},
		&runlog.TurnStarted{Turn: 1},
		&runlog.ModelCallStarted{Turn: 1},
		&runlog.ModelCallFinished{Turn: 1, ToolCalls: []runlog.ToolCall{call("c1", "agent")}},
		&runlog.ToolCallStarted{CallID: "c1", Name: "agent"},
		&runlog.A2ATask{CallID: "c1", TaskID: "t1", ContextID: "x1"},
	}
	asks := &runlog.A2ATask{CallID: "c1", TaskID: "t1", ContextID: "x1", Question: "Name?", QuestionID: "q1"}
	st, err := runlog.Fold("run_1", logOf(append(head,
		asks,
		&runlog.Suspended{Reason: runlog.ReasonQuestion, CallID: "c1", Question: "Name?"},
		&runlog.Resumed{Reason: runlog.ReasonQuestion, Answer: "Ada"},
	)...))
	if err != nil {
		t.Fatal(err)
	}
	c := st.Call("c1")
	if c.Remote == nil || c.Remote.TaskID != "t1" || c.Answer == nil || *c.Answer != "Ada" || st.Open != nil {
		t.Fatalf("after the question and its answer: remote %+v, answer %v, open %v", c.Remote, c.Answer, st.Open)
	}
	st, err = runlog.Fold("run_1", logOf(append(head,
		asks,
		&runlog.Suspended{Reason: runlog.ReasonQuestion, CallID: "c1", Question: "Name?"},
		&runlog.Resumed{Reason: runlog.ReasonQuestion, Answer: "Ada"},
		&runlog.AttemptStarted{Attempt: 2, WorkerID: "w"},
		&runlog.ToolCallStarted{CallID: "c1", Name: "agent"},
		&runlog.A2ATask{CallID: "c1", TaskID: "t1", ContextID: "x1", Replies: 1, Answered: "q1"},
		&runlog.ToolCallFinished{CallID: "c1", Name: "agent", Output: []byte(`"hello Ada"`)},
	)...))
	if err != nil {
		t.Fatal(err)
	}
	if c := st.Call("c1"); c.Answer != nil || c.Remote.Replies != 1 || !c.Finished {
		t.Fatalf("after the reply: answer %v, remote %+v, finished %v", c.Answer, c.Remote, c.Finished)
	}
	for name, bad := range map[string]runlog.Op{
		"another call":  &runlog.A2ATask{CallID: "c9", TaskID: "t1"},
		"a second task": &runlog.A2ATask{CallID: "c1", TaskID: "t2"},
	} {
		_, err := runlog.Fold("run_1", logOf(append(head, bad)...))
		var corrupt *errs.CorruptLog
		if !errors.As(err, &corrupt) {
			t.Errorf("%s: %v, want a corrupt log", name, err)
		}
	}
}
