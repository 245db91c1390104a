package replicas_test

import (
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
	"github.com/runsvc/runsvc/internal/testing/blackbox"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestTimersWakeOnTheOtherReplica: Runs put to sleep on replica A (the
// sleep tool, and start_at) hold nothing there; A dies by SIGKILL, and
// replica B, which never ran them, wakes each one after its wake time and
// completes it.
func TestTimersWakeOnTheOtherReplica(t *testing.T) {
	cluster := pgtest.Start(t)
	args := func(id string) []string {
		return []string{"--store", cluster.DSN(), "--lease-ttl", "2s", "--worker-id", id, "--pool-size", "8"}
	}
	a := blackbox.Serve(t, blackbox.FreePort(t), args("replica-a")...)
	connA := a.Dial(t)
	testserver.Publish(t, runsvcv1.NewSpecServiceClient(connA), `{"name": "napper", "model": {"provider": "scripted", "script": {"turns": [
	  {"toolCalls": [{"name": "sleep", "arguments": {"duration": "5s"}}]}, {"text": "slept"}]}},
	  "tools": [{"name": "sleep", "kind": "TOOL_KIND_BUILTIN"}]}`)
	runsA, ctx := runsvcv1.NewRunServiceClient(connA), testserver.Context(t)
	var ids []string
	for i := range 20 {
		req := &runsvcv1.StartRunRequest{Spec: "napper", Input: "nap"}
		if i%4 == 0 {
			req.StartAt = timestamppb.New(time.Now().Add(3 * time.Second))
		}
		resp, err := runsA.StartRun(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, resp.GetRun().GetRunId())
	}
	for _, id := range ids {
		waitFor(t, func() bool {
			got, err := runsA.GetRun(ctx, &runsvcv1.GetRunRequest{RunId: id})
			return err == nil && got.GetRun().GetSuspension().GetReason() == runsvcv1.SuspensionReason_SUSPENSION_REASON_TIMER
		})
	}
	b := blackbox.Serve(t, blackbox.FreePort(t), args("replica-b")...)
	a.Kill()
	runsB := runsvcv1.NewRunServiceClient(b.Dial(t))
	for _, id := range ids {
		if got := waitSettled(t, runsB, id); got.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED {
			t.Fatalf("run %s settled %v: %v", id, got.GetState(), got.GetFailure())
		}
		checkWokeOnB(t, testserver.Records(t, runsB, id))
	}
}

// checkWokeOnB checks that the Attempt that recorded the Run's last timer
// wake was replica B's, and that it woke the Run no earlier than due.
func checkWokeOnB(t *testing.T, recs []*runsvcv1.Record) {
	t.Helper()
	var wake time.Time
	worker, wokeBy := "", ""
	for _, r := range recs {
		switch {
		case r.GetAttemptStarted() != nil:
			worker = r.GetAttemptStarted().GetWorkerId()
		case r.GetSuspended().GetWakeTime() != nil:
			wake = r.GetSuspended().GetWakeTime().AsTime()
		case r.GetResumed().GetReason() == runsvcv1.SuspensionReason_SUSPENSION_REASON_TIMER:
			wokeBy = worker
			if r.GetTime().AsTime().Before(wake) {
				t.Errorf("record %d woke the run at %v, before %v", r.GetSeq(), r.GetTime().AsTime(), wake)
			}
		}
	}
	if wokeBy != "replica-b" {
		t.Errorf("the sleep call was woken by %q, want replica-b", wokeBy)
	}
}
