package server_test

import (
	"context"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestLongWaitsEndBeforeTheDeadline: a wait longer than the caller's
// deadline ends just before it with the method's own answer (OK, or
// DEADLINE_EXCEEDED carrying ErrorInfo), never a reset stream.
func TestLongWaitsEndBeforeTheDeadline(t *testing.T) {
	srv := testserver.Start(t)
	srv.Publish(t, `{"name": "slow", "model": {"provider": "scripted", "script": {"turns": [{"text": "late", "delay": "600s"}]}}}`)
	srv.Publish(t, `{"name": "listener", "model": {"provider": "scripted", "script": {"turns": [{"text": "x"}]}}, "bus": {"enabled": true, "channels": ["quiet"]}}`)
	run := srv.Start(t, "slow", "hi")
	d, err := srv.Delegation.Delegate(testserver.Context(t), &runsvcv1.DelegateRequest{Spec: "slow", Task: "t", Async: true})
	if err != nil {
		t.Fatal(err)
	}
	long := durationpb.New(5 * time.Minute)
	tests := []struct {
		name   string
		call   func(ctx context.Context) error
		reason string // "" for OK
	}{
		{"WaitRun", func(ctx context.Context) error {
			res, err := srv.Runs.WaitRun(ctx, &runsvcv1.WaitRunRequest{RunId: run.GetRunId(), Wait: long})
			if err == nil && res.GetRun().GetState() != runsvcv1.RunState_RUN_STATE_RUNNING {
				t.Errorf("WaitRun answered %v, want the Run as it is, RUNNING", res.GetRun().GetState())
			}
			return err
		}, ""},
		{"GetValue with wait", func(ctx context.Context) error {
			_, err := srv.Memory.GetValue(ctx, &runsvcv1.GetValueRequest{Scope: &runsvcv1.MemoryScope{Scope: &runsvcv1.MemoryScope_Namespace{Namespace: "ns"}}, Keys: []string{"a", "b"}, Wait: long})
			return err
		}, "AWAIT_TIMEOUT"},
		{"AwaitDelegation", func(ctx context.Context) error {
			_, err := srv.Delegation.AwaitDelegation(ctx, &runsvcv1.AwaitDelegationRequest{DelegationId: d.GetDelegation().GetDelegationId(), Timeout: long})
			return err
		}, "DELEGATION_TIMEOUT"},
		{"Receive", func(ctx context.Context) error {
			stream, err := srv.Bus.Receive(ctx, &runsvcv1.ReceiveRequest{Channel: "quiet"})
			if err != nil {
				return err
			}
			return testserver.Drain(stream)
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(testserver.Context(t), 2*time.Second)
			defer cancel()
			err := tt.call(ctx)
			if ctx.Err() != nil {
				t.Fatalf("the call outlasted the caller's deadline: %v", err)
			}
			if tt.reason == "" {
				if err != nil {
					t.Fatalf("got %v, want the method's answer", err)
				}
				return
			}
			c := errdetails.Classify(err)
			if status.Code(err) != codes.DeadlineExceeded || c.Reason != tt.reason {
				t.Fatalf("got %v (reason %q), want DEADLINE_EXCEEDED %s", err, c.Reason, tt.reason)
			}
		})
	}
}
