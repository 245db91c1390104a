package errdetails

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc/codes"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// LogReporter writes one line per failed RPC: INTERNAL at ERROR with its
// errorId and cause; other server-side failures (unavailable, exhausted,
// aborted, data loss) at WARN; a client's own mistakes and its own
// cancellation at DEBUG. Successful calls are not logged. Each line has
// the method, code, reason, message, the run id when the request names
// one, the tenant and the trace id when the call is traced.
type LogReporter struct {
	// Log receives the lines.
	Log *slog.Logger
	// Tenant names the caller's tenant; nil logs none.
	Tenant func(context.Context) string
}

// LogReporter returns a LogReporter writing to the Mapper's logger.
func (m *Mapper) LogReporter() *LogReporter { return &LogReporter{Log: m.log} }

// Report implements Reporter.
func (l *LogReporter) Report(ctx context.Context, c Call) {
	if c.Code == codes.OK {
		l.admitted(ctx, c)
		return
	}
	level := levelOf(c)
	if !l.Log.Enabled(ctx, level) {
		return
	}
	h, attrs := l.preformatted(c), make([]slog.Attr, 0, 10)
	if h == nil {
		h = l.Log.Handler()
		attrs = append(attrs, slog.String("method", c.Method), slog.String("code", c.Code.String()))
		if c.Reason != "" {
			attrs = append(attrs, slog.String("reason", c.Reason))
		}
		if c.Outcome != nil && c.Outcome.ErrorID != "" {
			attrs = append(attrs, slog.String("errorId", c.Outcome.ErrorID), slog.String("cause", fmt.Sprint(c.Outcome.Cause)))
		} else {
			attrs = append(attrs, slog.String("message", c.Message))
		}
	}
	if r, ok := c.Request.(interface{ GetRunId() string }); ok && r.GetRunId() != "" {
		attrs = append(attrs, slog.String("runId", r.GetRunId()))
	}
	if l.Tenant != nil {
		attrs = append(attrs, slog.String("tenant", l.Tenant(ctx)))
	}
	if sc := trace.SpanContextFromContext(ctx); sc.HasTraceID() {
		attrs = append(attrs, slog.String("traceId", sc.TraceID().String()))
	}
	attrs = append(attrs, slog.Duration("duration", c.Duration))
	// The record goes to the handler without its caller's pc: Logger
	// would take one with runtime.Callers on every line (6% of a failed
	// call's interceptor chain, BenchmarkChain), and it would only ever
	// name this line.
	r := slog.NewRecord(time.Now(), level, "rpc failed", 0)
	r.AddAttrs(attrs...)
	_ = h.Handle(ctx, r)
}

// preformatted returns the log's handler with the code, reason and
// message of the call's Outcome, and the call's method, already
// formatted, when the Outcome is one the Mapper remembers: a storm of one
// error (OVERLOADED, STORE_UNAVAILABLE) then escapes its message and
// method once, not once a line (JSON escaping was a fifth of
// BenchmarkChain, the method a third of what was left of the line). It
// returns nil for any other call.
func (l *LogReporter) preformatted(c Call) slog.Handler {
	o := c.Outcome
	if o == nil || o.wire == nil || o.ErrorID != "" || o.Reason != c.Reason ||
		o.Status.Code() != c.Code || o.Status.Message() != c.Message {
		return nil
	}
	known := o.wire.logged.Load()
	if known != nil {
		for _, p := range *known {
			if p.log == l.Log && p.method == c.Method {
				return p.handler
			}
		}
	}
	h := l.Log.Handler().WithAttrs([]slog.Attr{
		slog.String("code", c.Code.String()), slog.String("reason", c.Reason), slog.String("message", c.Message),
		slog.String("method", c.Method),
	})
	// The list is replaced, never changed, so readers need no lock; a
	// handler lost to a racing Store is only made again. Past
	// maxPreformatted methods (a server has about thirty) it starts over.
	next := []preformattedLog{{log: l.Log, method: c.Method, handler: h}}
	if known != nil && len(*known) < maxPreformatted {
		next = append(next, *known...)
	}
	o.wire.logged.Store(&next)
	return h
}

// maxPreformatted bounds the handlers one Outcome keeps, one per logger
// and method.
const maxPreformatted = 32

// preformattedLog is a handler of log with an Outcome's attributes and a
// method.
type preformattedLog struct {
	log     *slog.Logger
	method  string
	handler slog.Handler
}

// levelOf is the log level of a failed call.
func levelOf(c Call) slog.Level {
	if c.Outcome != nil && c.Outcome.ErrorID != "" {
		return slog.LevelError
	}
	switch c.Code {
	case codes.Unavailable, codes.ResourceExhausted, codes.Aborted, codes.DataLoss:
		return slog.LevelWarn
	case codes.Internal, codes.Unknown:
		// A status not made by the table (a pass-through): still the
		// server's own fault.
		return slog.LevelError
	default:
		// INVALID_ARGUMENT, NOT_FOUND, FAILED_PRECONDITION, ALREADY_EXISTS,
		// PERMISSION_DENIED, UNAUTHENTICATED, UNIMPLEMENTED, OUT_OF_RANGE,
		// and the caller's own CANCELLED and DEADLINE_EXCEEDED.
		return slog.LevelDebug
	}
}

// admitted logs, at INFO, a StartRun that admitted a new Run.
func (l *LogReporter) admitted(ctx context.Context, c Call) {
	r, ok := c.Response.(*runsvcv1.StartRunResponse)
	if !ok || !r.GetCreated() || !l.Log.Enabled(ctx, slog.LevelInfo) {
		return
	}
	attrs := []slog.Attr{slog.String("runId", r.GetRun().GetRunId()), slog.String("spec", r.GetRun().GetSpec())}
	if l.Tenant != nil {
		attrs = append(attrs, slog.String("tenant", l.Tenant(ctx)))
	}
	if sc := trace.SpanContextFromContext(ctx); sc.HasTraceID() {
		attrs = append(attrs, slog.String("traceId", sc.TraceID().String()))
	}
	l.Log.LogAttrs(ctx, slog.LevelInfo, "run admitted", attrs...)
}
