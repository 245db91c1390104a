package server_test

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/testing/fakeopenai"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// forkSpec is a Spec whose model is the fake OpenAI server at url and
// whose tools a, b and c are served by a worker.
func forkSpec(url string) string {
	return fmt.Sprintf(`{"name": "forked", "model": {"provider": "openai", "model": "fake", "baseUrl": %q},
	  "tools": [{"name": "a", "kind": "TOOL_KIND_WORKER"}, {"name": "b", "kind": "TOOL_KIND_WORKER"}, {"name": "c", "kind": "TOOL_KIND_WORKER"}]}`, url)
}

// rawLog is a Run's log as the store holds it, to compare byte for byte.
func rawLog(t *testing.T, s *testserver.Server, runID string) []store.Record {
	t.Helper()
	recs, err := s.Store.ReadLog(testserver.Context(t), store.DefaultTenant, runID, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func sameLog(a, b []store.Record) bool {
	return slices.EqualFunc(a, b, func(x, y store.Record) bool {
		return x.Seq == y.Seq && x.Time.Equal(y.Time) && x.Attempt == y.Attempt && x.Kind == y.Kind && bytes.Equal(x.Body, y.Body)
	})
}

// TestForkAtTurnTwo: a 4-turn Run calls a, b and c, one a turn, then
// answers. Forked at turn 2, the fork's log starts from turn 2's state
// (its first model request carries turn 1's call and result), it makes
// only b and c again (the worker's counts), and settles; the source's log
// is byte-identical before and after.
func TestForkAtTurnTwo(t *testing.T) {
	call := func(name string) fakeopenai.Turn {
		return fakeopenai.Turn{Calls: []fakeopenai.Call{{ID: "p_" + name, Name: name, Args: `{}`}}}
	}
	model := fakeopenai.Start(t, call("a"), call("b"), call("c"), fakeopenai.Turn{Text: "source done"},
		call("b"), call("c"), fakeopenai.Turn{Text: "fork done"})
	s := testserver.Start(t)
	s.Publish(t, forkSpec(model.URL))
	answer := func(name string) testserver.ToolFunc {
		return func(map[string]any) (any, *runsvcv1.ToolError) { return "result of " + name, nil }
	}
	w := s.StartWorker(t, "forker", map[string]testserver.ToolFunc{"a": answer("a"), "b": answer("b"), "c": answer("c")})
	src := s.Start(t, "forked", "go")
	if got := s.Settled(t, src.GetRunId()); got.GetAnswer() != "source done" || got.GetTurn() != 4 {
		t.Fatalf("source settled %v with %q after %d turns", got.GetState(), got.GetAnswer(), got.GetTurn())
	}
	before := rawLog(t, s, src.GetRunId())

	resp, err := s.Runs.ForkRun(testserver.Context(t), &runsvcv1.ForkRunRequest{RunId: src.GetRunId(), At: &runsvcv1.ForkRunRequest_Turn{Turn: 2}})
	if err != nil {
		t.Fatalf("ForkRun: %v", err)
	}
	fork := s.Settled(t, resp.GetRun().GetRunId())
	if fork.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED || fork.GetAnswer() != "fork done" {
		t.Errorf("fork settled %v with %q, want COMPLETED with \"fork done\"", fork.GetState(), fork.GetAnswer())
	}
	for tool, want := range map[string]int{"a": 1, "b": 2, "c": 2} {
		if got := w.Calls(tool); got != want {
			t.Errorf("the worker got %d calls of %s, want %d (the fork makes only the calls after turn 2's start)", got, tool, want)
		}
	}
	if !sameLog(before, rawLog(t, s, src.GetRunId())) {
		t.Error("the source's log changed when it was forked")
	}

	recs := s.Records(t, fork.GetRunId())
	origin := recs[0].GetAdmitted().GetForkOf()
	if origin.GetRunId() != src.GetRunId() || origin.GetTurn() != 2 || fork.GetForkOf().GetSeq() != origin.GetSeq() {
		t.Errorf("fork origin in its record %v, in the Run %v; want run %s turn 2", origin, fork.GetForkOf(), src.GetRunId())
	}
	if atSeq := before[origin.GetSeq()-1]; atSeq.Kind != "turn_started" {
		t.Errorf("fork origin seq %d is a %s record in the source, want turn_started", origin.GetSeq(), atSeq.Kind)
	}
	var turns []int32
	for _, r := range recs {
		if ts := r.GetTurnStarted(); ts != nil {
			turns = append(turns, ts.GetTurn())
		}
	}
	if !slices.Equal(turns, []int32{2, 3, 4}) {
		t.Errorf("the fork made turns %v, want [2 3 4]", turns)
	}
	reqs := model.Requests()
	var roles []string
	for _, m := range fakeopenai.Messages(reqs[4]) {
		roles = append(roles, fmt.Sprint(m["role"]))
		if m["role"] == "tool" && m["tool_call_id"] != "p_a" {
			t.Errorf("the fork's first request answers call %v, want the source's p_a", m["tool_call_id"])
		}
	}
	if !slices.Equal(roles, []string{"user", "assistant", "tool"}) {
		t.Errorf("the fork's first model request has roles %v, want turn 1's [user assistant tool]", roles)
	}
}
