package server_test

import (
	"strconv"
	"testing"
	"time"

	edpb "google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestConcurrentRunQuota: with a limit of 5 unsettled Runs, the 6th
// StartRun is QUOTA_EXCEEDED with QuotaFailure, RetryInfo and the pushback
// trailer, and did not start; once one Run settles it succeeds.
func TestConcurrentRunQuota(t *testing.T) {
	s := startSecuredWith(t, []string{"acme", "globex"}, func(e *auth.Entry) {
		if e.Tenant == "acme" {
			e.Quota = auth.Quota{MaxConcurrentRuns: 5}
		}
	})
	admin := s.conn(t, s.keys["acme/admin"], nil)
	testserver.Publish(t, runsvcv1.NewSpecServiceClient(admin), helloSpec)
	runs := runsvcv1.NewRunServiceClient(s.conn(t, s.keys["acme/runner"], nil))
	var ids []string
	for i := range 5 {
		resp, err := runs.StartRun(ctxT(t), &runsvcv1.StartRunRequest{Spec: "hello", RequestId: "q" + strconv.Itoa(i)})
		if err != nil {
			t.Fatalf("start %d: %v", i+1, err)
		}
		ids = append(ids, resp.GetRun().GetRunId())
	}
	var trailer metadata.MD
	_, err := runs.StartRun(ctxT(t), &runsvcv1.StartRunRequest{Spec: "hello", RequestId: "q6"}, grpc.Trailer(&trailer))
	if got := reasonOf(err); got != "QUOTA_EXCEEDED" {
		t.Fatalf("6th start: %q (%v), want QUOTA_EXCEEDED", got, err)
	}
	checkQuotaDetails(t, err, trailer)
	// A fork starts a Run too: the runner may fork, under the same quota.
	if _, err := runs.ForkRun(ctxT(t), &runsvcv1.ForkRunRequest{RunId: ids[1], At: &runsvcv1.ForkRunRequest_Turn{Turn: 1}}); reasonOf(err) != "QUOTA_EXCEEDED" {
		t.Fatalf("fork past the quota: %v, want QUOTA_EXCEEDED", err)
	}
	list, err := runs.ListRuns(ctxT(t), &runsvcv1.ListRunsRequest{})
	if err != nil || len(list.GetRuns()) != 5 {
		t.Fatalf("ListRuns: %d Runs (%v), want the 5 started and not the refused one", len(list.GetRuns()), err)
	}
	other := runsvcv1.NewRunServiceClient(s.conn(t, s.keys["globex/admin"], nil))
	testserver.Publish(t, runsvcv1.NewSpecServiceClient(s.conn(t, s.keys["globex/admin"], nil)), helloSpec)
	if _, err := other.StartRun(ctxT(t), &runsvcv1.StartRunRequest{Spec: "hello"}); err != nil {
		t.Fatalf("another tenant's start: %v, want its own quota", err)
	}
	if _, err := runs.InterruptRun(ctxT(t), &runsvcv1.InterruptRunRequest{RunId: ids[0], Reason: "make room"}); err != nil {
		t.Fatal(err)
	}
	waitSettled(t, runs, ids[0])
	if _, err := runs.StartRun(ctxT(t), &runsvcv1.StartRunRequest{Spec: "hello", RequestId: "q6"}); err != nil {
		t.Fatalf("6th start after one settled: %v", err)
	}
}

func checkQuotaDetails(t *testing.T, err error, trailer metadata.MD) {
	t.Helper()
	var quota, retry bool
	for _, d := range status.Convert(err).Details() {
		switch d := d.(type) {
		case *edpb.QuotaFailure:
			quota = len(d.GetViolations()) == 1 && d.GetViolations()[0].GetSubject() == "tenants/acme/quotas/concurrent_runs"
		case *edpb.RetryInfo:
			retry = d.GetRetryDelay().AsDuration() > 0
		}
	}
	if !quota || !retry {
		t.Errorf("details %v: QuotaFailure on tenants/acme/quotas/concurrent_runs %v, RetryInfo %v", status.Convert(err).Details(), quota, retry)
	}
	if p := trailer.Get("grpc-retry-pushback-ms"); len(p) != 1 || p[0] == "-1" {
		t.Errorf("pushback trailer %v, want a delay", p)
	}
}

func waitSettled(t *testing.T, runs runsvcv1.RunServiceClient, id string) {
	t.Helper()
	for range 100 {
		resp, err := runs.WaitRun(ctxT(t), &runsvcv1.WaitRunRequest{RunId: id, Wait: durationpb.New(5 * time.Second)})
		if err != nil {
			t.Fatal(err)
		}
		switch resp.GetRun().GetState() {
		case runsvcv1.RunState_RUN_STATE_ABORTED, runsvcv1.RunState_RUN_STATE_COMPLETED, runsvcv1.RunState_RUN_STATE_FAILED:
			return
		}
	}
	t.Fatalf("run %s did not settle", id)
}
