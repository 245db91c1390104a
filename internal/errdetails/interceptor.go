package errdetails

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// The server's interceptors each do one thing, in the style of
// go-grpc-middleware v2, and are chained outermost first:
//
//	Observe(reporters...)  times the call and tells each Reporter how it ended
//	Mapper's interceptors  map an error through the table and set the pushback trailer
//	Recover()              turns a panic into an error for the Mapper
//
// Interceptors placed after Recover (admission) see only plain errors. On
// the unary path, where every RPC pays for each link of grpc-go's chain,
// ServerInterceptors and ObservedUnaryServerInterceptor run the first
// links as one interceptor doing the same steps in the same order.

// Reporter is told how each RPC ended. Reporters must be quick: they run on
// the request path, after the handler.
type Reporter interface {
	Report(ctx context.Context, c Call)
}

// Call is one finished RPC as a Reporter sees it.
type Call struct {
	// Method is the full method name, "/runsvc.v1.RunService/GetRun".
	Method string
	// Code is the status code the client receives (OK on success).
	Code codes.Code
	// Reason is the ErrorInfo reason the table gave, or "" when the call
	// succeeded or its status passed through unmapped (grpc's own services).
	Reason string
	// Message is the status message.
	Message string
	// Duration is how long the handler ran.
	Duration time.Duration
	// Outcome is the table's mapping, nil when the Mapper did not map. It
	// may be shared with other calls: read it, never modify it.
	Outcome *Outcome
	// Request and Response are a unary call's, nil for streams (and
	// Response nil on failure).
	Request, Response any
}

// slotContext is a call's context with the slot where the Mapper leaves
// its Outcome for Observe: one allocation per call where context.WithValue
// and a separate slot were two. Every other key is the parent's, so the
// context derives and cancels as a context.WithValue one does.
type slotContext struct {
	context.Context
	outcome *Outcome
}

type slotKey struct{}

// Value returns the slot itself for slotKey, the parent's value otherwise.
func (s *slotContext) Value(key any) any {
	if _, ok := key.(slotKey); ok {
		return s
	}
	return s.Context.Value(key)
}

func slotFrom(ctx context.Context) *slotContext {
	s, _ := ctx.Value(slotKey{}).(*slotContext)
	return s
}

// Observe returns the interceptors that report every call to reporters.
// Put them first in the chain so that they see the mapped status.
func Observe(reporters ...Reporter) (grpc.UnaryServerInterceptor, grpc.StreamServerInterceptor) {
	report := reportTo(reporters)
	unary := func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		slot, start := &slotContext{Context: ctx}, time.Now()
		resp, err := handler(slot, req)
		report(slot, Call{Method: info.FullMethod, Request: req, Response: resp}, slot.outcome, err, start)
		return resp, err
	}
	stream := func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		slot, start := &slotContext{Context: ss.Context()}, time.Now()
		err := handler(srv, &contextStream{ServerStream: ss, ctx: slot})
		report(slot, Call{Method: info.FullMethod}, slot.outcome, err, start)
		return err
	}
	return unary, stream
}

// reportTo returns the func that tells reporters how a call ended: with
// err, as the Mapper made it from the Outcome o (nil when it did not map).
func reportTo(reporters []Reporter) func(ctx context.Context, c Call, o *Outcome, err error, start time.Time) {
	return func(ctx context.Context, c Call, o *Outcome, err error, start time.Time) {
		st := status.Convert(err)
		c.Code, c.Message, c.Duration, c.Outcome = st.Code(), st.Message(), time.Since(start), o
		if o != nil {
			c.Reason = o.Reason
		}
		for _, r := range reporters {
			r.Report(ctx, c)
		}
	}
}

// contextStream is a ServerStream with another context.
type contextStream struct {
	grpc.ServerStream
	ctx context.Context
}

// Context returns the stream's replaced context.
func (s *contextStream) Context() context.Context { return s.ctx }

// Recover returns the interceptors that turn a handler's panic into an
// error carrying the value and stack, which the Mapper makes INTERNAL (the
// stack goes to the log only).
func Recover() (grpc.UnaryServerInterceptor, grpc.StreamServerInterceptor) {
	unary := func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		return recovered(ctx, req, handler)
	}
	stream := func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) (err error) {
		defer func() {
			if p := recover(); p != nil {
				err = panicked(p)
			}
		}()
		return handler(srv, ss)
	}
	return unary, stream
}

// recovered calls a unary handler, turning its panic into an error.
func recovered(ctx context.Context, req any, handler grpc.UnaryHandler) (resp any, err error) {
	defer func() {
		if p := recover(); p != nil {
			resp, err = nil, panicked(p)
		}
	}()
	return handler(ctx, req)
}

