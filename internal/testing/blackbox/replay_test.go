package blackbox_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/blackbox"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// chargeSpec charges amount through an http tool (after delay in the
// model), then answers.
func chargeSpec(url, amount, delay string) string {
	return fmt.Sprintf(`{"name": "charges", "model": {"provider": "scripted", "script": {"turns": [
	  {"toolCalls": [{"name": "charge", "arguments": {"amount": %s}}], "delay": %q},
	  {"text": "done"}]}},
	 "tools": [{"name": "charge", "kind": "TOOL_KIND_HTTP", "http": {"url": %q}}]}`, amount, delay, url)
}

// TestReplaySurvivesKillAndNeverMakesAFencedCall: kill -9 the server while
// a replay's model is answering; after a restart the replay is taken over
// like any Run, and the call the candidate then makes with other
// arguments is fenced: the http endpoint saw only the recorded Run's call.
func TestReplaySurvivesKillAndNeverMakesAFencedCall(t *testing.T) {
	var posts atomic.Int32
	endpoint := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		posts.Add(1)
		_, _ = w.Write([]byte(`{"charged": true}`))
	}))
	t.Cleanup(endpoint.Close)
	data, addr := t.TempDir(), blackbox.FreePort(t)
	args := []string{"--data", data, "--lease-ttl", "2s", "--allow-network", "127.0.0.0/8"}
	p := blackbox.Serve(t, addr, args...)
	conn := p.Dial(t)
	specs, runs := runsvcv1.NewSpecServiceClient(conn), runsvcv1.NewRunServiceClient(conn)
	testserver.Publish(t, specs, chargeSpec(endpoint.URL, "5", "0s"))
	ctx := testserver.Context(t)
	src, err := runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "charges", Input: "go"})
	if err != nil {
		t.Fatal(err)
	}
	waitState(t, runs, src.GetRun().GetRunId(), runsvcv1.RunState_RUN_STATE_COMPLETED)
	candidate := testserver.Publish(t, specs, chargeSpec(endpoint.URL, "7", "3s"))
	resp, err := runsvcv1.NewEvaluationServiceClient(conn).EvaluateVersion(ctx, &runsvcv1.EvaluateVersionRequest{
		Spec: "charges", Version: candidate.GetVersion(), Runs: &runsvcv1.RunSelection{RunIds: []string{src.GetRun().GetRunId()}},
	})
	if err != nil {
		t.Fatal(err)
	}
	replayID := resp.GetEvaluation().GetRuns()[0].GetReplayRunId()
	waitUntil(t, func() bool {
		got, err := runs.GetRun(ctx, &runsvcv1.GetRunRequest{RunId: replayID})
		return err == nil && got.GetRun().GetTurn() == 1
	})

	p.Kill()
	p = blackbox.Serve(t, addr, args...)
	conn = p.Dial(t)
	runs = runsvcv1.NewRunServiceClient(conn)
	got := waitState(t, runs, replayID, runsvcv1.RunState_RUN_STATE_COMPLETED)
	if got.GetAttempt() != 2 || got.GetEvaluationId() != resp.GetEvaluation().GetEvaluationId() {
		t.Errorf("replay settled after %d attempts in evaluation %q, want 2 in %q", got.GetAttempt(), got.GetEvaluationId(), resp.GetEvaluation().GetEvaluationId())
	}
	if n := posts.Load(); n != 1 {
		t.Fatalf("the endpoint saw %d calls, want only the recorded Run's one", n)
	}
	ev, err := runsvcv1.NewEvaluationServiceClient(conn).GetEvaluation(ctx, &runsvcv1.GetEvaluationRequest{EvaluationId: resp.GetEvaluation().GetEvaluationId()})
	if err != nil {
		t.Fatal(err)
	}
	report := ev.GetEvaluation().GetRuns()[0]
	if report.GetFencedCalls() != 1 || report.GetTrajectory()[0].GetChange() != runsvcv1.TrajectoryChange_TRAJECTORY_CHANGE_FENCED {
		t.Errorf("report = %v, want the charge fenced at step 1", report)
	}
}
