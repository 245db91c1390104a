package errdetails_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/errs"
)

// trailerStream stands in for grpc's server stream and keeps the trailers
// set on it.
type trailerStream struct{ trailer metadata.MD }

func (s *trailerStream) Method() string               { return "/runsvc.v1.RunService/GetRun" }
func (s *trailerStream) SetHeader(metadata.MD) error  { return nil }
func (s *trailerStream) SendHeader(metadata.MD) error { return nil }
func (s *trailerStream) SetTrailer(md metadata.MD) error {
	s.trailer = metadata.Join(s.trailer, md)
	return nil
}

// TestInterceptorSendsTheEncodedStatusAsItsTrailer: inside a server, the
// unary interceptor returns the status's code and message without details
// and sets the whole status, encoded, as grpc-status-details-bin beside the
// pushback, the same the first time and when remembered; outside a server
// (no stream to set trailers on) it returns the whole status.
func TestInterceptorSendsTheEncodedStatusAsItsTrailer(t *testing.T) {
	m := errdetails.New(errdetails.Options{})
	ic := m.UnaryServerInterceptor()
	info := &grpc.UnaryServerInfo{FullMethod: "/runsvc.v1.RunService/GetRun"}
	cases := []struct {
		name     string
		err      error
		pushback string
	}{
		{"retryable", &errs.TransientFailure{Operation: "fetch", Message: "reset", RetryAfter: 2 * time.Second}, "2000"},
		{"not retryable", &errs.RunNotFound{RunID: "run_1"}, "-1"},
		{"internal", &errs.Internal{ErrorID: "err_1"}, "-1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want := m.Describe(tc.err).Status.Proto()
			handler := func(context.Context, any) (any, error) { return nil, tc.err }
			for round := range 2 { // the second round may come from the memo
				s := &trailerStream{}
				ctx := grpc.NewContextWithServerTransportStream(context.Background(), s)
				_, err := ic(ctx, &runsvcv1.GetRunRequest{}, info, handler)
				st := status.Convert(err)
				if st.Code() != codes.Code(want.GetCode()) || st.Message() != want.GetMessage() || len(st.Details()) != 0 {
					t.Fatalf("round %d: returned %v with %d details, want code %v, message %q, no details", round, st.Code(), len(st.Details()), codes.Code(want.GetCode()), want.GetMessage())
				}
				if got := s.trailer.Get(errdetails.PushbackTrailer); len(got) != 1 || got[0] != tc.pushback {
					t.Errorf("round %d: pushback %q, want %q", round, got, tc.pushback)
				}
				raw := s.trailer.Get("grpc-status-details-bin")
				if len(raw) != 1 {
					t.Fatalf("round %d: grpc-status-details-bin %q, want one value", round, raw)
				}
				got := &spb.Status{}
				if err := proto.Unmarshal([]byte(raw[0]), got); err != nil {
					t.Fatal(err)
				}
				if tc.name == "internal" {
					// Each INTERNAL error has its own errorId: compare the rest.
					if got.GetCode() != want.GetCode() || errdetails.ClassifyStatus(got).Reason != "INTERNAL" {
						t.Errorf("round %d: trailer status %v, want an INTERNAL one", round, got)
					}
					continue
				}
				if !proto.Equal(got, want) {
					t.Errorf("round %d: trailer status\n%v\nwant\n%v", round, got, want)
				}
			}
			_, err := ic(context.Background(), &runsvcv1.GetRunRequest{}, info, handler)
			if got := status.Convert(err).Proto(); tc.name != "internal" && !proto.Equal(got, want) {
				t.Errorf("outside a server: %v, want the whole status %v", got, want)
			}
		})
	}
}

// TestLogLineOfARememberedStatus: a remembered status's line has every
// key of a fresh one, each time and in each reporter's own log, however
// the reporters alternate.
func TestLogLineOfARememberedStatus(t *testing.T) {
	m := errdetails.New(errdetails.Options{})
	err := &errs.TransientFailure{Operation: "fetch", Message: "reset \"quoted\"", RetryAfter: time.Second}
	var bufs [2]syncBuffer
	var reporters [2]*errdetails.LogReporter
	for i := range reporters {
		reporters[i] = &errdetails.LogReporter{Log: slog.New(slog.NewJSONHandler(&bufs[i], nil))}
	}
	unary := func(r *errdetails.LogReporter) grpc.UnaryServerInterceptor {
		ou, _ := errdetails.Observe(r)
		mu := m.UnaryServerInterceptor()
		return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
			return ou(ctx, req, info, func(ctx context.Context, req any) (any, error) { return mu(ctx, req, info, h) })
		}
	}
	info := &grpc.UnaryServerInfo{FullMethod: "/runsvc.v1.RunService/GetRun"}
	handler := func(context.Context, any) (any, error) { return nil, err }
	for _, i := range []int{0, 0, 1, 0, 1} {
		ctx := grpc.NewContextWithServerTransportStream(context.Background(), &trailerStream{})
		_, _ = unary(reporters[i])(ctx, &runsvcv1.GetRunRequest{RunId: "run_1"}, info, handler)
	}
	want := map[string]any{"msg": "rpc failed", "level": "WARN", "method": info.FullMethod, "code": "Unavailable",
		"reason": "TRANSIENT_FAILURE", "message": m.Describe(err).Status.Message(), "runId": "run_1"}
	for i, n := range []int{3, 2} {
		lines := strings.Split(strings.TrimSpace(bufs[i].String()), "\n")
		if len(lines) != n {
			t.Fatalf("reporter %d: %d lines, want %d:\n%s", i, len(lines), n, bufs[i].String())
		}
		for _, line := range lines {
			var got map[string]any
			if err := json.Unmarshal([]byte(line), &got); err != nil {
				t.Fatalf("reporter %d: %v: %s", i, err, line)
			}
			for k, v := range want {
				if got[k] != v {
					t.Errorf("reporter %d: %s = %v, want %v in %s", i, k, got[k], v, line)
				}
			}
			if _, ok := got["duration"]; !ok {
				t.Errorf("reporter %d: no duration in %s", i, line)
			}
		}
	}
}

// TestLogLineOfARememberedStatusNamesItsMethod: one remembered status
// failing many methods, more than a status keeps formatted, in turns,
// logs each line with the method that failed.
func TestLogLineOfARememberedStatusNamesItsMethod(t *testing.T) {
	var buf syncBuffer
	m := errdetails.New(errdetails.Options{Logger: slog.New(slog.NewJSONHandler(&buf, nil))})
	unary, _ := m.ServerInterceptors(m.LogReporter())
	err := &errs.Overloaded{Resource: "unary calls", RetryAfter: time.Second}
	handler := func(context.Context, any) (any, error) { return nil, err }
	var methods []string
	for round := range 3 {
		for i := range 40 {
			method := fmt.Sprintf("/runsvc.v1.RunService/Method%d", (i*7+round)%40)
			ctx := grpc.NewContextWithServerTransportStream(context.Background(), &trailerStream{})
			_, _ = unary[0](ctx, nil, &grpc.UnaryServerInfo{FullMethod: method}, handler)
			methods = append(methods, method)
		}
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != len(methods) {
		t.Fatalf("%d lines for %d failed calls", len(lines), len(methods))
	}
	for i, line := range lines {
		var got map[string]any
		if err := json.Unmarshal([]byte(line), &got); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		if got["method"] != methods[i] || got["reason"] != "OVERLOADED" {
			t.Fatalf("line %d is %s, want method %s and reason OVERLOADED", i, line, methods[i])
		}
	}
}