// ownService reports whether a method belongs to grpc's own services
// (health, reflection), whose statuses pass through unchanged.
func ownService(method string) bool { return strings.HasPrefix(method, "/grpc.") }

// UnaryServerInterceptor maps every error a unary handler returns through
// the table and sets the pushback trailer. It sets only trailers, so an
// error response stays Trailers-Only. grpc's own services pass through.
func (m *Mapper) UnaryServerInterceptor() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		resp, err := handler(ctx, req)
		if err == nil || ownService(info.FullMethod) {
			return resp, err
		}
		return nil, m.fail(ctx, err, func(md metadata.MD) error { return grpc.SetTrailer(ctx, md) })
	}
}

// StreamServerInterceptor is UnaryServerInterceptor for streams: a stream
// that fails, even after sending messages, ends with the mapped status.
func (m *Mapper) StreamServerInterceptor() grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		err := handler(srv, ss)
		if err == nil || ownService(info.FullMethod) {
			return err
		}
		return m.fail(ss.Context(), err, func(md metadata.MD) error { ss.SetTrailer(md); return nil })
	}
}

// ServerInterceptors returns the whole chain, outermost first: Observe
// with reporters, the Mapper, Recover. Append admission and the like. The
// three unary ones come as one interceptor that does what the three do in
// turn (see ObservedUnaryServerInterceptor).
func (m *Mapper) ServerInterceptors(reporters ...Reporter) ([]grpc.UnaryServerInterceptor, []grpc.StreamServerInterceptor) {
	_, os := Observe(reporters...)
	_, rs := Recover()
	return []grpc.UnaryServerInterceptor{m.observedUnary(reporters, true)},
		[]grpc.StreamServerInterceptor{os, m.StreamServerInterceptor(), rs}
}

// ObservedUnaryServerInterceptor is Observe's unary interceptor with the
// Mapper's right inside it, as one: the same calls and order, but
// grpc-go's chain allocates a handler closure per interceptor on every
// call, and these two run on every RPC of the server.
func (m *Mapper) ObservedUnaryServerInterceptor(reporters ...Reporter) grpc.UnaryServerInterceptor {
	return m.observedUnary(reporters, false)
}

// observedUnary is Observe, the Mapper and, when recovering, Recover, as
// one unary interceptor. The Outcome goes straight from the Mapper to the
// report, so the call's context needs no slot for it.
func (m *Mapper) observedUnary(reporters []Reporter, recovering bool) grpc.UnaryServerInterceptor {
	report := reportTo(reporters)
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		start := time.Now()
		var resp any
		var err error
		if recovering {
			resp, err = recovered(ctx, req, handler)
		} else {
			resp, err = handler(ctx, req)
		}
		var o *Outcome
		if err != nil && !ownService(info.FullMethod) {
			o = m.failed(ctx, err)
			resp, err = nil, o.send(func(md metadata.MD) error { return grpc.SetTrailer(ctx, md) })
		}
		report(ctx, Call{Method: info.FullMethod, Request: req, Response: resp}, o, err, start)
		return resp, err
	}
}

// fail maps an RPC's error and sets its trailers (see wire.go): the
// pushback, and the encoded status, whose code and message it returns for
// grpc to send. Where no trailer can be set (an interceptor called outside
// a server), it returns the whole status instead.
func (m *Mapper) fail(ctx context.Context, err error, setTrailer func(metadata.MD) error) error {
	o := m.failed(ctx, err)
	if slot := slotFrom(ctx); slot != nil {
		slot.outcome = o
	}
	return o.send(setTrailer)
}

// failed maps an RPC's error, seen as fail sees it.
func (m *Mapper) failed(ctx context.Context, err error) *Outcome {
	if callerGone(ctx, err) {
		err = ctx.Err()
	}
	return m.mapError(ctx, err)
}

// send sets the Outcome's trailers and returns the error for grpc to send
// (see fail).
func (o *Outcome) send(setTrailer func(metadata.MD) error) error {
	w := o.wireOf()
	if setTrailer(w.trailer) != nil {
		return o.Status.Err()
	}
	return w.err
}

// callerGone reports whether err is grpc's own status for the caller's
// end of the call (a send on a stream the caller cancelled), which is
// the caller's cancellation, not a failure of runsvc's.
func callerGone(ctx context.Context, err error) bool {
	if ctx.Err() == nil {
		return false
	}
	st, ok := status.FromError(err)
	return ok && (st.Code() == codes.Canceled || st.Code() == codes.DeadlineExceeded)
}

type panicError struct {
	value any
	stack []byte
}

func (p *panicError) Error() string { return fmt.Sprintf("panic: %v\n%s", p.value, p.stack) }

func panicked(v any) error { return &panicError{value: v, stack: debug.Stack()} }
