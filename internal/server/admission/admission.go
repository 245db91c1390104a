// Package admission turns calls away when the server already holds as many
// as it was sized for: an *errs.Overloaded with a retry delay, which
// clients and meshes see as UNAVAILABLE with RetryInfo and back off from.
package admission

import (
	"context"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"

	"github.com/runsvc/runsvc/internal/errs"
)

// RetryAfter is the delay an overloaded server asks for.
const RetryAfter = 250 * time.Millisecond

// Limiter bounds calls in flight: unary calls and streams separately,
// since streams (watches, workers) are long-lived. Zero means unlimited.
type Limiter struct {
	maxUnary, maxStreams int64
	unary, streams       atomic.Int64
}

// New returns a Limiter.
func New(maxUnary, maxStreams int) *Limiter {
	return &Limiter{maxUnary: int64(maxUnary), maxStreams: int64(maxStreams)}
}

// UnaryServerInterceptor admits a unary call or refuses it.
func (l *Limiter) UnaryServerInterceptor() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		n := l.unary.Add(1)
		defer l.unary.Add(-1)
		if l.maxUnary > 0 && n > l.maxUnary {
			return nil, &errs.Overloaded{Resource: "concurrent calls", RetryAfter: RetryAfter}
		}
		return handler(ctx, req)
	}
}

// StreamServerInterceptor admits a stream or refuses it.
func (l *Limiter) StreamServerInterceptor() grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		n := l.streams.Add(1)
		defer l.streams.Add(-1)
		if l.maxStreams > 0 && n > l.maxStreams {
			return &errs.Overloaded{Resource: "concurrent streams", RetryAfter: RetryAfter}
		}
		return handler(srv, ss)
	}
}
