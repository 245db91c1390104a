package blackbox_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/structpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/testing/blackbox"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// crashTurns is how many client-tool turns the crash Run waits on before
// the model call that never answers: more than --max-attempts, so that
// counting every Attempt would fail it before its first crash.
const crashTurns = 12

// crashingSpec asks its client crashTurns times, then makes a model call
// that outlives every process that makes it.
func crashingSpec() string {
	var b strings.Builder
	for range crashTurns {
		b.WriteString(`{"toolCalls": [{"name": "lookup", "arguments": {"q": "x"}}]}, `)
	}
	return fmt.Sprintf(`{"name": "crashes", "model": {"provider": "scripted", "script": {"turns": [%s{"text": "never", "delay": "3600s"}]}},
	  "tools": [{"name": "lookup", "kind": "TOOL_KIND_CLIENT"}], "limits": {"maxToolRounds": %d, "deadline": "7200s"}}`, b.String(), crashTurns)
}

// TestKilledElevenTimesFailsAttemptsExhausted: runsvc is kill -9'd 11
// times under one Run with the default --max-attempts (10). The first
// kill comes while the Run waits on its client, which costs it nothing;
// then its model call never answers and the process making it is killed
// each time, so each Attempt dies. After the 10th death the next process
// fails the Run ATTEMPTS_EXHAUSTED, with the count and the limit in its
// metadata, as GetRun and WaitRun show over gRPC; only the Attempts after
// one that died were takeovers. The Run's 12 resumes never counted.
func TestKilledElevenTimesFailsAttemptsExhausted(t *testing.T) {
	if testing.Short() {
		t.Skip("kills and restarts runsvc eleven times")
	}
	const maxAttempts = 10 // the default
	data, addr := t.TempDir(), blackbox.FreePort(t)
	args := []string{"--data", data, "--lease-ttl", "1s"}
	p := blackbox.Serve(t, addr, args...)
	testserver.Publish(t, runsvcv1.NewSpecServiceClient(p.Dial(t)), crashingSpec())
	runs := runsvcv1.NewRunServiceClient(p.Dial(t))
	ctx := testserver.Context(t)
	resp, err := runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "crashes", Input: "go"})
	if err != nil {
		t.Fatal(err)
	}
	id := resp.GetRun().GetRunId()
	var logs strings.Builder
	kills := 0
	restart := func() {
		p.Kill()
		kills++
		logs.WriteString(p.Log())
		p = blackbox.Serve(t, addr, args...)
		runs = runsvcv1.NewRunServiceClient(p.Dial(t))
	}
	for turn := 1; turn <= crashTurns; turn++ {
		waitState(t, runs, id, runsvcv1.RunState_RUN_STATE_SUSPENDED)
		if turn == crashTurns/2 {
			restart() // while the Run waits: no Attempt runs, none dies
		}
		res := []*runsvcv1.ToolResult{{CallId: fmt.Sprintf("call_%d_1", turn), Output: structpb.NewStringValue("found")}}
		if _, err := runs.ResumeRun(ctx, &runsvcv1.ResumeRunRequest{RunId: id, ToolResults: res}); err != nil {
			t.Fatalf("turn %d: %v", turn, err)
		}
	}
	// Attempt crashTurns+1 makes the call that never answers; each kill
	// leaves its successor to take over once the lease expires.
	for attempt := int32(crashTurns + 1); attempt < crashTurns+1+maxAttempts; attempt++ {
		waitUntil(t, func() bool {
			got, err := runs.GetRun(ctx, &runsvcv1.GetRunRequest{RunId: id})
			// A takeover is logged just after its Attempt is stored.
			logged := attempt == crashTurns+1 || strings.Contains(p.Log(), `"msg":"took over run"`)
			return err == nil && got.GetRun().GetAttempt() == attempt && got.GetRun().GetState() == runsvcv1.RunState_RUN_STATE_RUNNING && logged
		})
		restart()
	}
	failed := waitState(t, runs, id, runsvcv1.RunState_RUN_STATE_FAILED)
	logs.WriteString(p.Log())
	if kills != 11 {
		t.Fatalf("killed %d times, want 11", kills)
	}
	waited, err := runs.WaitRun(ctx, &runsvcv1.WaitRunRequest{RunId: id, Wait: durationpb.New(time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	for how, run := range map[string]*runsvcv1.Run{"GetRun": failed, "WaitRun": waited.GetRun()} {
		c := errdetails.ClassifyStatus(run.GetFailure())
		want := map[string]string{"runId": id, "diedAttempts": "10", "maxAttempts": "10"}
		if c.Reason != "ATTEMPTS_EXHAUSTED" || c.Code != codes.ResourceExhausted || c.Retryable || fmt.Sprint(c.Metadata) != fmt.Sprint(want) {
			t.Errorf("%s: the Run failed %s (%v, retryable %v) with %v; want ATTEMPTS_EXHAUSTED with %v", how, c.Reason, c.Code, c.Retryable, c.Metadata, want)
		}
		if run.GetAttempt() != crashTurns+maxAttempts || run.GetTurn() != crashTurns+1 {
			t.Errorf("%s: attempt %d at turn %d, want attempt %d at turn %d", how, run.GetAttempt(), run.GetTurn(), crashTurns+maxAttempts, crashTurns+1)
		}
	}
	// Attempts crashTurns+2 on followed one that died; none before did.
	if n := strings.Count(logs.String(), `"msg":"took over run"`); n != maxAttempts-1 {
		t.Errorf("%d takeovers logged, want %d", n, maxAttempts-1)
	}
}
