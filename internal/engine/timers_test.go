package engine_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	errdetailspb "google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// timersStart is when the timer tests' fake clock starts.
var timersStart = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)

// timersServer serves the timer tests on a fake clock, with a Spec
// "sleeper" whose script sleeps (30m), waits until 10:00, then tries to
// sleep past max_sleep (3h > 2h) and with malformed arguments, and
// answers; and a Spec "napper" that sleeps an hour once.
func timersServer(t *testing.T) (*testserver.Server, *clock.Fake) {
	fake := clock.NewFake(timersStart)
	srv := testserver.Start(t, func(c *server.Config) { c.Clock = fake })
	srv.Publish(t, `{"name": "sleeper", "model": {"provider": "scripted", "script": {"turns": [
	    {"toolCalls": [{"name": "sleep", "arguments": {"duration": "30m"}}]},
	    {"toolCalls": [{"name": "wait_until", "arguments": {"time": "2026-12-01T10:00:00Z"}}]},
	    {"toolCalls": [{"name": "sleep", "arguments": {"duration": "3h"}}, {"name": "wait_until", "arguments": {"time": "tomorrow"}}]},
	    {"text": "rested"}]}},
	  "tools": [{"name": "sleep", "kind": "TOOL_KIND_BUILTIN"}, {"name": "wait_until", "kind": "TOOL_KIND_BUILTIN"}],
	  "timers": {"maxSleep": "7200s"}, "limits": {"deadline": "36000s"}}`)
	srv.Publish(t, `{"name": "napper", "model": {"provider": "scripted", "script": {"turns": [
	    {"toolCalls": [{"name": "sleep", "arguments": {"duration": "1h"}}]}, {"text": "up"}]}},
	  "tools": [{"name": "sleep", "kind": "TOOL_KIND_BUILTIN"}], "limits": {"deadline": "36000s"}}`)
	return srv, fake
}

// asleep waits until a Run sleeps on a TIMER that wakes at wake.
func asleep(t *testing.T, srv *testserver.Server, runID string, wake time.Time) *runsvcv1.Run {
	t.Helper()
	var run *runsvcv1.Run
	waitFor(t, func() bool {
		got, err := srv.Runs.GetRun(testserver.Context(t), &runsvcv1.GetRunRequest{RunId: runID})
		if err != nil {
			t.Fatal(err)
		}
		run = got.GetRun()
		sus := run.GetSuspension()
		return sus.GetReason() == runsvcv1.SuspensionReason_SUSPENSION_REASON_TIMER && sus.GetWakeTime().AsTime().Equal(wake)
	})
	if run.GetState() != runsvcv1.RunState_RUN_STATE_SUSPENDED || run.GetSuspension().GetExpireTime() != nil {
		t.Fatalf("asleep run: %v, suspension %v", run.GetState(), run.GetSuspension())
	}
	return run
}

// TestSleepAndWaitUntilOnAFakeClock runs several sleeps in one Run: each
// suspends it on a TIMER with its wake time, wakes it when the clock
// reaches that time, and returns what happened; a sleep over the Spec's
// max_sleep and a malformed time are tool errors the model sees.
func TestSleepAndWaitUntilOnAFakeClock(t *testing.T) {
	srv, fake := timersServer(t)
	id := srv.Start(t, "sleeper", "rest").GetRunId()
	run := asleep(t, srv, id, timersStart.Add(30*time.Minute))
	if calls := run.GetSuspension().GetToolCalls(); len(calls) != 1 || calls[0].GetName() != "sleep" {
		t.Errorf("the sleeping call: %v", calls)
	}
	fake.Advance(30 * time.Minute)
	asleep(t, srv, id, timersStart.Add(time.Hour))
	fake.Advance(30 * time.Minute)
	got := settledOnFake(t, srv, fake, id)
	if got.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED || got.GetAnswer() != "rested" {
		t.Fatalf("run: %v %q", got.GetState(), got.GetAnswer())
	}
	done := toolFinished(srv.Records(t, id))
	if len(done) != 4 {
		t.Fatalf("%d tool results, want 4", len(done))
	}
	for i, want := range []string{"2026-12-01T09:30:00Z", "2026-12-01T10:00:00Z"} {
		out := done[i].GetOutput().GetStructValue().AsMap()
		if out["slept_until"] != want || out["woken_early"] != false || done[i].GetError() != nil {
			t.Errorf("result %d: %v (error %v), want slept until %s", i, out, done[i].GetError(), want)
		}
	}
	for i, want := range []string{"may sleep at most 2h0m0s", "RFC 3339"} {
		if c := errdetails.ClassifyStatus(done[2+i].GetError()); c.Reason != "TOOL_REJECTED" || !strings.Contains(c.Message, want) {
			t.Errorf("result %d: %+v, want a tool error saying %q", 2+i, c, want)
		}
	}
}

