package errdetails

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// UnaryServerInterceptor maps every error a unary handler returns, or a
// panic it raises, through the table. It sets only trailers, so an error
// response stays Trailers-Only.
func (m *Mapper) UnaryServerInterceptor() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (resp any, err error) {
		defer func() {
			if p := recover(); p != nil {
				resp, err = nil, m.fail(ctx, info.FullMethod, panicked(p), func(md metadata.MD) { _ = grpc.SetTrailer(ctx, md) })
			}
		}()
		resp, err = handler(ctx, req)
		if err != nil {
			return nil, m.fail(ctx, info.FullMethod, err, func(md metadata.MD) { _ = grpc.SetTrailer(ctx, md) })
		}
		return resp, nil
	}
}

// StreamServerInterceptor is UnaryServerInterceptor for streams: a stream
// that fails, even after sending messages, ends with the mapped status.
func (m *Mapper) StreamServerInterceptor() grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) (err error) {
		defer func() {
			if p := recover(); p != nil {
				err = m.fail(ss.Context(), info.FullMethod, panicked(p), ss.SetTrailer)
			}
		}()
		if err = handler(srv, ss); err != nil {
			return m.fail(ss.Context(), info.FullMethod, err, ss.SetTrailer)
		}
		return nil
	}
}

func (m *Mapper) fail(ctx context.Context, method string, err error, setTrailer func(metadata.MD)) error {
	o := m.Map(ctx, err)
	setTrailer(metadata.MD{PushbackTrailer: []string{o.Pushback()}})
	if o.ErrorID != "" {
		m.log.LogAttrs(ctx, slog.LevelError, "rpc failed",
			slog.String("method", method), slog.String("code", o.Status.Code().String()), slog.String("reason", o.Reason),
			slog.String("errorId", o.ErrorID), slog.String("cause", fmt.Sprint(o.Cause)))
	} else {
		m.log.LogAttrs(ctx, slog.LevelInfo, "rpc failed",
			slog.String("method", method), slog.String("code", o.Status.Code().String()), slog.String("reason", o.Reason),
			slog.String("message", o.Status.Message()))
	}
	return o.Status.Err()
}

type panicError struct {
	value any
	stack []byte
}

func (p *panicError) Error() string { return fmt.Sprintf("panic: %v\n%s", p.value, p.stack) }

func panicked(v any) error { return &panicError{value: v, stack: debug.Stack()} }
