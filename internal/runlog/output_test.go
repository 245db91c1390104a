package runlog_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
)

// TestOutputChecked: a final answer that fails the output schema becomes
// an intermediate reply and a message naming the mismatch, once; the next
// failing answer stays the final (failing) answer; a conforming one
// resets the count.
func TestOutputChecked(t *testing.T) {
	bad := []errs.FieldViolation{{Field: "answer.q", Description: "got number, want string"}}
	answer := func(turn int, v []errs.FieldViolation) []runlog.Op {
		return []runlog.Op{&runlog.TurnStarted{Turn: turn}, &runlog.ModelCallStarted{Turn: turn}, &runlog.ModelCallFinished{Turn: turn, Text: `{"q": 1}`, OutputViolations: v}}
	}
	tests := []struct {
		name        string
		answers     [][]errs.FieldViolation
		phase       runlog.TurnPhase
		rejections  int
		lastMessage string // prefix of the last transcript message
	}{
		{"conforming", [][]errs.FieldViolation{nil}, runlog.PhaseAnswered, 0, `{"q": 1}`},
		{"first mismatch is asked again", [][]errs.FieldViolation{bad}, runlog.PhaseReplied, 1, "Your answer does not match the JSON Schema it must follow: answer.q: got number, want string."},
		{"second mismatch is final", [][]errs.FieldViolation{bad, bad}, runlog.PhaseAnswered, 2, `{"q": 1}`},
		{"a conforming answer resets", [][]errs.FieldViolation{bad, nil}, runlog.PhaseAnswered, 0, `{"q": 1}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ops := []runlog.Op{admitted(), &runlog.AttemptStarted{Attempt: 1, WorkerID: "w"}}
			for i, v := range tc.answers {
				ops = append(ops, answer(i+1, v)...)
			}
			st, err := runlog.Fold("run_1", logOf(ops...))
			if err != nil {
				t.Fatal(err)
			}
			last := st.Transcript[len(st.Transcript)-1]
			if st.Phase != tc.phase || st.OutputRejections != tc.rejections || !strings.HasPrefix(last.Text, tc.lastMessage) {
				t.Errorf("phase %s, rejections %d, last message %q; want %s, %d, %q", st.Phase, st.OutputRejections, last.Text, tc.phase, tc.rejections, tc.lastMessage)
			}
		})
	}
}

// TestProviderCallIDs: the provider's id travels beside runsvc's into the
// tool message; a record from before provider ids reads its id as both.
func TestProviderCallIDs(t *testing.T) {
	var old runlog.ModelCallFinished
	if err := json.Unmarshal([]byte(`{"turn":1,"toolCalls":[{"id":"call_0","name":"f"}]}`), &old); err != nil {
		t.Fatal(err)
	}
	ours := runlog.ToolCall{ID: "call_2_1", Name: "f", ProviderID: "call_0"}
	for _, tc := range []struct {
		name  string
		call  runlog.ToolCall
		wantP string
	}{{"old record", old.ToolCalls[0], "call_0"}, {"runsvc id", ours, "call_0"}} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := runlog.Fold("run_1", logOf(admitted(), &runlog.AttemptStarted{Attempt: 1, WorkerID: "w"},
				&runlog.TurnStarted{Turn: 1}, &runlog.ModelCallStarted{Turn: 1},
				&runlog.ModelCallFinished{Turn: 1, ToolCalls: []runlog.ToolCall{tc.call}},
				&runlog.ToolCallStarted{CallID: tc.call.ID, Name: "f"}, &runlog.ToolCallFinished{CallID: tc.call.ID, Name: "f", Output: json.RawMessage(`1`)}))
			if err != nil {
				t.Fatal(err)
			}
			msg := st.Transcript[len(st.Transcript)-1]
			provider := msg.ProviderCallID
			if provider == "" {
				provider = msg.CallID
			}
			if tc.call.ProviderCallID() != tc.wantP || provider != tc.wantP || msg.CallID != tc.call.ID {
				t.Errorf("provider id %q, tool message %+v; want provider id %q for call %s", tc.call.ProviderCallID(), msg, tc.wantP, tc.call.ID)
			}
		})
	}
}

// TestOutputReaskReplaysRecord: the reducer writes no model-facing text of
// its own. A Record that carries the engine's re-ask is folded into
// exactly the text it recorded and the decision it made, whatever the
// engine's wording is today; a Record from before the engine recorded it
// folds into the wording of the build that wrote it, frozen.
func TestOutputReaskReplaysRecord(t *testing.T) {
	const legacy = "Your answer does not match the JSON Schema it must follow: answer.q: got number, want string. Answer again with only a JSON value that matches the schema."
	bad := []errs.FieldViolation{{Field: "answer.q", Description: "got number, want string"}}
	oldRecord := func(turn int) *runlog.ModelCallFinished {
		var op runlog.ModelCallFinished
		raw := fmt.Sprintf(`{"turn":%d,"text":"{\"q\": 1}","outputViolations":[{"field":"answer.q","description":"got number, want string"}]}`, turn)
		if err := json.Unmarshal([]byte(raw), &op); err != nil {
			t.Fatal(err)
		}
		return &op
	}
	newRecord := func(turn int, reask runlog.OutputReask) *runlog.ModelCallFinished {
		return &runlog.ModelCallFinished{Turn: turn, Text: `{"q": 1}`, OutputViolations: bad, Reask: &reask}
	}
	tests := []struct {
		name    string
		answers []*runlog.ModelCallFinished
		phase   runlog.TurnPhase
		last    string // the last transcript message
	}{
		{"an old log folds to the frozen wording", []*runlog.ModelCallFinished{oldRecord(1)}, runlog.PhaseReplied, legacy},
		{"an old log's second mismatch is final", []*runlog.ModelCallFinished{oldRecord(1), oldRecord(2)}, runlog.PhaseAnswered, `{"q": 1}`},
		{"a new log replays the text it recorded", []*runlog.ModelCallFinished{newRecord(1, runlog.OutputReask{Text: "Fix answer.q, please.", Limit: 1})}, runlog.PhaseReplied, "Fix answer.q, please."},
		{"a new log that did not ask again stays final", []*runlog.ModelCallFinished{newRecord(1, runlog.OutputReask{Limit: 0})}, runlog.PhaseAnswered, `{"q": 1}`},
		{"a recorded limit above the legacy one is obeyed", []*runlog.ModelCallFinished{newRecord(1, runlog.OutputReask{Text: "again", Limit: 2}), newRecord(2, runlog.OutputReask{Text: "once more", Limit: 2})}, runlog.PhaseReplied, "once more"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ops := []runlog.Op{admitted(), &runlog.AttemptStarted{Attempt: 1, WorkerID: "w"}}
			for i, done := range tc.answers {
				ops = append(ops, &runlog.TurnStarted{Turn: i + 1}, &runlog.ModelCallStarted{Turn: i + 1}, done)
			}
			st, err := runlog.Fold("run_1", logOf(ops...))
			if err != nil {
				t.Fatal(err)
			}
			last := st.Transcript[len(st.Transcript)-1]
			if st.Phase != tc.phase || last.Text != tc.last {
				t.Errorf("phase %s, last message %q; want %s, %q", st.Phase, last.Text, tc.phase, tc.last)
			}
		})
	}
}
