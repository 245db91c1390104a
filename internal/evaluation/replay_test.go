package evaluation_test

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/fakeopenai"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// shopSpec is a Spec whose scripted model charges through an http tool
// (a side effect), looks up through a worker tool, then answers.
func shopSpec(url, amount, answer string) string {
	return fmt.Sprintf(`{"name": "shop", "model": {"provider": "scripted", "script": {"turns": [
	  {"toolCalls": [{"name": "charge", "arguments": {"amount": %s}}, {"name": "lookup", "arguments": {"id": 1}}]},
	  {"text": %q}]}},
	  "tools": [{"name": "charge", "kind": "TOOL_KIND_HTTP", "http": {"url": %q}},
	            {"name": "lookup", "kind": "TOOL_KIND_WORKER"}]}`, amount, answer, url)
}

// shop is a server with the shop Spec published, its http endpoint and
// its worker, each counting what reaches it.
type shop struct {
	srv    *testserver.Server
	evals  runsvcv1.EvaluationServiceClient
	url    string
	posts  *atomic.Int32
	worker *testserver.Worker
	source *runsvcv1.Spec
}

func newShop(t *testing.T) *shop {
	var posts atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		posts.Add(1)
		_, _ = w.Write([]byte(`{"charged": true}`))
	}))
	t.Cleanup(ts.Close)
	srv := testserver.Start(t, func(c *server.Config) { c.AllowNetworks = []string{"127.0.0.0/8"} })
	worker := srv.StartWorker(t, "shop-worker", map[string]testserver.ToolFunc{
		"lookup": func(map[string]any) (any, *runsvcv1.ToolError) { return map[string]any{"stock": 3}, nil },
	})
	s := &shop{srv: srv, evals: runsvcv1.NewEvaluationServiceClient(srv.Conn), url: ts.URL, posts: &posts, worker: worker}
	s.source = srv.Publish(t, shopSpec(ts.URL, "5", "done"))
	return s
}

// record runs n Runs of the source Version to settle.
func (s *shop) record(t *testing.T, n int) {
	var ids []string
	for i := range n {
		ids = append(ids, s.srv.Start(t, "shop", fmt.Sprintf("order %d", i)).GetRunId())
	}
	for _, id := range ids {
		if run := s.srv.Settled(t, id); run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED {
			t.Fatalf("recorded Run %s: %v", id, run.GetState())
		}
	}
}

// evaluate evaluates version on the shop's Runs (limit 0: all) and waits
// for the report.
func (s *shop) evaluate(t *testing.T, version string, limit int32, evaluators ...*runsvcv1.Evaluator) *runsvcv1.Evaluation {
	t.Helper()
	ctx := testserver.Context(t)
	resp, err := s.evals.EvaluateVersion(ctx, &runsvcv1.EvaluateVersionRequest{
		Spec: "shop", Version: version, Runs: &runsvcv1.RunSelection{Spec: "shop", Limit: limit}, Evaluators: evaluators,
	})
	if err != nil {
		t.Fatalf("EvaluateVersion: %v", err)
	}
	return waitEvaluation(t, s.evals, resp.GetEvaluation().GetEvaluationId())
}

