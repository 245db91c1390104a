package tracing

import (
	"context"
	"sync"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc"

	"github.com/runsvc/runsvc/internal/engine"
	"github.com/runsvc/runsvc/internal/model"
)

// Attribute keys: the GenAI semantic conventions and runsvc's own.
const (
	attrRunID        = attribute.Key("runsvc.run_id")
	attrOperation    = attribute.Key("gen_ai.operation.name")
	attrProvider     = attribute.Key("gen_ai.provider.name")
	attrModel        = attribute.Key("gen_ai.request.model")
	attrInputTokens  = attribute.Key("gen_ai.usage.input_tokens")
	attrOutputTokens = attribute.Key("gen_ai.usage.output_tokens")
	attrToolName     = attribute.Key("gen_ai.tool.name")
	attrToolCallID   = attribute.Key("gen_ai.tool.call.id")
	attrToolType     = attribute.Key("gen_ai.tool.type")
)

// startedRuns remembers, for Runs started in this process and not yet
// attempted, the StartRun span their attempt continues. It is bounded:
// past maxStarted the oldest are forgotten (their attempts start a trace
// of their own).
type startedRuns struct {
	mu    sync.Mutex
	spans map[string]trace.SpanContext
	order []string
}

const maxStarted = 10000

func newStartedRuns() *startedRuns { return &startedRuns{spans: map[string]trace.SpanContext{}} }

func (s *startedRuns) put(runID string, sc trace.SpanContext) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.spans[runID]; !ok {
		s.order = append(s.order, runID)
	}
	s.spans[runID] = sc
	for len(s.order) > maxStarted {
		delete(s.spans, s.order[0])
		s.order = s.order[1:]
	}
}

func (s *startedRuns) get(runID string) (trace.SpanContext, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sc, ok := s.spans[runID]
	return sc, ok
}

// UnaryServerInterceptor remembers the trace of each StartRun (the
// caller's traceparent, through otelgrpc's span) for the Run's attempts.
func (t *Tracing) UnaryServerInterceptor() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		resp, err := handler(ctx, req)
		if r, ok := resp.(interface{ GetRunId() string }); ok && t.On() && info.FullMethod == "/runsvc.v1.RunService/StartRun" {
			if sc := trace.SpanContextFromContext(ctx); sc.IsValid() && r.GetRunId() != "" {
				t.starts.put(r.GetRunId(), sc)
			}
		}
		return resp, err
	}
}

// StartAttempt implements engine.Observer: an `invoke_agent` span per
// Attempt, the child of the StartRun that created the Run when it was
// started here, a root linked to it otherwise.
func (t *Tracing) StartAttempt(ctx context.Context, a engine.AttemptInfo) (context.Context, func()) {
	if !t.On() {
		return ctx, func() {}
	}
	opts := []trace.SpanStartOption{trace.WithAttributes(attrRunID.String(a.RunID), attrOperation.String("invoke_agent"), attribute.String("runsvc.worker", a.Worker))}
	if sc, ok := t.starts.get(a.RunID); ok {
		ctx = trace.ContextWithRemoteSpanContext(ctx, sc)
	}
	ctx, span := t.tracer.Start(ctx, "invoke_agent", opts...)
	return ctx, func() { span.End() }
}

// StartModelCall implements engine.Observer: a `chat` span.
func (t *Tracing) StartModelCall(ctx context.Context, c engine.ModelCallInfo) (context.Context, func(model.Response, error)) {
	if !t.On() {
		return ctx, func(model.Response, error) {}
	}
	ctx, span := t.tracer.Start(ctx, "chat "+c.Model.Model, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(
		attrRunID.String(c.RunID), attrOperation.String("chat"), attrProvider.String(c.Model.Provider),
		attrModel.String(c.Model.Model), attribute.Int("runsvc.turn", c.Turn)))
	return ctx, func(resp model.Response, err error) {
		if err != nil {
			span.SetStatus(codes.Error, err.Error())
		} else {
			span.SetAttributes(attrInputTokens.Int64(resp.Usage.InputTokens), attrOutputTokens.Int64(resp.Usage.OutputTokens))
		}
		span.End()
	}
}

// StartToolCall implements engine.Observer: an `execute_tool` span.
func (t *Tracing) StartToolCall(ctx context.Context, c engine.ToolCallInfo) (context.Context, func(error)) {
	if !t.On() {
		return ctx, func(error) {}
	}
	ctx, span := t.tracer.Start(ctx, "execute_tool "+c.Name, trace.WithAttributes(
		attrRunID.String(c.RunID), attrOperation.String("execute_tool"), attrToolName.String(c.Name),
		attrToolCallID.String(c.CallID), attrToolType.String(string(c.Kind))))
	return ctx, func(err error) {
		if err != nil {
			span.SetStatus(codes.Error, err.Error())
		}
		span.End()
	}
}

// RunSettled implements engine.Observer: the attempt span records the
// state the Run settled in.
func (t *Tracing) RunSettled(ctx context.Context, r engine.SettledInfo) {
	if sp := trace.SpanFromContext(ctx); sp.IsRecording() {
		sp.SetAttributes(attribute.String("runsvc.run_state", r.State))
	}
}
