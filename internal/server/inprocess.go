package server

import (
	"context"
	"net"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"

	"github.com/runsvc/runsvc/internal/service"
)

// inProcess is an in-process gRPC server holding the API's services
// behind the API's interceptors (errors, admission, authentication,
// roles, quotas: the API's server options less its transport
// credentials), and a client connection to it over a pipe, reachable only
// from this process. The console and the MCP server each call runsvc
// through one.
type inProcess struct {
	server *grpc.Server
	pipe   *bufconn.Listener
	conn   *grpc.ClientConn
}

// newInProcess builds an in-process server of svc with opts, and its
// client connection, named name in the connection's target.
func newInProcess(opts []grpc.ServerOption, svc *service.Service, name string) (*inProcess, error) {
	p := &inProcess{server: grpc.NewServer(opts...), pipe: bufconn.Listen(1 << 20)}
	svc.Register(p.server)
	pipe := p.pipe
	conn, err := grpc.NewClient("passthrough:///"+name,
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return pipe.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, err
	}
	p.conn = conn
	return p, nil
}

// serve serves the pipe until stop.
func (p *inProcess) serve() { go func() { _ = p.server.Serve(p.pipe) }() }

// stop closes the connection, then lets the calls in flight finish.
func (p *inProcess) stop() {
	_ = p.conn.Close()
	p.server.GracefulStop()
}

// stopNow ends the calls left after a drain timed out.
func (p *inProcess) stopNow() { p.server.Stop() }
