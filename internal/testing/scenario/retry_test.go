package scenario_test

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/stats"
	"google.golang.org/protobuf/types/known/durationpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/server/admission"
	"github.com/runsvc/runsvc/internal/testing/scenario"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// attempts counts the attempts grpc-go makes, retries included: a client
// stats handler sees each attempt begin.
type attempts struct {
	mu sync.Mutex
	n  int
}

func (a *attempts) TagRPC(ctx context.Context, _ *stats.RPCTagInfo) context.Context { return ctx }
func (a *attempts) HandleRPC(_ context.Context, s stats.RPCStats) {
	if _, ok := s.(*stats.Begin); ok {
		a.mu.Lock()
		a.n++
		a.mu.Unlock()
	}
}
func (a *attempts) TagConn(ctx context.Context, _ *stats.ConnTagInfo) context.Context { return ctx }
func (a *attempts) HandleConn(context.Context, stats.ConnStats)                       {}
func (a *attempts) take() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := a.n
	a.n = 0
	return n
}

func recommendedConfig(t *testing.T) string {
	b, err := os.ReadFile(repoFile(t, "grpc-service-config.json"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRecommendedRetryConfig: grpc-go with the shipped service config
// retries a retryable error after its pushback, and retries none of the
// scenarios' non-retryable errors, although several share a retryable
// code.
func TestRecommendedRetryConfig(t *testing.T) {
	cfg := recommendedConfig(t)

	t.Run("non-retryable scenarios are tried once", func(t *testing.T) {
		f, err := scenario.Load(repoFile(t, "testdata/scenarios.json"))
		if err != nil {
			t.Fatal(err)
		}
		srv := testserver.Start(t, func(c *server.Config) { c.PolicyFile = repoFile(t, "testdata/policy.json") })
		r := &scenario.Runner{Conn: srv.Conn, Suite: "retry"}
		ctx := testserver.Context(t)
		if err := r.Setup(ctx, f); err != nil {
			t.Fatal(err)
		}
		counter := &attempts{}
		retrying := &scenario.Runner{Conn: testserver.Dial(t, srv.Addr, grpc.WithDefaultServiceConfig(cfg), grpc.WithStatsHandler(counter))}
		for _, s := range f.Scenarios {
			if s.Server != "" {
				// Other settings' rows wait out delays (a quota's minute)
				// five attempts cannot; TestScenarios checks their
				// pushback trailers.
				continue
			}
			o, err := r.Run(ctx, s)
			if err != nil {
				t.Fatalf("%s: %v", s.Name, err)
			}
			if !o.RPC {
				continue
			}
			t.Run(s.Name, func(t *testing.T) {
				counter.take()
				_, err := retrying.Call(ctx, o.Method, o.Request)
				if c := errdetails.Classify(err); c.Reason != s.Reason {
					t.Fatalf("got %s, want %s", c.Reason, s.Reason)
				}
				want := 1
				if s.Retryable {
					want = 5
				}
				if got := counter.take(); got != want {
					t.Errorf("%d attempts, want %d (%s is retryable=%v)", got, want, s.Reason, s.Retryable)
				}
			})
		}
	})

	t.Run("a retryable error is retried after its pushback", func(t *testing.T) {
		srv := testserver.Start(t, func(c *server.Config) { c.MaxUnaryCalls = 1 })
		srv.Publish(t, `{"name": "slow", "model": {"provider": "scripted", "script": {"turns": [{"text": "done", "delay": "60s"}]}}}`)
		run := srv.Start(t, "slow", "go")
		ctx := testserver.Context(t)
		// Hold the one unary slot for a second.
		held := make(chan struct{})
		go func() {
			defer close(held)
			_, _ = srv.Runs.WaitRun(ctx, &runsvcv1.WaitRunRequest{RunId: run.GetRunId(), Wait: durationpb.New(time.Second)})
		}()
		time.Sleep(100 * time.Millisecond)
		counter := &attempts{}
		conn := testserver.Dial(t, srv.Addr, grpc.WithDefaultServiceConfig(cfg), grpc.WithStatsHandler(counter))
		start := time.Now()
		_, err := runsvcv1.NewRunServiceClient(conn).GetRun(ctx, &runsvcv1.GetRunRequest{RunId: run.GetRunId()})
		took := time.Since(start)
		<-held
		if err != nil {
			t.Fatalf("the retried call failed: %v", err)
		}
		n := counter.take()
		if n < 2 {
			t.Fatalf("%d attempts; the OVERLOADED answer was not retried", n)
		}
		if min := time.Duration(n-1) * admission.RetryAfter; took < min {
			t.Errorf("%d attempts in %v: faster than the %v pushback allows", n, took, admission.RetryAfter)
		}
	})
}
