package blackbox_test

import (
	"testing"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/blackbox"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestEnqueuedThreadRunSurvivesKill: a thread's active Run is in the middle
// of a model call and a second Run is enqueued behind it when the server
// is killed with SIGKILL; after a restart the first is taken over and
// completes, and the enqueued one then starts, continuing from it.
func TestEnqueuedThreadRunSurvivesKill(t *testing.T) {
	data := t.TempDir()
	addr := blackbox.FreePort(t)
	args := []string{"--data", data, "--lease-ttl", "2s"}
	p := blackbox.Serve(t, addr, args...)
	conn := p.Dial(t)
	runs := runsvcv1.NewRunServiceClient(conn)
	testserver.Publish(t, runsvcv1.NewSpecServiceClient(conn),
		`{"name": "slowchat", "model": {"provider": "scripted", "script": {"turns": [{"text": "late answer", "delay": "4s"}]}}}`)
	ctx := testserver.Context(t)
	start := func(input string) *runsvcv1.Run {
		resp, err := runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "slowchat", Input: input, ThreadId: "kept",
			ThreadStrategy: runsvcv1.ThreadStrategy_THREAD_STRATEGY_ENQUEUE})
		if err != nil {
			t.Fatal(err)
		}
		return resp.GetRun()
	}
	first, second := start("one"), start("two")
	if first.GetWaiting() || !second.GetWaiting() {
		t.Fatalf("first waiting %v, second waiting %v; want the second enqueued", first.GetWaiting(), second.GetWaiting())
	}
	waitUntil(t, func() bool {
		got, err := runs.GetRun(ctx, &runsvcv1.GetRunRequest{RunId: first.GetRunId()})
		return err == nil && got.GetRun().GetTurn() == 1
	})

	p.Kill()
	p = blackbox.Serve(t, addr, args...)
	runs = runsvcv1.NewRunServiceClient(p.Dial(t))

	done1 := waitState(t, runs, first.GetRunId(), runsvcv1.RunState_RUN_STATE_COMPLETED)
	done2 := waitState(t, runs, second.GetRunId(), runsvcv1.RunState_RUN_STATE_COMPLETED)
	if done1.GetAttempt() != 2 {
		t.Errorf("first run finished in attempt %d; want 2 (taken over after the kill)", done1.GetAttempt())
	}
	if done2.GetContinuesRunId() != first.GetRunId() || done2.GetWaiting() {
		t.Errorf("second run continues %q (waiting %v); want %s", done2.GetContinuesRunId(), done2.GetWaiting(), first.GetRunId())
	}
	for _, rec := range testserver.Records(t, runs, second.GetRunId()) {
		if rec.GetAttemptStarted() != nil && rec.GetTime().AsTime().Before(done1.GetSettleTime().AsTime()) {
			t.Errorf("the enqueued run started at %v, before the first settled at %v", rec.GetTime().AsTime(), done1.GetSettleTime().AsTime())
		}
	}
	if code := p.Stop(t); code != 0 {
		t.Errorf("graceful stop exited %d", code)
	}
}
