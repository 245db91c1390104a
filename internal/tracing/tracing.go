// Package tracing is runsvc's OpenTelemetry tracing: the otelgrpc stats
// handler on the server, an OTLP/gRPC exporter, and the engine's spans
// (the attempt, `chat` per model call, `execute_tool` per tool call) with
// the GenAI semantic-convention attributes and runsvc.run_id. The W3C
// trace context is the propagator, so the http tool's requests carry a
// traceparent.
package tracing

import (
	"context"
	"os"

	"go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc"
)

// Tracing is the tracer provider and what uses it; the zero of a disabled
// one does nothing.
type Tracing struct {
	provider *sdktrace.TracerProvider
	tracer   trace.Tracer
	attempts *attempts
}

// Enabled reports whether traces are exported: endpoint is set, or the
// standard OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT is.
func Enabled(endpoint string) bool {
	return endpoint != "" || os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
}

// New starts exporting traces over OTLP/gRPC to endpoint (host:port,
// plaintext), or where the OTEL_* environment says when endpoint is
// empty. With neither it returns a disabled Tracing. The W3C trace
// context becomes the global propagator either way.
func New(ctx context.Context, endpoint string) (*Tracing, error) {
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	if !Enabled(endpoint) {
		return &Tracing{}, nil
	}
	var opts []otlptracegrpc.Option
	if endpoint != "" {
		opts = append(opts, otlptracegrpc.WithEndpoint(endpoint), otlptracegrpc.WithInsecure())
	}
	exp, err := otlptracegrpc.New(ctx, opts...)
	if err != nil {
		return nil, err
	}
	res, err := resource.Merge(resource.Default(), resource.NewSchemaless(attribute.String("service.name", serviceName())))
	if err != nil {
		return nil, err
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	return &Tracing{provider: tp, tracer: tp.Tracer("github.com/runsvc/runsvc"), attempts: newAttempts()}, nil
}

// serviceName is OTEL_SERVICE_NAME, or runsvc.
func serviceName() string {
	if n := os.Getenv("OTEL_SERVICE_NAME"); n != "" {
		return n
	}
	return "runsvc"
}

// On reports whether this Tracing records spans.
func (t *Tracing) On() bool { return t != nil && t.provider != nil }

// ServerOptions are the gRPC server options that trace every RPC, none
// when tracing is off.
func (t *Tracing) ServerOptions() []grpc.ServerOption {
	if !t.On() {
		return nil
	}
	return []grpc.ServerOption{grpc.StatsHandler(otelgrpc.NewServerHandler(otelgrpc.WithTracerProvider(t.provider)))}
}

// Shutdown flushes and stops the exporter.
func (t *Tracing) Shutdown(ctx context.Context) error {
	if !t.On() {
		return nil
	}
	return t.provider.Shutdown(ctx)
}
