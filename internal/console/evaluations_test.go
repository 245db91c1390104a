package console_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestEvaluationPages: the Evaluations page lists an evaluation; its page
// shows the table and, per Run, the recorded and replayed calls side by
// side with the first divergence marked.
func TestEvaluationPages(t *testing.T) {
	srv := testserver.Start(t, func(c *server.Config) { c.Console.Listen = "127.0.0.1:0" })
	srv.StartWorker(t, "lookups", map[string]testserver.ToolFunc{
		"lookup": func(map[string]any) (any, *runsvcv1.ToolError) { return "found", nil },
	})
	spec := func(id int) string {
		return fmt.Sprintf(`{"name": "looks", "model": {"provider": "scripted", "script": {"turns": [
		  {"toolCalls": [{"name": "lookup", "arguments": {"id": %d}}]}, {"text": "ok"}]}},
		  "tools": [{"name": "lookup", "kind": "TOOL_KIND_WORKER"}]}`, id)
	}
	srv.Publish(t, spec(1))
	source := srv.Settled(t, srv.Start(t, "looks", "hi").GetRunId())
	candidate := srv.Publish(t, spec(2))
	evals := runsvcv1.NewEvaluationServiceClient(srv.Conn)
	resp, err := evals.EvaluateVersion(testserver.Context(t), &runsvcv1.EvaluateVersionRequest{
		Spec: "looks", Version: candidate.GetVersion(), Runs: &runsvcv1.RunSelection{RunIds: []string{source.GetRunId()}},
	})
	if err != nil {
		t.Fatal(err)
	}
	id := resp.GetEvaluation().GetEvaluationId()
	var page string
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(page, `id="evaluation-state">done`); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the evaluation page never showed it done:\n%s", page)
		}
		_, page = get(t, srv.ConsoleURL+"/evaluations/"+id)
	}
	for _, want := range []string{source.GetRunId(), `class="first-divergence"`, `1. lookup{&#34;id&#34;:2}`, `1. lookup{&#34;id&#34;:1}`, "fenced ← first divergence", "missing"} {
		if !strings.Contains(page, want) {
			t.Errorf("the evaluation page lacks %q", want)
		}
	}
	if code, list := get(t, srv.ConsoleURL+"/evaluations"); code != http.StatusOK || !strings.Contains(list, id) {
		t.Errorf("the Evaluations page (%d) does not list %s", code, id)
	}
}
