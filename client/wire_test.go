package client_test

import (
	"context"
	"errors"
	"net"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/runsvc/runsvc/client"
	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/errs"
)

// scriptedRuns is a RunService whose GetRun fails with the next error the
// test queued under the run id, and succeeds once the queue is empty.
type scriptedRuns struct {
	runsvcv1.UnimplementedRunServiceServer
	mu    sync.Mutex
	queue map[string][]error
	calls map[string]int
}

func (s *scriptedRuns) GetRun(_ context.Context, req *runsvcv1.GetRunRequest) (*runsvcv1.GetRunResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := req.GetRunId()
	s.calls[id]++
	if q := s.queue[id]; len(q) > 0 {
		s.queue[id] = q[1:]
		return nil, q[0]
	}
	return &runsvcv1.GetRunResponse{Run: &runsvcv1.Run{RunId: id}}, nil
}

// serve starts a RunService behind the errdetails interceptors on
// 127.0.0.1 and returns a client of it.
func serve(t *testing.T, domain string, queue map[string][]error) (runsvcv1.RunServiceClient, *scriptedRuns) {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	m := errdetails.New(errdetails.Options{Domain: domain})
	srv := grpc.NewServer(grpc.UnaryInterceptor(m.UnaryServerInterceptor()))
	runs := &scriptedRuns{queue: queue, calls: map[string]int{}}
	runsvcv1.RegisterRunServiceServer(srv, runs)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return runsvcv1.NewRunServiceClient(conn), runs
}

func TestClassifyOverTheWire(t *testing.T) {
	cases := []struct {
		name      string
		err       error
		code      codes.Code
		reason    string
		retryable bool
		delay     time.Duration
		meta      map[string]string
	}{
		{"not found", &errs.RunNotFound{RunID: "run_1"}, codes.NotFound, client.ReasonRunNotFound, false, 0, map[string]string{"runId": "run_1"}},
		{"overloaded", &errs.Overloaded{Resource: "run admission", RetryAfter: 250 * time.Millisecond}, codes.Unavailable, client.ReasonOverloaded, true, 250 * time.Millisecond, map[string]string{"resource": "run admission"}},
		{"store default delay", &errs.StoreUnavailable{Operation: "append"}, codes.Unavailable, client.ReasonStoreUnavailable, true, time.Second, map[string]string{"operation": "append"}},
		{"inference refused", &errs.InferenceRejected{Provider: "p", HTTPStatus: 400}, codes.FailedPrecondition, client.ReasonInferenceRejected, false, 0, map[string]string{"httpStatus": "400"}},
		{"anything else", errors.New("boom"), codes.Internal, client.ReasonInternal, false, 0, nil},
	}
	queue := map[string][]error{}
	for _, tc := range cases {
		queue[tc.name] = []error{tc.err}
	}
	runs, _ := serve(t, "", queue)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := runs.GetRun(context.Background(), &runsvcv1.GetRunRequest{RunId: tc.name})
			c := client.Classify(err)
			if c.Code != tc.code || c.Reason != tc.reason || c.Domain != client.DefaultDomain || c.Retryable != tc.retryable || c.RetryDelay != tc.delay {
				t.Fatalf("Classify = %+v, want code %v reason %s retryable %v delay %v", c, tc.code, tc.reason, tc.retryable, tc.delay)
			}
			for k, v := range tc.meta {
				if c.Metadata[k] != v {
					t.Errorf("metadata %s = %q, want %q", k, c.Metadata[k], v)
				}
			}
			if _, ok := client.FromError(err, ""); !ok {
				t.Errorf("FromError(err, default domain) = false")
			}
			if _, ok := client.FromError(err, "elsewhere"); ok {
				t.Errorf("FromError(err, elsewhere) = true for a runsvc-domain error")
			}
		})
	}
}

func TestRetryOverTheWire(t *testing.T) {
	busy := func(d time.Duration) error { return &errs.Overloaded{Resource: "admission", RetryAfter: d} }
	cases := []struct {
		name      string
		domain    string // the server's
		errs      []error
		deadline  time.Duration
		wantCalls int
		wantErr   string // reason, "" for success
		wantWaits []time.Duration
	}{
		{"retries until success", "", []error{busy(20 * time.Millisecond), busy(30 * time.Millisecond)}, 0, 3, "", []time.Duration{20 * time.Millisecond, 30 * time.Millisecond}},
		{"not retryable", "", []error{&errs.RunNotFound{RunID: "x"}}, 0, 1, client.ReasonRunNotFound, nil},
		{"wait past the deadline", "", []error{busy(time.Hour)}, time.Minute, 1, client.ReasonOverloaded, nil},
		{"attempts run out", "", []error{busy(time.Millisecond), busy(time.Millisecond), busy(time.Millisecond)}, 0, 2, client.ReasonOverloaded, []time.Duration{time.Millisecond}},
		{"another domain", "other.example", []error{busy(time.Millisecond)}, 0, 1, client.ReasonOverloaded, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			runs, srv := serve(t, tc.domain, map[string][]error{"r": tc.errs})
			ctx := context.Background()
			if tc.deadline > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tc.deadline)
				defer cancel()
			}
			var waits []time.Duration
			opts := client.RetryOptions{
				Sleep: func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil },
			}
			if tc.name == "attempts run out" {
				opts.MaxAttempts = 2
			}
			err := client.Retry(ctx, opts, func(ctx context.Context) error {
				_, err := runs.GetRun(ctx, &runsvcv1.GetRunRequest{RunId: "r"})
				return err
			})
			if got := client.Classify(err).Reason; got != tc.wantErr {
				t.Errorf("Retry's error reason = %q (%v), want %q", got, err, tc.wantErr)
			}
			if srv.calls["r"] != tc.wantCalls {
				t.Errorf("calls = %d, want %d", srv.calls["r"], tc.wantCalls)
			}
			if len(waits) != len(tc.wantWaits) {
				t.Fatalf("waits = %v, want %v", waits, tc.wantWaits)
			}
			for i := range waits {
				if waits[i] != tc.wantWaits[i] {
					t.Errorf("wait %d = %v, want %v", i, waits[i], tc.wantWaits[i])
				}
			}
		})
	}
}
