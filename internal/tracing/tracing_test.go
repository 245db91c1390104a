package tracing_test

import (
	"context"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/types/known/structpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// receiver is an in-process OTLP/gRPC trace collector.
type receiver struct {
	coltracepb.UnimplementedTraceServiceServer
	mu    sync.Mutex
	spans []*tracepb.Span
}

// Export implements the collector's trace service.
func (r *receiver) Export(_ context.Context, req *coltracepb.ExportTraceServiceRequest) (*coltracepb.ExportTraceServiceResponse, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rs := range req.GetResourceSpans() {
		for _, ss := range rs.GetScopeSpans() {
			r.spans = append(r.spans, ss.GetSpans()...)
		}
	}
	return &coltracepb.ExportTraceServiceResponse{}, nil
}

// inTrace returns the spans of one trace, by name.
func (r *receiver) inTrace(traceID string) map[string]*tracepb.Span {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string]*tracepb.Span{}
	for _, s := range r.spans {
		if hex.EncodeToString(s.GetTraceId()) == traceID {
			out[s.GetName()] = s
		}
	}
	return out
}

func startReceiver(t *testing.T) (*receiver, string) {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &receiver{}
	srv := grpc.NewServer()
	coltracepb.RegisterTraceServiceServer(srv, r)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	return r, lis.Addr().String()
}

func attrs(s *tracepb.Span) map[string]string {
	out := map[string]string{}
	for _, kv := range s.GetAttributes() {
		out[kv.GetKey()] = anyValue(kv.GetValue())
	}
	return out
}

func anyValue(v *commonpb.AnyValue) string {
	switch x := v.GetValue().(type) {
	case *commonpb.AnyValue_StringValue:
		return x.StringValue
	case *commonpb.AnyValue_IntValue:
		return fmt.Sprint(x.IntValue)
	default:
		return fmt.Sprint(x)
	}
}

// TestStartRunTraceReachesTheRunsSpans: a StartRun carrying a traceparent
// yields, under that trace, the invoke_agent (attempt), chat and
// execute_tool spans with the GenAI attributes and the run id, and the
// http tool receives the same trace id in its traceparent header.
func TestStartRunTraceReachesTheRunsSpans(t *testing.T) {
	rec, otlp := startReceiver(t)
	var gotParent sync.Map
	tool := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotParent.Store("traceparent", r.Header.Get("traceparent"))
		_, _ = w.Write([]byte(`{"temperature": 21}`))
	}))
	t.Cleanup(tool.Close)
	srv := testserver.Start(t, func(c *server.Config) { c.Ops.OTLPEndpoint = otlp })
	workerParent := startTracingWorker(t, srv, "lookup")
	srv.Publish(t, `{"name": "traced", "model": {"provider": "scripted", "model": "m-trace", "script": {"turns": [
	    {"toolCalls": [{"name": "weather", "arguments": {"city": "Oslo"}}, {"name": "lookup", "arguments": {}}], "usage": {"inputTokens": 11, "outputTokens": 5}},
	    {"text": "21 degrees", "usage": {"inputTokens": 20, "outputTokens": 4}}]}},
	  "tools": [{"name": "weather", "kind": "TOOL_KIND_HTTP", "http": {"url": "`+tool.URL+`/weather"}},
	    {"name": "lookup", "kind": "TOOL_KIND_WORKER"}]}`)

	const traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
	ctx := metadata.AppendToOutgoingContext(testserver.Context(t), "traceparent", "00-"+traceID+"-00f067aa0ba902b7-01")
	resp, err := srv.Runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "traced", Input: "weather?"})
	if err != nil {
		t.Fatal(err)
	}
	runID := resp.GetRun().GetRunId()
	srv.Settled(t, runID)

	var spans map[string]*tracepb.Span
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		spans = rec.inTrace(traceID)
		if spans["invoke_agent"] != nil && spans["chat m-trace"] != nil && spans["execute_tool weather"] != nil && spans["execute_tool lookup"] != nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	cases := []struct {
		span string
		want map[string]string
	}{
		{"invoke_agent", map[string]string{"runsvc.run_id": runID, "gen_ai.operation.name": "invoke_agent"}},
		{"chat m-trace", map[string]string{"runsvc.run_id": runID, "gen_ai.operation.name": "chat", "gen_ai.request.model": "m-trace", "gen_ai.usage.input_tokens": "", "gen_ai.usage.output_tokens": ""}},
		{"execute_tool weather", map[string]string{"runsvc.run_id": runID, "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "weather", "gen_ai.tool.call.id": "", "gen_ai.tool.type": "http"}},
		{"execute_tool lookup", map[string]string{"runsvc.run_id": runID, "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "lookup", "gen_ai.tool.call.id": "", "gen_ai.tool.type": "worker"}},
	}
	for _, tc := range cases {
		t.Run(tc.span, func(t *testing.T) {
			s := spans[tc.span]
			if s == nil {
				t.Fatalf("no %s span in trace %s; spans there: %v", tc.span, traceID, names(spans))
			}
			got := attrs(s)
			for k, v := range tc.want {
				if g, ok := got[k]; !ok || (v != "" && g != v) {
					t.Errorf("%s: attribute %s = %q (present %v), want %q", tc.span, k, g, ok, v)
				}
			}
		})
	}
	t.Run("chat tokens", func(t *testing.T) {
		if s := spans["chat m-trace"]; s == nil || attrs(s)["gen_ai.usage.input_tokens"] == "0" {
			t.Errorf("chat span without its input tokens: %v", s)
		}
	})
	t.Run("worker Call traceparent", func(t *testing.T) {
		select {
		case tp := <-workerParent:
			if !strings.HasPrefix(tp, "00-"+traceID+"-") {
				t.Errorf("worker's Call had traceparent %q, want trace %s", tp, traceID)
			}
		default:
			t.Error("the worker got no call")
		}
	})
	t.Run("http tool traceparent", func(t *testing.T) {
		v, _ := gotParent.Load("traceparent")
		if tp, _ := v.(string); !strings.HasPrefix(tp, "00-"+traceID+"-") {
			t.Errorf("http tool got traceparent %q, want trace %s", tp, traceID)
		}
	})
}

func names(spans map[string]*tracepb.Span) []string {
	var out []string
	for n := range spans {
		out = append(out, n)
	}
	return out
}

// startTracingWorker serves tool on ServeTools and sends the traceparent
// of the first Call it gets.
func startTracingWorker(t *testing.T, srv *testserver.Server, tool string) <-chan string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	stream, err := srv.Tools.ServeTools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	reg := &runsvcv1.ServeToolsRequest_Register{WorkerName: "tracer", Tools: []*runsvcv1.ToolDefinition{{Name: tool}}}
	if err := testserver.Register(stream, reg); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go testserver.ServeCalls(stream, func(call *runsvcv1.ServeToolsResponse_Call) bool {
		select {
		case got <- call.GetTraceparent():
		default:
		}
		res := &runsvcv1.ServeToolsRequest_Result{CallId: call.GetCallId(), Output: structpb.NewStringValue("found")}
		_ = stream.Send(&runsvcv1.ServeToolsRequest{Message: &runsvcv1.ServeToolsRequest_Result_{Result: res}})
		return true
	})
	return got
}
