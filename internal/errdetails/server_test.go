package errdetails_test

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errdetails"
)

// failingRuns is a RunService whose GetRun returns whatever error the test
// put under the requested run id, and whose WatchRun sends one record
// before failing the same way.
type failingRuns struct {
	runsvcv1.UnimplementedRunServiceServer
	mu       sync.Mutex
	errs     map[string]func() error
	attempts map[string]int
}

func (f *failingRuns) set(id string, fn func() error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errs[id] = fn
}

func (f *failingRuns) attemptsOf(id string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.attempts[id]
}

func (f *failingRuns) lookup(id string) func() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.attempts[id]++
	return f.errs[id]
}

func (f *failingRuns) GetRun(_ context.Context, req *runsvcv1.GetRunRequest) (*runsvcv1.GetRunResponse, error) {
	if fn := f.lookup(req.GetRunId()); fn != nil {
		if err := fn(); err != nil {
			return nil, err
		}
	}
	return &runsvcv1.GetRunResponse{Run: &runsvcv1.Run{RunId: req.GetRunId()}}, nil
}

func (f *failingRuns) WatchRun(req *runsvcv1.WatchRunRequest, stream grpc.ServerStreamingServer[runsvcv1.WatchRunResponse]) error {
	if err := stream.Send(&runsvcv1.WatchRunResponse{Record: &runsvcv1.Record{Seq: 1}}); err != nil {
		return err
	}
	if fn := f.lookup(req.GetRunId()); fn != nil {
		return fn()
	}
	return nil
}

// testServer is a real gRPC server on a loopback port with the mapper's
// interceptors, and a log the test can read.
type testServer struct {
	addr string
	runs *failingRuns
	log  *syncBuffer
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func startServer(t *testing.T, opts errdetails.Options) *testServer {
	t.Helper()
	ts := &testServer{runs: &failingRuns{errs: map[string]func() error{}, attempts: map[string]int{}}, log: &syncBuffer{}}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewJSONHandler(ts.log, nil))
	}
	m := errdetails.New(opts)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	unary, stream := m.ServerInterceptors(m.LogReporter())
	srv := grpc.NewServer(grpc.ChainUnaryInterceptor(unary...), grpc.ChainStreamInterceptor(stream...))
	runsvcv1.RegisterRunServiceServer(srv, ts.runs)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	ts.addr = lis.Addr().String()
	return ts
}

func (ts *testServer) dial(t *testing.T, opts ...grpc.DialOption) runsvcv1.RunServiceClient {
	t.Helper()
	conn, err := grpc.NewClient(ts.addr, append([]grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return runsvcv1.NewRunServiceClient(conn)
}

func testContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}
