package runlog_test

import (
	"testing"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
)

// TestInDoubtResultText: the model sees a call in doubt word for word as
// issue 20 fixes it, apart from other tool failures.
func TestInDoubtResultText(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{name: "in doubt", err: &errs.ToolInDoubt{Tool: "charge", CallID: "call_1_1", Why: "the process making it stopped"},
			want: `{"tool": "charge", "error": "the call may or may not have happened: the process making it stopped", "in_doubt": true}`},
		{name: "an ordinary refusal", err: &errs.ToolRejected{Tool: "charge", Message: "card declined"},
			want: `{"tool": "charge", "error": "tool handler failed: card declined", "retryable": false}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stored := errs.Store(tt.err, "")
			if got := runlog.ResultText("charge", nil, &stored); got != tt.want {
				t.Errorf("ResultText = %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestInDoubtAnswerCovers: an answer covers the start it was given about,
// not a later one (a did_not_happen call made again and lost again).
func TestInDoubtAnswerCovers(t *testing.T) {
	ans := &runlog.InDoubtAnswer{Outcome: runlog.OutcomeDidNotHappen, Attempt: 2}
	tests := []struct {
		name    string
		started int
		want    bool
	}{
		{name: "started before the answer", started: 1, want: true},
		{name: "started in the attempt that asked", started: 2, want: true},
		{name: "started after the answer", started: 3, want: false},
		{name: "not started", started: 0, want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &runlog.Call{StartedAttempt: tt.started}
			if got := ans.Covers(c); got != tt.want {
				t.Errorf("Covers = %t, want %t", got, tt.want)
			}
		})
	}
	if (*runlog.InDoubtAnswer)(nil).Covers(&runlog.Call{StartedAttempt: 1}) {
		t.Error("no answer covers a call")
	}
}
