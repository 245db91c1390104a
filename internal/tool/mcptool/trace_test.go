package mcptool_test

import (
	"strings"
	"testing"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// TestTraceparent: a traced tool call sends its trace context to the MCP
// server in traceparent; an untraced one sends none.
func TestTraceparent(t *testing.T) {
	otel.SetTextMapPropagator(propagation.TraceContext{})
	tid, _ := trace.TraceIDFromHex("4bf92f3577b34da6a3ce929d0e0e4736")
	sid, _ := trace.SpanIDFromHex("00f067aa0ba902b7")
	sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: trace.FlagsSampled})
	tests := []struct {
		name   string
		traced bool
		want   string
	}{
		{name: "traced", traced: true, want: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"},
		{name: "untraced", traced: false, want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := startServer(t, true)
			x := newExecutor(t)
			ctx := testContext(t)
			if tt.traced {
				ctx = trace.ContextWithSpanContext(ctx, sc)
			}
			if _, err := x.Execute(ctx, mcpCall(srv.url(), "echo", `{"text":"hi"}`)); err != nil {
				t.Fatalf("Execute: %v", err)
			}
			var calls int
			for _, got := range srv.traceparents() {
				if got == tt.want {
					calls++
				} else if got != "" {
					t.Errorf("traceparent %q, want %q", got, tt.want)
				}
			}
			if tt.traced && calls == 0 {
				t.Errorf("no request carried the traceparent: %s", strings.Join(srv.traceparents(), ", "))
			}
		})
	}
}
