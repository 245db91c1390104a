package client_test

import (
	"context"
	"fmt"
	"time"

	edpb "google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/runsvc/runsvc/client"
)

// overloaded is the status a busy runsvc answers with.
func overloaded(delay time.Duration) error {
	st, _ := status.New(codes.Unavailable, "server overloaded: run admission").WithDetails(
		&edpb.ErrorInfo{Reason: client.ReasonOverloaded, Domain: client.DefaultDomain, Metadata: map[string]string{"resource": "run admission"}},
		&edpb.RetryInfo{RetryDelay: durationpb.New(delay)},
	)
	return st.Err()
}

func ExampleClassify() {
	c := client.Classify(overloaded(250 * time.Millisecond))
	fmt.Println(c.Code, c.Reason, c.Metadata["resource"], c.Retryable, c.RetryDelay)
	// Output: Unavailable OVERLOADED run admission true 250ms
}

func ExampleFromError() {
	st, _ := status.New(codes.NotFound, "run run_1 not found").WithDetails(
		&edpb.ErrorInfo{Reason: client.ReasonRunNotFound, Domain: "runsvc", Metadata: map[string]string{"runId": "run_1"}})
	if e, ok := client.FromError(st.Err(), ""); ok && e.Reason == client.ReasonRunNotFound {
		fmt.Println("no such run:", e.Metadata["runId"])
	}
	_, ok := client.FromError(st.Err(), "other.example")
	fmt.Println("from other.example:", ok)
	// Output:
	// no such run: run_1
	// from other.example: false
}

func ExampleRetry() {
	calls := 0
	err := client.Retry(context.Background(), client.RetryOptions{
		OnRetry: func(attempt int, err error, delay time.Duration) {
			fmt.Printf("attempt %d: %s, retrying in %s\n", attempt, client.Classify(err).Reason, delay)
		},
	}, func(ctx context.Context) error {
		calls++
		if calls < 3 {
			return overloaded(10 * time.Millisecond)
		}
		return nil
	})
	fmt.Println("calls:", calls, "err:", err)
	// Output:
	// attempt 1: OVERLOADED, retrying in 10ms
	// attempt 2: OVERLOADED, retrying in 10ms
	// calls: 3 err: <nil>
}
