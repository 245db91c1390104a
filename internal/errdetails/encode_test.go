package errdetails

import (
	"bytes"
	"testing"
	"time"

	edpb "google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/durationpb"
)

// TestHandEncodingMatchesProtobuf: every hand-encoded detail has the bytes
// the protobuf library's deterministic marshal gives, and its type URL.
func TestHandEncodingMatchesProtobuf(t *testing.T) {
	cases := []struct {
		name string
		got  *anypb.Any
		want proto.Message
	}{
		{"ErrorInfo", encodeErrorInfo("RUN_NOT_FOUND", "runsvc", map[string]string{"runId": "run_1", "b": "", "a": "ünïcode"}),
			&edpb.ErrorInfo{Reason: "RUN_NOT_FOUND", Domain: "runsvc", Metadata: map[string]string{"runId": "run_1", "b": "", "a": "ünïcode"}}},
		{"ErrorInfo without metadata", encodeErrorInfo("CANCELLED", "runsvc", nil), &edpb.ErrorInfo{Reason: "CANCELLED", Domain: "runsvc"}},
		{"RetryInfo", encodeRetryInfo(1500 * time.Millisecond), &edpb.RetryInfo{RetryDelay: durationpb.New(1500 * time.Millisecond)}},
		{"RetryInfo whole seconds", encodeRetryInfo(3 * time.Second), &edpb.RetryInfo{RetryDelay: durationpb.New(3 * time.Second)}},
		{"RetryInfo under a second", encodeRetryInfo(250 * time.Millisecond), &edpb.RetryInfo{RetryDelay: durationpb.New(250 * time.Millisecond)}},
		{"RetryInfo zero", encodeRetryInfo(0), &edpb.RetryInfo{RetryDelay: durationpb.New(0)}},
		{"PreconditionFailure", encodePrecondition("RUN_STATE", "runs/run_1", "not suspended"),
			&edpb.PreconditionFailure{Violations: []*edpb.PreconditionFailure_Violation{{Type: "RUN_STATE", Subject: "runs/run_1", Description: "not suspended"}}}},
		{"ResourceInfo", encodeResource("runsvc.v1.Run", "runs/run_1", "run run_1 not found"),
			&edpb.ResourceInfo{ResourceType: "runsvc.v1.Run", ResourceName: "runs/run_1", Description: "run run_1 not found"}},
		{"QuotaFailure", encodeQuota("budgets/tokens", "over"), &edpb.QuotaFailure{Violations: []*edpb.QuotaFailure_Violation{{Subject: "budgets/tokens", Description: "over"}}}},
		{"Help", encodeHelp("see", "https://example.test"), &edpb.Help{Links: []*edpb.Help_Link{{Description: "see", Url: "https://example.test"}}}},
		{"DebugInfo", encodeDebug("disk full"), &edpb.DebugInfo{Detail: "disk full"}},
		{"BadRequest", encodeBadRequest([]fieldViolation{{"tools[0].name", "is required"}, {"", "3 more were cut"}}),
			&edpb.BadRequest{FieldViolations: []*edpb.BadRequest_FieldViolation{{Field: "tools[0].name", Description: "is required"}, {Description: "3 more were cut"}}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want, err := proto.MarshalOptions{Deterministic: true}.Marshal(tc.want)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(tc.got.GetValue(), want) {
				t.Errorf("bytes\n got %x\nwant %x", tc.got.GetValue(), want)
			}
			if tc.got.GetTypeUrl() != "type.googleapis.com/"+string(tc.want.ProtoReflect().Descriptor().FullName()) {
				t.Errorf("type URL %s", tc.got.GetTypeUrl())
			}
		})
	}
}
