package tracing

import (
	"context"
	"sync"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

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

// attempts are the spans of the Attempts running in this process, by Run
// id (a Run has at most one Attempt at a time in a process).
type attempts struct {
	mu    sync.Mutex
	spans map[string]*attemptSpan
}

// attemptSpan is an Attempt's span, started at its first step, once the
// Run's log has told its trace context.
type attemptSpan struct {
	ctx  context.Context
	span trace.Span
}

func newAttempts() *attempts { return &attempts{spans: map[string]*attemptSpan{}} }

// StartAttempt implements engine.Observer: it makes room for the
// Attempt's span and ends it when the Attempt ends.
func (t *Tracing) StartAttempt(ctx context.Context, a engine.AttemptInfo) (context.Context, func()) {
	if !t.On() {
		return ctx, func() {}
	}
	t.attempts.mu.Lock()
	t.attempts.spans[a.RunID] = &attemptSpan{}
	t.attempts.mu.Unlock()
	return ctx, func() {
		t.attempts.mu.Lock()
		as := t.attempts.spans[a.RunID]
		delete(t.attempts.spans, a.RunID)
		t.attempts.mu.Unlock()
		if as != nil && as.span != nil {
			as.span.End()
		}
	}
}

// Attempting implements engine.Observer: the first step starts the
// `invoke_agent` span of the Attempt, the child of the StartRun that
// admitted the Run (its stored traceparent), so the Attempt is in the
// caller's trace even on another replica; every Attempt after the first
// (after a resume or a takeover) also links to that span. Every step runs
// under it.
func (t *Tracing) Attempting(ctx context.Context, a engine.AttemptInfo) context.Context {
	if !t.On() {
		return ctx
	}
	t.attempts.mu.Lock()
	defer t.attempts.mu.Unlock()
	as := t.attempts.spans[a.RunID]
	if as == nil {
		return ctx
	}
	if as.span == nil {
		parent := propagation.TraceContext{}.Extract(ctx, propagation.MapCarrier{"traceparent": a.TraceParent})
		opts := []trace.SpanStartOption{trace.WithAttributes(attrRunID.String(a.RunID), attrOperation.String("invoke_agent"),
			attribute.String("runsvc.worker", a.Worker), attribute.Int("runsvc.attempt", a.Attempt))}
		if sc := trace.SpanContextFromContext(parent); sc.IsValid() && a.Attempt > 1 {
			opts = append(opts, trace.WithLinks(trace.Link{SpanContext: sc, Attributes: []attribute.KeyValue{attribute.String("runsvc.link", "earlier attempts")}}))
		}
		as.ctx, as.span = t.tracer.Start(trace.ContextWithSpanContext(ctx, trace.SpanContextFromContext(parent)), "invoke_agent", opts...)
	}
	return trace.ContextWithSpan(ctx, as.span)
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

// Retrying implements engine.Observer: an event on the attempt span.
func (t *Tracing) Retrying(ctx context.Context, r engine.RetryInfo) {
	if sp := trace.SpanFromContext(ctx); sp.IsRecording() {
		sp.AddEvent("retrying", trace.WithAttributes(attribute.String("runsvc.retry.what", r.What)))
	}
}
