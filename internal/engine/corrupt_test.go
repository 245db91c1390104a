package engine_test

import (
	"testing"
	"time"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestCorruptLogFailsTheRun: a log the protocol cannot produce fails the
// Run with LOG_CORRUPT naming the invariant; nothing repairs it.
func TestCorruptLogFailsTheRun(t *testing.T) {
	srv := testserver.Start(t)
	srv.Publish(t, clientSpec)
	run := srv.Wait(t, srv.Start(t, "weather", "hi").GetRunId())
	ctx := testserver.Context(t)
	// A second resume record with no suspension before it: a writer bug.
	bogus := store.Record{Seq: run.GetLastSeq() + 1, Time: time.Now(), Kind: "resumed", Body: []byte(`{"reason":"QUESTION","answer":"x"}`)}
	bad := store.Record{Seq: run.GetLastSeq() + 2, Time: time.Now(), Kind: "resumed", Body: []byte(`{"reason":"QUESTION","answer":"y"}`)}
	if err := srv.Store.Append(ctx, store.Append{Tenant: store.DefaultTenant, RunID: run.GetRunId(), Records: []store.Record{bogus, bad},
		Index: store.Index{State: "RUNNING", Runnable: true}}); err != nil {
		t.Fatal(err)
	}
	got := srv.Settled(t, run.GetRunId())
	c := errdetails.ClassifyStatus(got.GetFailure())
	if got.GetState() != runsvcv1.RunState_RUN_STATE_FAILED || c.Reason != "LOG_CORRUPT" || c.Metadata["corruption"] != "resume_without_suspension" {
		t.Fatalf("state %v failure %+v", got.GetState(), c)
	}
	if c.Metadata["seq"] == "" || c.Metadata["runId"] != run.GetRunId() || c.Metadata["detail"] == "" {
		t.Errorf("the failure does not say where to look: %+v", c.Metadata)
	}
	rep, err := srv.Runs.GetReport(ctx, &runsvcv1.GetReportRequest{RunId: run.GetRunId()})
	if err != nil || rep.GetReport().GetRun().GetState() != runsvcv1.RunState_RUN_STATE_FAILED {
		t.Errorf("report of a corrupt run: %v %v", rep, err)
	}
}
