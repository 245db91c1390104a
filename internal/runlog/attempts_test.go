package runlog_test

import (
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/runlog"
)

// by is a Record and the Attempt that wrote it, 0 for an outsider.
type by struct {
	attempt int
	op      runlog.Op
}

// logBy numbers steps from seq 1, each stamped with its writer.
func logBy(steps ...by) []runlog.Record {
	out := make([]runlog.Record, len(steps))
	for i, s := range steps {
		out[i] = runlog.Record{Seq: int64(i + 1), Time: t0.Add(time.Duration(i) * time.Second), Attempt: s.attempt, Op: s.op}
	}
	return out
}

// clientTurn is one turn of Attempt n that asks a client tool and
// suspends for it, the outsider's resume that answers it, and Attempt
// n+1, which the resume needs, recording the result.
func clientTurn(n, turn int) []by {
	id := "c" + string(rune('0'+turn))
	return []by{
		{n, &runlog.TurnStarted{Turn: turn}},
		{n, &runlog.ModelCallStarted{Turn: turn}},
		{n, &runlog.ModelCallFinished{Turn: turn, ToolCalls: []runlog.ToolCall{call(id, "lookup")}}},
		{n, &runlog.Suspended{Reason: runlog.ReasonToolResults, ExpireAt: t0.Add(time.Hour), CallIDs: []string{id}}},
		{0, &runlog.Resumed{Reason: runlog.ReasonToolResults, Results: []runlog.ToolResult{{CallID: id, Output: []byte(`1`)}}}},
		attemptBy(n + 1),
		{n + 1, &runlog.ToolCallStarted{CallID: id, Name: "lookup"}},
		{n + 1, &runlog.ToolCallFinished{CallID: id, Name: "lookup", Output: []byte(`1`)}},
	}
}

func attemptBy(n int) by { return by{n, &runlog.AttemptStarted{Attempt: n, WorkerID: "w"}} }

// TestDiedAttempts: the fold counts the Attempts that ended without
// settling the Run or leaving it suspended, and only those; an Attempt
// after a suspension is not one that died, whoever wrote meanwhile.
func TestDiedAttempts(t *testing.T) {
	adm := by{0, admitted()}
	turnOpen := func(n, turn int) []by {
		return []by{{n, &runlog.TurnStarted{Turn: turn}}, {n, &runlog.ModelCallStarted{Turn: turn}}}
	}
	children := []by{
		{1, &runlog.TurnStarted{Turn: 1}}, {1, &runlog.ModelCallStarted{Turn: 1}},
		{1, &runlog.ModelCallFinished{Turn: 1, ToolCalls: []runlog.ToolCall{call("d", "delegate")}}},
		{1, &runlog.DelegationStarted{DelegationID: "d1", ChildRunID: "run_2", Spec: "child", Task: "t", CallID: "d"}},
		{1, &runlog.Suspended{Reason: runlog.ReasonChildren, ExpireAt: t0.Add(time.Hour), DelegationIDs: []string{"d1"}}},
	}
	join := func(parts ...[]by) []by {
		var out []by
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	cases := []struct {
		name string
		log  []by
		// died is DiedAttempts; next is NextAttemptFollowsDeath.
		died int
		next bool
	}{
		{"first attempt running", join([]by{adm, attemptBy(1)}, turnOpen(1, 1)), 0, true},
		{"three client turns, each a new attempt", join([]by{adm, attemptBy(1)}, clientTurn(1, 1), clientTurn(2, 2), clientTurn(3, 3)), 0, true},
		{"suspended, nothing after", join([]by{adm, attemptBy(1)}, clientTurn(1, 1)[:4]), 0, false},
		{"crash mid-turn", join([]by{adm, attemptBy(1)}, turnOpen(1, 1), []by{attemptBy(2)}), 1, true},
		{"crash after a resume", join([]by{adm, attemptBy(1)}, clientTurn(1, 1), turnOpen(2, 2), []by{attemptBy(3)}), 1, true},
		{"first attempt stored nothing", []by{adm, {2, &runlog.AttemptStarted{Attempt: 1}}, attemptBy(2)}, 1, true},
		{"crash after an outsider's message", join([]by{adm, attemptBy(1)}, turnOpen(1, 1), []by{{0, &runlog.MessageQueued{Text: "also", Mode: runlog.ModeSteer}}, attemptBy(2)}), 1, true},
		{"woken while still suspended", join([]by{adm, attemptBy(1)}, clientTurn(1, 1)[:4], []by{attemptBy(2), attemptBy(3)}), 0, false},
		{"crash after catching up on children", join([]by{adm, attemptBy(1)}, children, []by{attemptBy(2), {2, &runlog.DelegationFinished{DelegationID: "d1", ChildRunID: "run_2", State: runlog.StatusCompleted}}, {2, &runlog.Resumed{Reason: runlog.ReasonChildren}}, attemptBy(3)}), 1, true},
		{"children resumed by an outsider", join([]by{adm, attemptBy(1)}, children, []by{{0, &runlog.DelegationFinished{DelegationID: "d1", ChildRunID: "run_2", State: runlog.StatusCompleted}}, {0, &runlog.Resumed{Reason: runlog.ReasonChildren}}, attemptBy(2)}), 0, true},
		{"crashes and turns mixed", join([]by{adm, attemptBy(1)}, turnOpen(1, 1), []by{attemptBy(2), {2, &runlog.ModelCallStarted{Turn: 1}}, {2, &runlog.ModelCallFinished{Turn: 1, ToolCalls: []runlog.ToolCall{call("c1", "lookup")}}}, {2, &runlog.Suspended{Reason: runlog.ReasonToolResults, ExpireAt: t0.Add(time.Hour), CallIDs: []string{"c1"}}}, {0, &runlog.Resumed{Reason: runlog.ReasonToolResults, Results: []runlog.ToolResult{{CallID: "c1", Output: []byte(`1`)}}}}, attemptBy(3), attemptBy(4)}), 2, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := runlog.Fold("run_1", logBy(c.log...))
			if err != nil {
				t.Fatal(err)
			}
			if s.DiedAttempts != c.died || s.NextAttemptFollowsDeath() != c.next {
				t.Errorf("after %d attempts: %d died, next follows a death %v; want %d, %v", s.Attempt, s.DiedAttempts, s.NextAttemptFollowsDeath(), c.died, c.next)
			}
		})
	}
}
