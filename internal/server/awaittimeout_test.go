package server_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestAwaitTimeoutNamesTheNamespace: AWAIT_TIMEOUT says which memory was
// waited on, in its message and its ErrorInfo metadata, for a named
// namespace and a Run family's memory, whether the wait ran out or the
// caller's deadline came first (issue 31, item 12).
func TestAwaitTimeoutNamesTheNamespace(t *testing.T) {
	srv := testserver.Start(t)
	srv.Publish(t, `{"name": "asker", "model": {"provider": "scripted", "script": {"turns": [{"text": "x"}]}}}`)
	run := srv.Start(t, "asker", "hi")
	named := &runsvcv1.MemoryScope{Scope: &runsvcv1.MemoryScope_Namespace{Namespace: "team"}}
	family := &runsvcv1.MemoryScope{Scope: &runsvcv1.MemoryScope_RunId{RunId: run.GetRunId()}}
	tests := []struct {
		name      string
		scope     *runsvcv1.MemoryScope
		wait      time.Duration
		namespace string
	}{
		{"named namespace, the wait runs out", named, 200 * time.Millisecond, "ns/team"},
		{"named namespace, the deadline comes first", named, 5 * time.Minute, "ns/team"},
		{"a Run family's memory", family, 200 * time.Millisecond, "family/" + run.GetRunId()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(testserver.Context(t), 2*time.Second)
			defer cancel()
			_, err := srv.Memory.GetValue(ctx, &runsvcv1.GetValueRequest{Scope: tt.scope, Keys: []string{"nokey"}, Wait: durationpb.New(tt.wait)})
			c := errdetails.Classify(err)
			if c.Reason != "AWAIT_TIMEOUT" {
				t.Fatalf("got %v (reason %q), want AWAIT_TIMEOUT", err, c.Reason)
			}
			if want := "Timeout waiting for :nokey in " + tt.namespace + " after "; !strings.HasPrefix(c.Message, want) {
				t.Errorf("message %q, want it to start %q", c.Message, want)
			}
			if got := c.Metadata["namespace"]; got != tt.namespace {
				t.Errorf("metadata namespace = %q, want %q (metadata %v)", got, tt.namespace, c.Metadata)
			}
		})
	}
}
