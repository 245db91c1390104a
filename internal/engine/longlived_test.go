package engine_test

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/types/known/structpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// turnsSpec is a Spec whose scripted model asks for tool once a turn for
// turns turns, then answers "done".
func turnsSpec(name, tool, kind string, turns int) string {
	var b strings.Builder
	for range turns {
		fmt.Fprintf(&b, `{"toolCalls": [{"name": %q, "arguments": {"key": "k", "value": 1}}]}, `, tool)
	}
	return fmt.Sprintf(`{"name": %q, "model": {"provider": "scripted", "script": {"turns": [%s{"text": "done"}]}},
	  "tools": [{"name": %q, "kind": %q}], "limits": {"maxToolRounds": %d, "maxTurns": %d, "deadline": "3600s"}}`, name, b.String(), tool, kind, turns, turns+1)
}

// withMetrics serves /metrics on a free loopback port.
func withMetrics(c *server.Config) { c.Ops.MetricsListen = "127.0.0.1:0" }

// noTakeovers checks that the server neither logged nor counted a
// takeover: every Attempt continued a suspended Run.
func noTakeovers(t *testing.T, srv *testserver.Server) {
	t.Helper()
	if n := strings.Count(srv.Log.String(), `"msg":"took over run"`); n != 0 {
		t.Errorf("%d Attempts that continued a suspended Run were logged as takeovers", n)
	}
	resp, err := http.Get("http://" + srv.MetricsAddr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "\nrunsvc_lease_takeovers_total 0\n") {
		t.Errorf("continuing suspended Runs counted takeovers:\n%s", grepLines(string(b), "runsvc_lease_takeovers_total"))
	}
}

func grepLines(text, word string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, word) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// completedAfter checks that a Run completed after turns turns and as
// many Attempts past the first, none of them counted against
// --max-attempts.
func completedAfter(t *testing.T, srv *testserver.Server, runID string, turns int) {
	t.Helper()
	got := srv.Settled(t, runID)
	if got.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED || got.GetAnswer() != "done" {
		t.Fatalf("the Run ended %v with %v after turn %d", got.GetState(), got.GetFailure(), got.GetTurn())
	}
	if got.GetTurn() != int32(turns+1) || got.GetAttempt() != int32(turns+1) {
		t.Errorf("turn %d, attempt %d; want %d and %d: one Attempt for each resume", got.GetTurn(), got.GetAttempt(), turns+1, turns+1)
	}
	noTakeovers(t, srv)
}

// TestAThousandClientToolTurnsComplete: a Run that waits on its client
// 1,000 times completes with the default --max-attempts; each resume's
// Attempt continues a suspended Run, so none is a takeover and none counts
// against the limit (issue 30: it failed INTERNAL at the 10th).
func TestAThousandClientToolTurnsComplete(t *testing.T) {
	const turns = 1000
	srv := testserver.Start(t, withMetrics)
	srv.Publish(t, turnsSpec("client-turns", "lookup", "TOOL_KIND_CLIENT", turns))
	id := srv.Start(t, "client-turns", "go").GetRunId()
	for turn := 1; turn <= turns; turn++ {
		run := srv.Wait(t, id)
		if run.GetState() != runsvcv1.RunState_RUN_STATE_SUSPENDED || run.GetTurn() != int32(turn) {
			t.Fatalf("turn %d: the Run is %v at turn %d (attempt %d), failure %v", turn, run.GetState(), run.GetTurn(), run.GetAttempt(), run.GetFailure())
		}
		res := []*runsvcv1.ToolResult{{CallId: fmt.Sprintf("call_%d_1", turn), Output: structpb.NewNumberValue(float64(turn))}}
		if _, err := srv.Runs.ResumeRun(testserver.Context(t), &runsvcv1.ResumeRunRequest{RunId: id, ToolResults: res}); err != nil {
			t.Fatalf("turn %d: %v", turn, err)
		}
	}
	completedAfter(t, srv, id, turns)
}

// TestTwoHundredApprovalTurnsComplete: a Run whose every tool call needs
// a person's approval, 200 times, approved and denied in turn, completes
// with the default --max-attempts, and no approval's Attempt is a
// takeover.
func TestTwoHundredApprovalTurnsComplete(t *testing.T) {
	const turns = 200
	policy := filepath.Join(t.TempDir(), "policy.json")
	rules := `{"rules": [{"tool": "memory_set", "decision": "require_approval", "reason": "a person approves every write"}]}`
	if err := os.WriteFile(policy, []byte(rules), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := testserver.Start(t, withMetrics, func(c *server.Config) { c.PolicyFile = policy })
	srv.Publish(t, turnsSpec("approval-turns", "memory_set", "TOOL_KIND_BUILTIN", turns))
	id := srv.Start(t, "approval-turns", "go").GetRunId()
	for turn := 1; turn <= turns; turn++ {
		run := srv.Wait(t, id)
		if sus := run.GetSuspension(); run.GetState() != runsvcv1.RunState_RUN_STATE_SUSPENDED || run.GetTurn() != int32(turn) ||
			sus.GetReason() != runsvcv1.SuspensionReason_SUSPENSION_REASON_APPROVAL {
			t.Fatalf("turn %d: the Run is %v at turn %d (attempt %d) waiting for %v, failure %v", turn, run.GetState(), run.GetTurn(), run.GetAttempt(), sus.GetReason(), run.GetFailure())
		}
		approved := turn%2 == 1
		if _, err := srv.Runs.ResumeRun(testserver.Context(t), &runsvcv1.ResumeRunRequest{RunId: id, Approved: &approved, Note: "not this one"}); err != nil {
			t.Fatalf("turn %d: %v", turn, err)
		}
	}
	completedAfter(t, srv, id, turns)
}

// TestAResumeIsNoTakeover: the Attempt a plain ResumeRun of a client-tool
// suspension starts continues a Run that waited, so it is neither logged
// as "took over run" nor counted in runsvc_lease_takeovers_total (issue
// 31 item 13).
func TestAResumeIsNoTakeover(t *testing.T) {
	srv := testserver.Start(t, withMetrics)
	srv.Publish(t, turnsSpec("one-resume", "lookup", "TOOL_KIND_CLIENT", 1))
	id := srv.Start(t, "one-resume", "go").GetRunId()
	if run := srv.Wait(t, id); run.GetState() != runsvcv1.RunState_RUN_STATE_SUSPENDED {
		t.Fatalf("the Run is %v, want suspended", run.GetState())
	}
	res := []*runsvcv1.ToolResult{{CallId: "call_1_1", Output: structpb.NewStringValue("found")}}
	if _, err := srv.Runs.ResumeRun(testserver.Context(t), &runsvcv1.ResumeRunRequest{RunId: id, ToolResults: res}); err != nil {
		t.Fatal(err)
	}
	completedAfter(t, srv, id, 1)
}
