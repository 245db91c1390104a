package engine_test

import (
	"testing"
	"time"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestDeadlinesAndExpiryOnAFakeClock moves time by hand: suspensions
// expire and deadlines pass without any resume or call, and a tool call
// open past the deadline is closed as orphaned after the grace period.
func TestDeadlinesAndExpiryOnAFakeClock(t *testing.T) {
	fake := clock.NewFake(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	srv := testserver.Start(t, func(c *server.Config) { c.Clock = fake; c.Engine.OrphanGrace = 30 * time.Second })
	srv.Publish(t, `{"name": "waits", "model": {"provider": "scripted", "script": {"turns": [{"toolCalls": [{"name": "ask", "arguments": {}}]}, {"text": "never"}]}},
	  "tools": [{"name": "ask", "kind": "TOOL_KIND_CLIENT"}], "suspensionExpiry": {"toolResults": "3600s"}, "limits": {"deadline": "7200s"}}`)
	srv.Publish(t, `{"name": "short", "model": {"provider": "scripted", "script": {"turns": [{"toolCalls": [{"name": "ask", "arguments": {}}]}, {"text": "never"}]}},
	  "tools": [{"name": "ask", "kind": "TOOL_KIND_CLIENT"}], "suspensionExpiry": {"toolResults": "7200s"}, "limits": {"deadline": "600s"}}`)
	hung := make(chan struct{})
	srv.StartWorker(t, "hangs", map[string]testserver.ToolFunc{"hang": func(map[string]any) (any, *runsvcv1.ToolError) { <-hung; return nil, nil }})
	t.Cleanup(func() { close(hung) })
	srv.Publish(t, `{"name": "stuck", "model": {"provider": "scripted", "script": {"turns": [{"toolCalls": [{"name": "hang", "arguments": {}}]}, {"text": "never"}]}},
	  "tools": [{"name": "hang", "kind": "TOOL_KIND_WORKER", "timeout": "1800s"}], "limits": {"deadline": "600s"}}`)

	expiring := srv.Wait(t, srv.Start(t, "waits", "go").GetRunId())
	deadlined := srv.Wait(t, srv.Start(t, "short", "go").GetRunId())
	stuck := srv.Start(t, "stuck", "go")
	waitFor(t, func() bool { return hasOpenToolCall(t, srv, stuck.GetRunId()) })

	fake.Advance(11 * time.Minute) // past the 10m deadlines; the tool call has its grace
	got := settledOnFake(t, srv, fake, deadlined.GetRunId())
	if got.GetState() != runsvcv1.RunState_RUN_STATE_ABORTED || got.GetAbortCause() != runsvcv1.AbortCause_ABORT_CAUSE_DEADLINE {
		t.Fatalf("suspended past its deadline: %v %v", got.GetState(), got.GetAbortCause())
	}
	if c := errdetails.ClassifyStatus(got.GetFailure()); c.Reason != "RUN_DEADLINE_EXCEEDED" || c.Message != "run "+got.GetRunId()+" exceeded its 600s deadline" {
		t.Errorf("deadline failure %+v", c)
	}

	fake.Advance(time.Minute) // past the grace: the open call is orphaned
	got = settledOnFake(t, srv, fake, stuck.GetRunId())
	if got.GetState() != runsvcv1.RunState_RUN_STATE_ABORTED || got.GetAbortCause() != runsvcv1.AbortCause_ABORT_CAUSE_DEADLINE {
		t.Fatalf("stuck run: %v %v", got.GetState(), got.GetAbortCause())
	}
	done := toolFinished(srv.Records(t, stuck.GetRunId()))
	if len(done) != 1 || !done[0].GetOrphaned() {
		t.Errorf("the open call was not closed as orphaned: %v", done)
	}

	fake.Advance(time.Hour) // past the 1h suspension expiry, with nobody resuming
	got = settledOnFake(t, srv, fake, expiring.GetRunId())
	if got.GetState() != runsvcv1.RunState_RUN_STATE_ABANDONED {
		t.Fatalf("expired suspension: %v", got.GetState())
	}
	if c := errdetails.ClassifyStatus(got.GetFailure()); c.Reason != "SUSPENSION_EXPIRED" || c.Metadata["suspensionReason"] != "TOOL_RESULTS" {
		t.Errorf("abandoned with %+v", c)
	}
	_, err := srv.Runs.ResumeRun(testserver.Context(t), &runsvcv1.ResumeRunRequest{RunId: expiring.GetRunId(), ToolResults: []*runsvcv1.ToolResult{{CallId: "call_1_1"}}})
	if c := errdetails.Classify(err); c.Reason != "SUSPENSION_EXPIRED" {
		t.Errorf("late resume: %+v", c)
	}
}

// settledOnFake waits for a Run to settle while nudging the fake clock by
// a millisecond at a time: a worker that started waiting on the clock
// just after an Advance would otherwise wait for time that never comes.
func settledOnFake(t *testing.T, srv *testserver.Server, fake *clock.Fake, runID string) *runsvcv1.Run {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		got, err := srv.Runs.GetRun(testserver.Context(t), &runsvcv1.GetRunRequest{RunId: runID})
		if err != nil {
			t.Fatal(err)
		}
		if got.GetRun().GetSettleTime() != nil {
			return got.GetRun()
		}
		if time.Now().After(deadline) {
			t.Fatalf("run %s did not settle; it is %v", runID, got.GetRun().GetState())
		}
		fake.Advance(time.Millisecond)
		time.Sleep(5 * time.Millisecond)
	}
}

func hasOpenToolCall(t *testing.T, srv *testserver.Server, runID string) bool {
	open := false
	for _, r := range srv.RecordsSoFar(t, runID) {
		switch {
		case r.GetToolCallStarted() != nil:
			open = true
		case r.GetToolCallFinished() != nil:
			open = false
		}
	}
	return open
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition never held")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