func waitEvaluation(t *testing.T, evals runsvcv1.EvaluationServiceClient, id string) *runsvcv1.Evaluation {
	t.Helper()
	ctx := testserver.Context(t)
	for {
		got, err := evals.GetEvaluation(ctx, &runsvcv1.GetEvaluationRequest{EvaluationId: id})
		if err != nil {
			t.Fatalf("GetEvaluation: %v", err)
		}
		if got.GetEvaluation().GetDone() {
			return got.GetEvaluation()
		}
		select {
		case <-ctx.Done():
			t.Fatalf("evaluation %s not done: %v", id, got.GetEvaluation().GetSummary())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// TestReplayMakesNoSideEffect: 100 recorded Runs replayed on a candidate
// identical to the source are 100 equal replays, and neither the http
// endpoint nor the worker sees a single call; the replays are Runs that
// GetRun shows and ListRuns of production does not list.
func TestReplayMakesNoSideEffect(t *testing.T) {
	s := newShop(t)
	s.record(t, 100)
	postsBefore, callsBefore := s.posts.Load(), s.worker.Calls("lookup")
	if postsBefore != 100 || callsBefore != 100 {
		t.Fatalf("recording made %d posts and %d worker calls, want 100 each", postsBefore, callsBefore)
	}
	ev := s.evaluate(t, s.source.GetVersion(), 0)
	sum := ev.GetSummary()
	if sum.GetRuns() != 100 || sum.GetEqual() != 100 || sum.GetScore() != 1 || sum.GetDiverged() != 0 || sum.GetFencedCalls() != 0 {
		t.Fatalf("summary = %v, want 100 equal replays scoring 1", sum)
	}
	if got, calls := s.posts.Load(), s.worker.Calls("lookup"); got != postsBefore || calls != callsBefore {
		t.Fatalf("the replays made %d posts and %d worker calls, want none", got-postsBefore, calls-callsBefore)
	}
	ctx := testserver.Context(t)
	replay, err := s.srv.Runs.GetRun(ctx, &runsvcv1.GetRunRequest{RunId: ev.GetRuns()[0].GetReplayRunId()})
	if err != nil || replay.GetRun().GetEvaluationId() != ev.GetEvaluationId() || replay.GetRun().GetReplayOf() != ev.GetRuns()[0].GetSourceRunId() {
		t.Fatalf("GetRun of a replay = %v, %v", replay.GetRun(), err)
	}
	listed, err := s.srv.Runs.ListRuns(ctx, &runsvcv1.ListRunsRequest{PageSize: 500})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(listed.GetRuns()); n != 100 {
		t.Fatalf("ListRuns lists %d Runs, want the 100 recorded ones only", n)
	}
}

// TestReplayFencesOtherArguments: over 100 recorded Runs, a candidate
// that charges another amount has that call fenced (never made: the
// endpoint and the worker see only the recording's calls; the model is
// told so), counted as a divergence at step 1; the recorded charge is
// missing; the lookup, which matches, is answered from the recording. A
// candidate that answers otherwise fails the gate, which names the
// failing Runs.
func TestReplayFencesOtherArguments(t *testing.T) {
	const recorded = 100
	s := newShop(t)
	s.record(t, recorded)
	other := s.srv.Publish(t, shopSpec(s.url, "7", "done"))
	ev := s.evaluate(t, other.GetVersion(), 0)
	if sum := ev.GetSummary(); sum.GetRuns() != recorded || sum.GetFencedCalls() != recorded || sum.GetDiverged() != recorded || sum.GetEqual() != 0 {
		t.Fatalf("summary = %v, want %d fenced calls in %d diverged replays", sum, recorded, recorded)
	}
	for _, r := range ev.GetRuns() {
		steps := r.GetTrajectory()
		want := []runsvcv1.TrajectoryChange{
			runsvcv1.TrajectoryChange_TRAJECTORY_CHANGE_FENCED, runsvcv1.TrajectoryChange_TRAJECTORY_CHANGE_SAME,
			runsvcv1.TrajectoryChange_TRAJECTORY_CHANGE_MISSING,
		}
		if len(steps) != 3 || r.GetFirstDivergence() != 1 || steps[0].GetTool() != "charge" || steps[0].GetArguments() != `{"amount":7}` {
			t.Fatalf("trajectory = %v, first divergence %d", steps, r.GetFirstDivergence())
		}
		for i, st := range steps {
			if st.GetChange() != want[i] {
				t.Fatalf("step %d = %v, want %v", i, st.GetChange(), want[i])
			}
		}
	}
	if got, calls := s.posts.Load(), s.worker.Calls("lookup"); got != recorded || calls != recorded {
		t.Fatalf("the endpoint saw %d posts and the worker %d calls, want the %d recorded ones", got, calls, recorded)
	}
	ctx := testserver.Context(t)
	if err := s.srv.Evaluations.Check(ctx, "default", ev.GetEvaluationId(), "shop", other.GetVersion(), 1); err != nil {
		t.Fatalf("gate on an evaluation scoring %v: %v", ev.GetSummary().GetScore(), err)
	}
	wrong := s.srv.Publish(t, shopSpec(s.url, "5", "wrong"))
	failed := s.evaluate(t, wrong.GetVersion(), 0)
	err := s.srv.Evaluations.Check(ctx, "default", failed.GetEvaluationId(), "shop", wrong.GetVersion(), 0.9)
	var refused *errs.EvaluationGateFailed
	if !errors.As(err, &refused) || len(refused.FailingRunIDs)+refused.More != recorded || refused.Score != 0 {
		t.Fatalf("gate on a failing candidate: %v", err)
	}
	if err := s.srv.Evaluations.Check(ctx, "default", "evl_missing", "shop", wrong.GetVersion(), 0.9); !errors.As(err, new(*errs.EvaluationNotFound)) {
		t.Fatalf("gate on an unknown evaluation: %v", err)
	}
}

// TestLLMJudgeScores: an LLM judge is a Spec on an OpenAI-compatible
// model (the fake server); each replay is judged by a Run of it given the
// question and both answers, and its score is in the report beside the
// other evaluators'.
func TestLLMJudgeScores(t *testing.T) {
	s := newShop(t)
	s.record(t, 3)
	model := fakeopenai.Start(t, fakeopenai.Turn{Text: `{"score": 0.8, "reason": "close enough"}`})
	s.srv.Publish(t, fmt.Sprintf(`{"name": "judge", "instructions": "Score the candidate answer against the recorded one.",
	  "model": {"provider": "openai", "model": "fake", "baseUrl": %q}}`, model.URL))
	ev := s.evaluate(t, s.source.GetVersion(), 0,
		&runsvcv1.Evaluator{Kind: &runsvcv1.Evaluator_Exact{Exact: &runsvcv1.ExactMatch{}}},
		&runsvcv1.Evaluator{Name: "judge", Kind: &runsvcv1.Evaluator_LlmJudge{LlmJudge: &runsvcv1.LlmJudge{Spec: "judge"}}},
		&runsvcv1.Evaluator{Kind: &runsvcv1.Evaluator_Regex{Regex: "^do"}})
	for _, r := range ev.GetRuns() {
		sc := r.GetScores()
		if len(sc) != 3 || sc[1].GetEvaluator() != "judge" || sc[1].GetScore() != 0.8 || sc[1].GetDetail() != "close enough" || sc[1].GetJudgeRunId() == "" {
			t.Fatalf("scores = %v", sc)
		}
		if want := (1 + 0.8 + 1) / 3.0; math.Abs(r.GetScore()-want) > 1e-9 {
			t.Fatalf("score = %v, want %v", r.GetScore(), want)
		}
	}
	reqs := model.Requests()
	if len(reqs) != 3 {
		t.Fatalf("the judge's model got %d requests, want 3", len(reqs))
	}
	msgs := fakeopenai.Messages(reqs[0])
	if last := fmt.Sprint(msgs[len(msgs)-1]["content"]); !strings.Contains(last, `"recorded_answer":"done"`) || !strings.Contains(last, `"candidate_answer":"done"`) {
		t.Fatalf("the judge was asked %s", last)
	}
	ctx := testserver.Context(t)
	if _, err := s.evals.DeleteEvaluation(ctx, &runsvcv1.DeleteEvaluationRequest{EvaluationId: ev.GetEvaluationId()}); err != nil {
		t.Fatal(err)
	}
	for _, r := range ev.GetRuns() {
		for _, id := range []string{r.GetReplayRunId(), r.GetScores()[1].GetJudgeRunId()} {
			if _, err := s.srv.Runs.GetRun(ctx, &runsvcv1.GetRunRequest{RunId: id}); status.Code(err) != codes.NotFound {
				t.Fatalf("Run %s of a deleted evaluation: %v", id, err)
			}
		}
	}
	if _, err := s.evals.GetEvaluation(ctx, &runsvcv1.GetEvaluationRequest{EvaluationId: ev.GetEvaluationId()}); status.Code(err) != codes.NotFound {
		t.Fatalf("GetEvaluation of a deleted evaluation: %v", err)
	}
}

// TestReplayMakesPureCallsAndStopsForAPerson: a call the recording lacks
// to a pure tool is made (EXTRA); a client tool call it lacks ends the
// replay as needing a person, not waiting.
func TestReplayMakesPureCallsAndStopsForAPerson(t *testing.T) {
	srv := testserver.Start(t)
	worker := srv.StartWorker(t, "stock", map[string]testserver.ToolFunc{
		"stock": func(map[string]any) (any, *runsvcv1.ToolError) { return 3, nil },
	})
	spec := func(call, tool string) string {
		return fmt.Sprintf(`{"name": "stocks", "model": {"provider": "scripted", "script": {"turns": [
		  {"toolCalls": [{"name": %q, "arguments": %s}]}, {"text": "done"}]}},
		  "tools": [{"name": "stock", "kind": "TOOL_KIND_WORKER", "pure": true}, {"name": "confirm", "kind": "TOOL_KIND_CLIENT"}]}`, tool, call)
	}
	srv.Publish(t, spec(`{"id": 1}`, "stock"))
	source := srv.Settled(t, srv.Start(t, "stocks", "go").GetRunId())
	evals := runsvcv1.NewEvaluationServiceClient(srv.Conn)
	for _, tt := range []struct {
		name, tool, args string
		want             runsvcv1.TrajectoryChange
		person           bool
		calls            int
	}{
		{name: "pure", tool: "stock", args: `{"id": 2}`, want: runsvcv1.TrajectoryChange_TRAJECTORY_CHANGE_EXTRA, calls: 2},
		{name: "client", tool: "confirm", args: `{}`, person: true, calls: 2},
	} {
		candidate := srv.Publish(t, spec(tt.args, tt.tool))
		resp, err := evals.EvaluateVersion(testserver.Context(t), &runsvcv1.EvaluateVersionRequest{
			Spec: "stocks", Version: candidate.GetVersion(), Runs: &runsvcv1.RunSelection{RunIds: []string{source.GetRunId()}},
		})
		if err != nil {
			t.Fatal(err)
		}
		r := waitEvaluation(t, evals, resp.GetEvaluation().GetEvaluationId()).GetRuns()[0]
		if r.GetNeedsPerson() != tt.person || worker.Calls("stock") != tt.calls {
			t.Fatalf("%s: needs a person %v, worker calls %d; want %v, %d", tt.name, r.GetNeedsPerson(), worker.Calls("stock"), tt.person, tt.calls)
		}
		if !tt.person && r.GetTrajectory()[0].GetChange() != tt.want {
			t.Fatalf("%s: trajectory %v", tt.name, r.GetTrajectory())
		}
	}
}

// TestReplayOfAThreadRunHasItsHistory: the replay of a thread's second
// Run gives the candidate's model the conversation the recorded Run
// continued (the first Run's input and answer) before its own input; the
// evaluation picks Runs by thread.
func TestReplayOfAThreadRunHasItsHistory(t *testing.T) {
	srv := testserver.Start(t)
	srv.Publish(t, `{"name": "chat", "model": {"provider": "scripted", "script": {"turns": [{"text": "noted"}]}}}`)
	ctx := testserver.Context(t)
	var last string
	for _, in := range []string{"my name is Ada", "what is my name?"} {
		resp, err := srv.Runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "chat", Input: in, ThreadId: "th-ada"})
		if err != nil {
			t.Fatal(err)
		}
		last = srv.Settled(t, resp.GetRun().GetRunId()).GetRunId()
	}
	model := fakeopenai.Start(t, fakeopenai.Turn{Text: "Ada"})
	candidate := srv.Publish(t, fmt.Sprintf(`{"name": "chat", "model": {"provider": "openai", "model": "fake", "baseUrl": %q}}`, model.URL))
	evals := runsvcv1.NewEvaluationServiceClient(srv.Conn)
	resp, err := evals.EvaluateVersion(ctx, &runsvcv1.EvaluateVersionRequest{
		Spec: "chat", Version: candidate.GetVersion(), Runs: &runsvcv1.RunSelection{ThreadId: "th-ada"},
	})
	if err != nil {
		t.Fatal(err)
	}
	ev := waitEvaluation(t, evals, resp.GetEvaluation().GetEvaluationId())
	if len(ev.GetRuns()) != 2 {
		t.Fatalf("the evaluation replays %d Runs of the thread, want 2", len(ev.GetRuns()))
	}
	continued := 0
	for _, req := range model.Requests() {
		var texts []string
		for _, m := range fakeopenai.Messages(req) {
			texts = append(texts, fmt.Sprint(m["content"]))
		}
		joined := strings.Join(texts, " | ")
		if strings.Contains(joined, "what is my name?") {
			continued++
			if !strings.Contains(joined, "my name is Ada | noted | what is my name?") {
				t.Fatalf("the replay of %s gave the model %s", last, joined)
			}
		}
	}
	if continued != 1 {
		t.Fatalf("%d model requests replayed the second Run, want 1", continued)
	}
}
