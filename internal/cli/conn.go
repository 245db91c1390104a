package cli

import (
	"context"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// connect creates the client connection. grpc dials lazily: a server that
// cannot be reached shows as UNAVAILABLE on the first call.
func (a *app) connect() error {
	if a.conn != nil {
		return nil
	}
	opts, err := a.dialOptions()
	if err != nil {
		return &clientError{code: codes.InvalidArgument, msg: err.Error()}
	}
	conn, err := grpc.NewClient(a.addr, append(opts, grpc.WithUserAgent("runsvc-cli"))...)
	if err != nil {
		return &clientError{code: codes.InvalidArgument, msg: "bad address " + a.addr + ": " + err.Error()}
	}
	a.conn = conn
	a.specs = runsvcv1.NewSpecServiceClient(conn)
	a.runs = runsvcv1.NewRunServiceClient(conn)
	return nil
}

// unary makes one unary call of rpc with --timeout, plus extra for calls
// that wait on purpose.
func unary[Req, Resp any](ctx context.Context, a *app, extra time.Duration, rpc func(context.Context, Req, ...grpc.CallOption) (Resp, error), req Req) (Resp, error) {
	if a.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, a.timeout+extra)
		defer cancel()
	}
	return rpc(ctx, req)
}
