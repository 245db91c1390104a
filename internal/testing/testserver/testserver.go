// Package testserver starts a whole runsvc in-process for tests: the real
// gRPC server on a free 127.0.0.1 port, a SQLite store in a temporary
// directory, and clients of every service. It stops when the test ends.
package testserver

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/evaluation"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/store"
)

// Server is a running runsvc and clients of it.
type Server struct {
	Addr       string
	Conn       *grpc.ClientConn
	Specs      runsvcv1.SpecServiceClient
	Runs       runsvcv1.RunServiceClient
	Tools      runsvcv1.ToolServiceClient
	Delegation runsvcv1.DelegationServiceClient
	Memory     runsvcv1.MemoryServiceClient
	Bus        runsvcv1.BusServiceClient
	// Log receives the server's log lines.
	Log *Buffer
	// Store is the server's store, for looking underneath.
	Store store.Store
	// MetricsAddr is where /metrics is served, when configured.
	MetricsAddr string
	// ConsoleURL is where the web console is served, when configured.
	ConsoleURL string
	// HTTPURL is where the HTTP API (REST, Connect, gRPC-Web) is served,
	// when configured (WithHTTP).
	HTTPURL string
	// MCPURL is the MCP server's own listener (WithMCP), "" without it.
	MCPURL string
	// Evaluations is the server's replay evaluation service, the
	// alias-move gate.
	Evaluations *evaluation.Service

	stop func()
}

// Stop shuts the server down gracefully now (as SIGTERM does) and waits
// for it, so that a test can start another on the same data (WithData);
// the test's end does the same for a server still running.
func (s *Server) Stop() { s.stop() }

// WithData serves on the data directory dir, not a new one: a server
// started after another stopped finds the same SQLite file.
func WithData(dir string) Option { return func(c *server.Config) { c.Data = dir } }

// WithMCP serves the MCP server on a free 127.0.0.1 port (Server.MCPURL).
func WithMCP() Option { return func(c *server.Config) { c.MCP.Listen = "127.0.0.1:0" } }

// WithHTTP serves the HTTP API on a free 127.0.0.1 port (Server.HTTPURL).
func WithHTTP() Option { return func(c *server.Config) { c.HTTP.Listen = "127.0.0.1:0" } }

// Option changes the configuration before the server starts.
type Option func(*server.Config)

// Start runs a server until the test ends.
func Start(t testing.TB, opts ...Option) *Server {
	t.Helper()
	cfg := server.Config{Listen: "127.0.0.1:0", Data: t.TempDir(), WorkerID: "test-worker", DrainTimeout: 5 * time.Second}
	cfg.Engine.PollInterval = 50 * time.Millisecond
	cfg.Engine.RetryBase = 10 * time.Millisecond
	cfg.Engine.RetryMax = 100 * time.Millisecond
	for _, o := range opts {
		o(&cfg)
	}
	buf := &Buffer{}
	log := slog.New(slog.NewJSONHandler(buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := server.New(ctx, cfg, log)
	if err != nil {
		cancel()
		t.Fatalf("starting runsvc: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx) }()
	s := &Server{Addr: srv.Addr(), Log: buf, Store: srv.Store(), MetricsAddr: srv.MetricsAddr(), ConsoleURL: srv.ConsoleURL(), HTTPURL: srv.HTTPURL(), MCPURL: srv.MCPURL(),
		Evaluations: srv.Evaluations()}
	s.Conn = Dial(t, s.Addr)
	s.Specs = runsvcv1.NewSpecServiceClient(s.Conn)
	s.Runs = runsvcv1.NewRunServiceClient(s.Conn)
	s.Tools = runsvcv1.NewToolServiceClient(s.Conn)
	s.Delegation = runsvcv1.NewDelegationServiceClient(s.Conn)
	s.Memory = runsvcv1.NewMemoryServiceClient(s.Conn)
	s.Bus = runsvcv1.NewBusServiceClient(s.Conn)
	s.stop = sync.OnceFunc(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("runsvc stopped with %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Error("runsvc did not stop within 30s")
		}
	})
	t.Cleanup(s.stop)
	return s
}

// Dial opens a client connection that closes when the test ends.
func Dial(t testing.TB, addr string, opts ...grpc.DialOption) *grpc.ClientConn {
	t.Helper()
	conn, err := grpc.NewClient(addr, append([]grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

// Context returns a context that ends with the test, or after a minute.
func Context(t testing.TB) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}