// TestStartAt admits a Run asleep until start_at and starts its first
// turn then; a past start_at starts it now; one too far ahead is refused.
func TestStartAt(t *testing.T) {
	srv, fake := timersServer(t)
	at := timersStart.Add(2 * time.Hour)
	resp, err := srv.Runs.StartRun(testserver.Context(t), &runsvcv1.StartRunRequest{Spec: "napper", Input: "later", StartAt: timestamppb.New(at)})
	if err != nil {
		t.Fatal(err)
	}
	id := resp.GetRun().GetRunId()
	if got := resp.GetRun().GetDeadlineTime().AsTime(); !got.Equal(at.Add(10 * time.Hour)) {
		t.Errorf("deadline %v, want 10h after start_at", got)
	}
	asleep(t, srv, id, at)
	fake.Advance(2 * time.Hour)
	asleep(t, srv, id, at.Add(time.Hour)) // its first turn ran: it sleeps an hour
	if recs := srv.RecordsSoFar(t, id); recs[0].GetAdmitted().GetStartTime() == nil {
		t.Errorf("admitted without its start time: %v", recs[0])
	}

	past, err := srv.Runs.StartRun(testserver.Context(t), &runsvcv1.StartRunRequest{Spec: "napper", Input: "now", StartAt: timestamppb.New(timersStart)})
	if err != nil {
		t.Fatal(err)
	}
	asleep(t, srv, past.GetRun().GetRunId(), fake.Now().Add(time.Hour)) // started at once: asleep in its first tool call

	_, err = srv.Runs.StartRun(testserver.Context(t), &runsvcv1.StartRunRequest{Spec: "napper", StartAt: timestamppb.New(fake.Now().Add(400 * 24 * time.Hour))})
	if c := errdetails.Classify(err); c.Reason != "INVALID_REQUEST" || !badFields(err, "start_at") {
		t.Errorf("start_at 400 days ahead: %+v", c)
	}
}

// TestInterruptAndResumeWhileAsleep: InterruptRun settles a sleeping Run
// at once; ResumeRun with no answer wakes one now, and its sleep returns
// woken early; a resume with an answer is refused.
func TestInterruptAndResumeWhileAsleep(t *testing.T) {
	srv, fake := timersServer(t)
	ctx := testserver.Context(t)
	stopped := srv.Start(t, "napper", "a").GetRunId()
	woken := srv.Start(t, "napper", "b").GetRunId()
	asleep(t, srv, stopped, timersStart.Add(time.Hour))
	asleep(t, srv, woken, timersStart.Add(time.Hour))

	got, err := srv.Runs.InterruptRun(ctx, &runsvcv1.InterruptRunRequest{RunId: stopped})
	if err != nil || got.GetRun().GetState() != runsvcv1.RunState_RUN_STATE_ABORTED || got.GetRun().GetAbortCause() != runsvcv1.AbortCause_ABORT_CAUSE_INTERRUPTED {
		t.Fatalf("interrupt while asleep: %v %v", got.GetRun(), err)
	}

	_, err = srv.Runs.ResumeRun(ctx, &runsvcv1.ResumeRunRequest{RunId: woken, Answer: "wake up"})
	if c := errdetails.Classify(err); c.Reason != "INVALID_REQUEST" || !badFields(err, "answer") {
		t.Errorf("resume with an answer: %+v", c)
	}
	fake.Advance(10 * time.Minute)
	if _, err := srv.Runs.ResumeRun(ctx, &runsvcv1.ResumeRunRequest{RunId: woken}); err != nil {
		t.Fatal(err)
	}
	run := settledOnFake(t, srv, fake, woken)
	done := toolFinished(srv.Records(t, woken))
	if run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED || len(done) != 1 {
		t.Fatalf("woken run: %v, %d results", run.GetState(), len(done))
	}
	if out := done[0].GetOutput().GetStructValue().AsMap(); out["woken_early"] != true || out["woke_at"] != "2026-12-01T09:10:00Z" {
		t.Errorf("woken early: %v", out)
	}
}

// badFields reports whether err's BadRequest names exactly fields.
func badFields(err error, fields ...string) bool {
	var got []string
	for _, d := range status.Convert(err).Details() {
		if br, ok := d.(*errdetailspb.BadRequest); ok {
			for _, v := range br.GetFieldViolations() {
				got = append(got, v.GetField())
			}
		}
	}
	return slices.Equal(got, fields)
}
