package errdetails_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	edpb "google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/errs"
)

const retryServiceConfig = `{
  "methodConfig": [{
    "name": [{"service": "runsvc.v1.RunService"}],
    "retryPolicy": {
      "maxAttempts": 3,
      "initialBackoff": "0.01s",
      "maxBackoff": "0.05s",
      "backoffMultiplier": 2,
      "retryableStatusCodes": ["UNAVAILABLE", "RESOURCE_EXHAUSTED"]
    }
  }]
}`

// TestGRPCRetryObeysPushback: grpc-go's own retry, configured to retry
// UNAVAILABLE and RESOURCE_EXHAUSTED, waits the pushback of a retryable
// error and does not retry a non-retryable error of the same code.
func TestGRPCRetryObeysPushback(t *testing.T) {
	ts := startServer(t, errdetails.Options{})
	client := ts.dial(t, grpc.WithDefaultServiceConfig(retryServiceConfig))
	const pushback = 300 * time.Millisecond
	cases := []struct {
		name     string
		err      error
		attempts int
		waits    bool
	}{
		{name: "retryable RESOURCE_EXHAUSTED", err: &errs.InferenceRateLimited{Provider: "openai", Model: "m", RetryAfter: pushback}, attempts: 2, waits: true},
		{name: "non-retryable RESOURCE_EXHAUSTED", err: &errs.BudgetExceeded{Dimension: "tokens", Requested: 12, Limit: 10}, attempts: 1},
		{name: "retryable UNAVAILABLE", err: &errs.TransientFailure{Operation: "op", Message: "reset", RetryAfter: pushback}, attempts: 2, waits: true},
		{name: "non-retryable TOOL_REJECTED", err: &errs.ToolRejected{Tool: "t", Message: "bad input"}, attempts: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			id := "retry-" + strings.ReplaceAll(tc.name, " ", "-")
			calls := 0
			ts.runs.set(id, func() error {
				calls++
				if calls == 1 {
					return tc.err
				}
				return nil
			})
			start := time.Now()
			_, err := client.GetRun(testContext(t), &runsvcv1.GetRunRequest{RunId: id})
			elapsed := time.Since(start)
			if got := ts.runs.attemptsOf(id); got != tc.attempts {
				t.Fatalf("server saw %d attempts, want %d (err %v)", got, tc.attempts, err)
			}
			if tc.waits {
				if err != nil {
					t.Fatalf("retried call failed: %v", err)
				}
				if elapsed < pushback {
					t.Errorf("retried after %v, before the %v pushback", elapsed, pushback)
				}
			} else if err == nil {
				t.Fatal("non-retryable error was retried into a success")
			}
		})
	}
}

// TestPanicBecomesInternal: a panicking handler gives INTERNAL with an
// errorId; the server log has the same id and the panic, the client
// neither stack nor path.
func TestPanicBecomesInternal(t *testing.T) {
	ts := startServer(t, errdetails.Options{})
	client := ts.dial(t)
	ts.runs.set("boom", func() error { panic("boom: index out of range in /srv/runsvc/internal/engine/loop.go:42") })
	_, err := client.GetRun(testContext(t), &runsvcv1.GetRunRequest{RunId: "boom"})
	c := errdetails.Classify(err)
	if c.Code != codes.Internal || c.Reason != "INTERNAL" {
		t.Fatalf("got %v %s", c.Code, c.Reason)
	}
	id := c.Metadata["errorId"]
	if !strings.HasPrefix(id, "err_") {
		t.Fatalf("errorId = %q", id)
	}
	for _, leak := range []string{"boom", "loop.go", "/srv", "goroutine"} {
		if strings.Contains(fmt.Sprint(status.Convert(err).Proto()), leak) {
			t.Errorf("client status leaks %q: %v", leak, status.Convert(err).Proto())
		}
	}
	logged := ts.log.String()
	var line string
	for _, l := range strings.Split(logged, "\n") {
		if strings.Contains(l, id) {
			line = l
		}
	}
	if line == "" {
		t.Fatalf("no log line carries %s:\n%s", id, logged)
	}
	for _, want := range []string{"panic: boom", "goroutine", "GetRun", `"code":"Internal"`} {
		if !strings.Contains(line, want) {
			t.Errorf("log line lacks %q: %s", want, line)
		}
	}
}

// TestDebugInfoOnlyWhenAsked: the cause reaches a client only with the
// explicit debug switch.
func TestDebugInfoOnlyWhenAsked(t *testing.T) {
	for _, debug := range []bool{false, true} {
		t.Run(fmt.Sprintf("debug=%v", debug), func(t *testing.T) {
			ts := startServer(t, errdetails.Options{Debug: debug})
			client := ts.dial(t)
			ts.runs.set("x", func() error { return errors.New("disk /data full") })
			_, err := client.GetRun(testContext(t), &runsvcv1.GetRunRequest{RunId: "x"})
			var found bool
			for _, d := range status.Convert(err).Details() {
				if di, ok := d.(*edpb.DebugInfo); ok && strings.Contains(di.GetDetail(), "disk /data full") {
					found = true
				}
			}
			if found != debug {
				t.Errorf("DebugInfo with the cause present = %v, want %v", found, debug)
			}
		})
	}
}

// TestOnlyTheCallersContextEndsAsCancelled: the caller's deadline is
// DEADLINE_EXCEEDED; a timeout inside the server is INTERNAL.
func TestOnlyTheCallersContextEndsAsCancelled(t *testing.T) {
	ts := startServer(t, errdetails.Options{})
	client := ts.dial(t)

	t.Run("server-side timeout", func(t *testing.T) {
		ts.runs.set("inner", func() error {
			ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
			defer cancel()
			<-ctx.Done()
			return fmt.Errorf("calling the store: %w", ctx.Err())
		})
		_, err := client.GetRun(testContext(t), &runsvcv1.GetRunRequest{RunId: "inner"})
		if c := errdetails.Classify(err); c.Code != codes.Internal || c.Reason != "INTERNAL" {
			t.Errorf("got %v %s, want INTERNAL", c.Code, c.Reason)
		}
	})

	t.Run("caller's own deadline", func(t *testing.T) {
		m := errdetails.New(errdetails.Options{})
		ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
		defer cancel()
		<-ctx.Done()
		o := m.Map(ctx, fmt.Errorf("waiting: %w", ctx.Err()))
		if o.Status.Code() != codes.DeadlineExceeded || o.Reason != errdetails.ReasonDeadlineExceeded {
			t.Errorf("got %v %s", o.Status.Code(), o.Reason)
		}
	})

	t.Run("caller's own cancellation", func(t *testing.T) {
		m := errdetails.New(errdetails.Options{})
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		o := m.Map(ctx, ctx.Err())
		if o.Status.Code() != codes.Canceled || o.Reason != errdetails.ReasonCancelled {
			t.Errorf("got %v %s", o.Status.Code(), o.Reason)
		}
	})
}
