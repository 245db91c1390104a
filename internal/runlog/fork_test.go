package runlog_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
)

// twoTurns is a log whose turn 1 calls lookup and whose turn 2 answers.
func twoTurns() []runlog.Record {
	return logOf(admitted(), &runlog.AttemptStarted{Attempt: 1, WorkerID: "w"},
		&runlog.TurnStarted{Turn: 1}, &runlog.ModelCallStarted{Turn: 1},
		&runlog.ModelCallFinished{Turn: 1, ToolCalls: []runlog.ToolCall{call("call_1_1", "lookup")}},
		&runlog.ToolCallStarted{CallID: "call_1_1", Name: "lookup"},
		&runlog.ToolCallFinished{CallID: "call_1_1", Name: "lookup", Output: []byte(`"found"`)},
		&runlog.TurnStarted{Turn: 2}, &runlog.ModelCallStarted{Turn: 2},
		&runlog.ModelCallFinished{Turn: 2, Text: "done"}, &runlog.Settled{State: runlog.StatusCompleted, Answer: "done"})
}

func TestForkPoint(t *testing.T) {
	for _, tc := range []struct {
		name      string
		turn      int
		atSeq     int64
		wantSeq   int64
		wantRoles []string
		wantErr   string
	}{
		{name: "turn 1", turn: 1, wantSeq: 3, wantRoles: []string{"user"}},
		{name: "turn 2", turn: 2, wantSeq: 8, wantRoles: []string{"user", "assistant", "tool"}},
		{name: "at seq 8", atSeq: 8, wantSeq: 8, wantRoles: []string{"user", "assistant", "tool"}},
		{name: "turn 3", turn: 3, wantErr: "the run has no turn 3: it made 2"},
		{name: "seq 5", atSeq: 5, wantErr: "seq 5 is not a turn boundary: turns start at seqs [3 8]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := runlog.ForkPoint("run_1", twoTurns(), tc.turn, tc.atSeq)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("err %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var roles []string
			for _, m := range f.Transcript {
				roles = append(roles, m.Role)
			}
			if f.Seq != tc.wantSeq || !slices.Equal(roles, tc.wantRoles) {
				t.Errorf("fork at seq %d with roles %v, want seq %d with %v", f.Seq, roles, tc.wantSeq, tc.wantRoles)
			}
		})
	}
}

// TestForkedFold: a fork's admission gives it the source's transcript and
// turn, with the new input after it; its next turn is the fork's turn.
func TestForkedFold(t *testing.T) {
	f, err := runlog.ForkPoint("run_1", twoTurns(), 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	adm := admitted()
	adm.Input, adm.Fork = "and then?", f
	st, err := runlog.Fold("run_2", logOf(adm, &runlog.AttemptStarted{Attempt: 1, WorkerID: "w"}, &runlog.TurnStarted{Turn: 2}))
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Transcript) != 4 || st.Transcript[3].Text != "and then?" || st.Turn != 2 || st.Admission.Fork.Transcript != nil {
		t.Errorf("transcript %v, turn %d, admission fork %v", st.Transcript, st.Turn, st.Admission.Fork)
	}
	if _, err := runlog.Fold("run_2", logOf(adm, &runlog.AttemptStarted{Attempt: 1, WorkerID: "w"}, &runlog.TurnStarted{Turn: 1})); err == nil {
		t.Error("a fork before turn 2 started turn 1")
	}
}

// TestHistoryCompactedFold: a compaction replaces a prefix of the
// transcript, or of the thread history before it, for the model; one that
// covers nothing new, less history than before, or more than there is, is
// corrupt.
func TestHistoryCompactedFold(t *testing.T) {
	base := twoTurns()[:7]
	for _, tc := range []struct {
		name     string
		ops      []runlog.Op
		corrupt  bool
		messages int
		history  int
	}{
		{name: "one", ops: []runlog.Op{&runlog.HistoryCompacted{Turn: 2, ThroughTurn: 1, Messages: 1, Summary: "s"}}, messages: 1},
		{name: "then more", ops: []runlog.Op{&runlog.HistoryCompacted{Turn: 2, Messages: 1, Summary: "s"}, &runlog.HistoryCompacted{Turn: 2, Messages: 3, Summary: "t"}}, messages: 3},
		{name: "nothing new", ops: []runlog.Op{&runlog.HistoryCompacted{Turn: 2, Messages: 1}, &runlog.HistoryCompacted{Turn: 2, Messages: 1}}, corrupt: true},
		{name: "too many", ops: []runlog.Op{&runlog.HistoryCompacted{Turn: 2, Messages: 4}}, corrupt: true},
		{name: "thread history only", ops: []runlog.Op{&runlog.HistoryCompacted{Turn: 2, HistoryMessages: 5, Summary: "h"}}, history: 5},
		{name: "history then transcript", ops: []runlog.Op{&runlog.HistoryCompacted{Turn: 2, HistoryMessages: 5, Summary: "h"},
			&runlog.HistoryCompacted{Turn: 2, HistoryMessages: 6, Messages: 2, Summary: "t"}}, history: 6, messages: 2},
		{name: "history shrinks", ops: []runlog.Op{&runlog.HistoryCompacted{Turn: 2, HistoryMessages: 5, Summary: "h"},
			&runlog.HistoryCompacted{Turn: 2, HistoryMessages: 4, Messages: 2}}, corrupt: true},
		{name: "no history news", ops: []runlog.Op{&runlog.HistoryCompacted{Turn: 2, HistoryMessages: 5, Summary: "h"},
			&runlog.HistoryCompacted{Turn: 2, HistoryMessages: 5}}, corrupt: true},
		{name: "negative history", ops: []runlog.Op{&runlog.HistoryCompacted{Turn: 2, HistoryMessages: -1, Messages: 1}}, corrupt: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ops := make([]runlog.Op, 0, len(base)+len(tc.ops))
			for _, r := range base {
				ops = append(ops, r.Op)
			}
			st, err := runlog.Fold("run_1", logOf(append(ops, tc.ops...)...))
			var corrupt *errs.CorruptLog
			if tc.corrupt {
				if !errors.As(err, &corrupt) || corrupt.Reason != errs.CorruptCompaction {
					t.Fatalf("err %v, want compaction_out_of_range", err)
				}
				return
			}
			if err != nil || st.Compaction.Messages != tc.messages || st.Compaction.HistoryMessages != tc.history || len(st.Transcript) != 3 {
				t.Errorf("err %v, compaction %+v, transcript %d messages", err, st.Compaction, len(st.Transcript))
			}
		})
	}
}
