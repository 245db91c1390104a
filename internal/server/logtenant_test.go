package server_test

import (
	"context"
	"net"
	"testing"
	"time"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/server"
)

// nullCollector accepts OTLP trace exports and drops them.
type nullCollector struct {
	coltracepb.UnimplementedTraceServiceServer
}

// Export implements the collector's trace service.
func (nullCollector) Export(context.Context, *coltracepb.ExportTraceServiceRequest) (*coltracepb.ExportTraceServiceResponse, error) {
	return &coltracepb.ExportTraceServiceResponse{}, nil
}

// TestFailureLogLineNamesTheCallersTenant: with a keys file, the line a
// failed RPC logs names the caller's own tenant (not the default one),
// the run id and the caller's trace id; a caller with no identity is
// logged with no tenant.
func TestFailureLogLineNamesTheCallersTenant(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	collector := grpc.NewServer()
	coltracepb.RegisterTraceServiceServer(collector, nullCollector{})
	go func() { _ = collector.Serve(lis) }()
	t.Cleanup(collector.Stop)
	s := startSecured(t, []string{"acme", "globex"}, func(c *server.Config) { c.Ops.OTLPEndpoint = lis.Addr().String() })
	cases := []struct {
		name, token, runID, traceID, reason, tenant string
	}{
		{"acme's runner", s.keys["acme/runner"], "run_missing_a", "4bf92f3577b34da6a3ce929d0e0e4736", "RUN_NOT_FOUND", "acme"},
		{"globex's reader", s.keys["globex/reader"], "run_missing_g", "5bf92f3577b34da6a3ce929d0e0e4736", "RUN_NOT_FOUND", "globex"},
		{"no identity", "", "run_missing_n", "6bf92f3577b34da6a3ce929d0e0e4736", "UNAUTHENTICATED", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			runs := runsvcv1.NewRunServiceClient(s.conn(t, tc.token, nil))
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			ctx = metadata.AppendToOutgoingContext(ctx, "traceparent", "00-"+tc.traceID+"-00f067aa0ba902b7-01")
			if _, err := runs.GetRun(ctx, &runsvcv1.GetRunRequest{RunId: tc.runID}); reasonOf(err) != tc.reason {
				t.Fatalf("GetRun = %v, want %s", err, tc.reason)
			}
			var line map[string]any
			deadline := time.Now().Add(2 * time.Second)
			for line == nil && time.Now().Before(deadline) {
				for _, l := range logLines(t, s.srv.Log.String()) {
					if l["msg"] == "rpc failed" && l["runId"] == tc.runID {
						line = l
					}
				}
				time.Sleep(20 * time.Millisecond)
			}
			if line == nil {
				t.Fatalf("no rpc failed line for %s", tc.runID)
			}
			if line["tenant"] != tc.tenant || line["traceId"] != tc.traceID || line["reason"] != tc.reason {
				t.Errorf("line = %v, want tenant %q, traceId %s, reason %s", line, tc.tenant, tc.traceID, tc.reason)
			}
		})
	}
}
