package server_test

import (
	"strings"
	"testing"

	edpb "google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// unary and streams name a method to call raw.
func rawUnary(full string) rawMethod     { return rawMethod{full: full} }
func serverStream(full string) rawMethod { return rawMethod{full: full, serverStreams: true} }
func bidiStream(full string) rawMethod {
	return rawMethod{full: full, clientStreams: true, serverStreams: true}
}

func str(num protowire.Number, s string) []byte {
	return protowire.AppendString(protowire.AppendTag(nil, num, protowire.BytesType), s)
}

func msg(num protowire.Number, b []byte) []byte {
	return protowire.AppendBytes(protowire.AppendTag(nil, num, protowire.BytesType), b)
}

// TestUndecodableRequests: what the server cannot decode, or does not
// have, fails through the error table, unary and streaming; grpc's own
// services keep grpc's statuses.
func TestUndecodableRequests(t *testing.T) {
	srv := testserver.Start(t)
	tests := []struct {
		name          string
		method        rawMethod
		body          []byte
		code          codes.Code
		reason        string // "" for a status without runsvc's ErrorInfo
		field, detail string // the BadRequest violation, for INVALID_REQUEST
	}{
		{"invalid UTF-8, unary", rawUnary("/runsvc.v1.RunService/GetRun"), str(1, "run_\xff"), codes.InvalidArgument, "INVALID_REQUEST", "run_id", "UTF-8"},
		{"invalid UTF-8 Struct key", rawUnary("/runsvc.v1.ToolService/InvokeTool"),
			append(str(1, "lookup"), msg(2, structKey("\xc3\x28", numberValue(1)))...), codes.InvalidArgument, "INVALID_REQUEST", "arguments.fields[0].key", "UTF-8"},
		{"Struct nested 10,000 deep", rawUnary("/runsvc.v1.ToolService/InvokeTool"),
			append(str(1, "lookup"), msg(2, deepStruct())...), codes.InvalidArgument, "INVALID_REQUEST", "", "deeper than"},
		{"garbage, server stream", serverStream("/runsvc.v1.RunService/WatchRun"), []byte{0x0a, 0xff, 0xff, 0x03}, codes.InvalidArgument, "INVALID_REQUEST", "", "runsvc.v1.WatchRunRequest"},
		{"invalid UTF-8, bidi stream", bidiStream("/runsvc.v1.ToolService/ServeTools"), msg(1, str(1, "w\xff")), codes.InvalidArgument, "INVALID_REQUEST", "register.worker_name", "UTF-8"},
		{"5 MB", rawUnary("/runsvc.v1.RunService/GetRun"), str(1, strings.Repeat("r", 5<<20)), codes.InvalidArgument, "INVALID_REQUEST", "", "at most 4194304"},
		{"unknown method", rawUnary("/runsvc.v1.RunService/Nope"), nil, codes.Unimplemented, "METHOD_NOT_FOUND", "", ""},
		{"unknown service, stream", serverStream("/runsvc.v9.Nothing/Watch"), nil, codes.Unimplemented, "METHOD_NOT_FOUND", "", ""},
		{"health keeps grpc's status", rawUnary("/grpc.health.v1.Health/Check"), str(1, "\xff"), codes.Internal, "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := send(testserver.Context(t), srv.Conn, tt.method, tt.body)
			if st.Code() != tt.code {
				t.Fatalf("code %v (%q), want %v", st.Code(), st.Message(), tt.code)
			}
			var info *edpb.ErrorInfo
			var bad *edpb.BadRequest
			for _, d := range st.Details() {
				switch d := d.(type) {
				case *edpb.ErrorInfo:
					info = d
				case *edpb.BadRequest:
					bad = d
				}
			}
			if tt.reason == "" {
				if info != nil {
					t.Errorf("grpc's own service answered with runsvc's ErrorInfo %v", info)
				}
				return
			}
			if info.GetReason() != tt.reason {
				t.Fatalf("reason %q (%q), want %s", info.GetReason(), st.Message(), tt.reason)
			}
			if tt.reason == "METHOD_NOT_FOUND" && info.GetMetadata()["method"] != tt.method.full {
				t.Errorf("metadata %v does not name the method", info.GetMetadata())
			}
			if tt.reason != "INVALID_REQUEST" {
				return
			}
			if len(bad.GetFieldViolations()) != 1 {
				t.Fatalf("BadRequest %v, want one violation", bad)
			}
			v := bad.GetFieldViolations()[0]
			if v.GetField() != tt.field || !strings.Contains(v.GetDescription(), tt.detail) {
				t.Errorf("violation %q: %q, want field %q and a description holding %q", v.GetField(), v.GetDescription(), tt.field, tt.detail)
			}
		})
	}
}
