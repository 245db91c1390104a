package errdetails_test

import (
	"encoding/base64"
	"testing"

	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/protobuf/proto"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/testing/wirecheck"
)

// TestErrorsAreTrailersOnly reads the raw HTTP/2 frames: an error response
// is one HEADERS frame that ends the stream and carries the status, its
// details and the pushback; a success has headers, data and trailers.
func TestErrorsAreTrailersOnly(t *testing.T) {
	ts := startServer(t, errdetails.Options{})
	ts.runs.set("retryable", func() error { return &errs.StoreUnavailable{Operation: "read"} })
	ts.runs.set("final", func() error { return &errs.RunNotFound{RunID: "final"} })
	cases := []struct {
		id           string
		trailersOnly bool
		grpcStatus   string
		pushback     string
		reason       string
	}{
		{id: "retryable", trailersOnly: true, grpcStatus: "14", pushback: "1000", reason: "STORE_UNAVAILABLE"},
		{id: "final", trailersOnly: true, grpcStatus: "5", pushback: "-1", reason: "RUN_NOT_FOUND"},
		{id: "ok", trailersOnly: false, grpcStatus: "0"},
	}
	for _, tc := range cases {
		t.Run(tc.id, func(t *testing.T) {
			resp, err := wirecheck.Call(testContext(t), ts.addr, "/runsvc.v1.RunService/GetRun", &runsvcv1.GetRunRequest{RunId: tc.id})
			if err != nil {
				t.Fatal(err)
			}
			if resp.TrailersOnly != tc.trailersOnly {
				t.Fatalf("TrailersOnly = %v, want %v (headers %v, %d data frames)", resp.TrailersOnly, tc.trailersOnly, resp.Headers, resp.DataFrames)
			}
			last := resp.Last()
			if last["grpc-status"] != tc.grpcStatus {
				t.Errorf("grpc-status = %q, want %q", last["grpc-status"], tc.grpcStatus)
			}
			if tc.reason == "" {
				return
			}
			if last[errdetails.PushbackTrailer] != tc.pushback {
				t.Errorf("pushback = %q, want %q", last[errdetails.PushbackTrailer], tc.pushback)
			}
			raw, err := base64.RawStdEncoding.DecodeString(last["grpc-status-details-bin"])
			if err != nil {
				t.Fatalf("grpc-status-details-bin: %v", err)
			}
			st := &spb.Status{}
			if err := proto.Unmarshal(raw, st); err != nil {
				t.Fatal(err)
			}
			if got := errdetails.ClassifyStatus(st).Reason; got != tc.reason {
				t.Errorf("reason = %s, want %s", got, tc.reason)
			}
		})
	}
}
