package replicas_test

import (
	"context"
	"encoding/hex"
	"net"
	"strconv"
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
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
	"github.com/runsvc/runsvc/internal/testing/blackbox"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestWorkerOnAnotherReplicaContinuesTheTrace: a Run started on replica B
// under a caller's traceparent calls a worker tool that only a worker on
// replica A serves; the call goes through the store, and the worker gets
// a Call whose traceparent is in the caller's trace, its parent being the
// execute_tool span B exported for that call.
func TestWorkerOnAnotherReplicaContinuesTheTrace(t *testing.T) {
	cluster := pgtest.Start(t)
	spans := startOTLPReceiver(t)
	traced := func(c *server.Config) { c.Ops.OTLPEndpoint = spans.addr }
	b := testserver.Start(t, onReplica(cluster, "replica-b"), traced)
	b.Publish(t, lookupSpec)
	const traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
	ctx := metadata.AppendToOutgoingContext(testserver.Context(t), "traceparent", "00-"+traceID+"-00f067aa0ba902b7-01")
	started, err := b.Runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "looks-up", Input: "traced"})
	if err != nil {
		t.Fatal(err)
	}
	runID := started.GetRun().GetRunId()
	// B is the only replica when the Run starts, so B executes it.
	waitFor(t, func() bool { return attempts(t, b.Runs, runID) > 0 })
	a := testserver.Start(t, onReplica(cluster, "replica-a"), traced)
	got := startTraceWorker(t, a.Tools)
	run := b.Settled(t, runID)
	if run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED {
		t.Fatalf("run settled %v: %v", run.GetState(), run.GetFailure())
	}
	for _, r := range b.Records(t, runID) {
		if s := r.GetAttemptStarted(); s != nil && s.GetWorkerId() != "replica-b" {
			t.Fatalf("an attempt ran on %s: the call was not routed from B to A", s.GetWorkerId())
		}
	}
	var parent string
	select {
	case parent = <-got:
	default:
		t.Fatal("the worker on A got no call")
	}
	t.Run("same trace id", func(t *testing.T) {
		if !strings.HasPrefix(parent, "00-"+traceID+"-") {
			t.Errorf("the worker on A got traceparent %q, want one in trace %s", parent, traceID)
		}
	})
	t.Run("parent is B's execute_tool span", func(t *testing.T) {
		parts := strings.Split(parent, "-")
		if len(parts) != 4 {
			t.Fatalf("traceparent %q is not W3C", parent)
		}
		deadline := time.Now().Add(15 * time.Second)
		for !spans.has(traceID, "execute_tool lookup", parts[2]) {
			if time.Now().After(deadline) {
				t.Fatalf("no execute_tool lookup span %s in trace %s; spans there: %v", parts[2], traceID, spans.names(traceID))
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
}

// TestTakeoverLinksToTheEarlierTrace: a traced Run whose replica A is
// killed mid-call is taken over by replica B; B's attempt span is in the
// caller's trace, marked attempt 2 on replica-b, the child of and linked
// to A's StartRun span that admitted the Run (itself the caller's child),
// where the first attempt's span began too.
func TestTakeoverLinksToTheEarlierTrace(t *testing.T) {
	// A exports each span at once, so its StartRun span is in before the kill.
	t.Setenv("OTEL_BSP_SCHEDULE_DELAY", "50")
	cluster := pgtest.Start(t)
	spans := startOTLPReceiver(t)
	args := func(id string) []string {
		return []string{"--store", cluster.DSN(), "--lease-ttl", "2s", "--worker-id", id, "--otlp-endpoint", spans.addr}
	}
	a := blackbox.Serve(t, blackbox.FreePort(t), args("replica-a")...)
	connA := a.Dial(t)
	called := make(chan struct{}, 1)
	hang := func(map[string]any) (any, *runsvcv1.ToolError) {
		called <- struct{}{}
		time.Sleep(time.Minute)
		return "too late", nil
	}
	testserver.StartWorker(t, runsvcv1.NewToolServiceClient(connA), "worker-a", map[string]testserver.ToolFunc{"lookup": hang})
	testserver.Publish(t, runsvcv1.NewSpecServiceClient(connA), lookupSpec)
	const traceID, caller = "5bf92f3577b34da6a3ce929d0e0e4737", "00f067aa0ba902b8"
	ctx := metadata.AppendToOutgoingContext(testserver.Context(t), "traceparent", "00-"+traceID+"-"+caller+"-01")
	started, err := runsvcv1.NewRunServiceClient(connA).StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "looks-up", Input: "traced"})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-called:
	case <-time.After(time.Minute):
		t.Fatal("the worker on A never got the call")
	}
	admitted := spans.find(traceID, "runsvc.v1.RunService/StartRun", nil)
	if admitted == nil || hex.EncodeToString(admitted.GetParentSpanId()) != caller {
		t.Fatalf("A exported no StartRun span under the caller's; spans in the trace: %v", spans.names(traceID))
	}
	admitting := hex.EncodeToString(admitted.GetSpanId())
	a.Kill()
	b := blackbox.Serve(t, blackbox.FreePort(t), args("replica-b")...)
	connB := b.Dial(t)
	testserver.StartWorker(t, runsvcv1.NewToolServiceClient(connB), "worker-b", map[string]testserver.ToolFunc{"lookup": lookup})
	run := waitSettled(t, runsvcv1.NewRunServiceClient(connB), started.GetRun().GetRunId())
	if run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED || run.GetAttempt() != 2 {
		t.Fatalf("run settled %v after %d attempts: %v", run.GetState(), run.GetAttempt(), run.GetFailure())
	}
	if code := b.Stop(t); code != 0 { // flushes B's spans
		t.Errorf("replica B exited %d", code)
	}
	span := spans.find(traceID, "invoke_agent", map[string]string{"runsvc.attempt": "2", "runsvc.worker": "replica-b"})
	if span == nil {
		t.Fatalf("no invoke_agent span of attempt 2 on replica-b in trace %s; spans there: %v", traceID, spans.names(traceID))
	}
	cases := []struct{ name, got, want string }{
		{"parent is the admitting span", hex.EncodeToString(span.GetParentSpanId()), admitting},
		{"run id", attrsOf(span)["runsvc.run_id"], run.GetRunId()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Errorf("got %q, want %q", tc.got, tc.want)
			}
		})
	}
	t.Run("links to the earlier trace", func(t *testing.T) {
		for _, l := range span.GetLinks() {
			if hex.EncodeToString(l.GetTraceId()) == traceID && hex.EncodeToString(l.GetSpanId()) == admitting {
				return
			}
		}
		t.Errorf("attempt 2's span has links %v, want one to %s/%s", span.GetLinks(), traceID, admitting)
	})
}

// otlpReceiver is an in-process OTLP/gRPC trace collector on 127.0.0.1.
type otlpReceiver struct {
	coltracepb.UnimplementedTraceServiceServer
	addr  string
	mu    sync.Mutex
	spans []*tracepb.Span
}

func startOTLPReceiver(t *testing.T) *otlpReceiver {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &otlpReceiver{addr: lis.Addr().String()}
	srv := grpc.NewServer()
	coltracepb.RegisterTraceServiceServer(srv, r)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	return r
}

// Export implements the collector's trace service.
func (r *otlpReceiver) Export(_ context.Context, req *coltracepb.ExportTraceServiceRequest) (*coltracepb.ExportTraceServiceResponse, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rs := range req.GetResourceSpans() {
		for _, ss := range rs.GetScopeSpans() {
			r.spans = append(r.spans, ss.GetSpans()...)
		}
	}
	return &coltracepb.ExportTraceServiceResponse{}, nil
}

// has reports whether a span named name with span id spanID (hex) arrived
// in trace traceID.
func (r *otlpReceiver) has(traceID, name, spanID string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.spans {
		if hex.EncodeToString(s.GetTraceId()) == traceID && s.GetName() == name && hex.EncodeToString(s.GetSpanId()) == spanID {
			return true
		}
	}
	return false
}

// find returns a span named name in trace traceID whose attributes
// include want, waiting up to 15s for it to arrive; nil when none does.
func (r *otlpReceiver) find(traceID, name string, want map[string]string) *tracepb.Span {
	deadline := time.Now().Add(15 * time.Second)
	for {
		r.mu.Lock()
		for _, s := range r.spans {
			if hex.EncodeToString(s.GetTraceId()) != traceID || s.GetName() != name {
				continue
			}
			got, match := attrsOf(s), true
			for k, v := range want {
				match = match && got[k] == v
			}
			if match {
				r.mu.Unlock()
				return s
			}
		}
		r.mu.Unlock()
		if time.Now().After(deadline) {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// attrsOf returns a span's attributes as text.
func attrsOf(s *tracepb.Span) map[string]string {
	out := map[string]string{}
	for _, kv := range s.GetAttributes() {
		switch v := kv.GetValue().GetValue().(type) {
		case *commonpb.AnyValue_StringValue:
			out[kv.GetKey()] = v.StringValue
		case *commonpb.AnyValue_IntValue:
			out[kv.GetKey()] = strconv.FormatInt(v.IntValue, 10)
		}
	}
	return out
}

// names lists the spans that arrived in trace traceID.
func (r *otlpReceiver) names(traceID string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, s := range r.spans {
		if hex.EncodeToString(s.GetTraceId()) == traceID {
			out = append(out, s.GetName()+"/"+hex.EncodeToString(s.GetSpanId()))
		}
	}
	return out
}

// startTraceWorker serves lookup on a ServeTools stream of client and
// sends the traceparent of the first Call it gets.
func startTraceWorker(t *testing.T, client runsvcv1.ToolServiceClient) <-chan string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	stream, err := client.ServeTools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	reg := &runsvcv1.ServeToolsRequest_Register{WorkerName: "tracer-a", Tools: []*runsvcv1.ToolDefinition{{Name: "lookup"}}}
	if err := testserver.Register(stream, reg); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go testserver.ServeCalls(stream, func(call *runsvcv1.ServeToolsResponse_Call) bool {
		select {
		case got <- call.GetTraceparent():
		default:
		}
		res := &runsvcv1.ServeToolsRequest_Result{CallId: call.GetCallId(), Output: structpb.NewStringValue("value of answer")}
		_ = stream.Send(&runsvcv1.ServeToolsRequest{Message: &runsvcv1.ServeToolsRequest_Result_{Result: res}})
		return true
	})
	return got
}
