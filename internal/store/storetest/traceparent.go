package storetest

import (
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/store"
)

// testToolCallTraceParent: a routed call keeps its caller's trace context
// through enqueue, claim and read, the first enqueue's winning over a
// retry's; an untraced call has none.
func testToolCallTraceParent(t *testing.T, s store.Store) {
	c := ctx(t)
	const first = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	traced := toolCall("c1", "lookup", t0)
	traced.TraceParent = first
	if got := mustEnqueue(t, s, traced); got.TraceParent != first {
		t.Errorf("EnqueueToolCall returned traceparent %q, want %q", got.TraceParent, first)
	}
	retry := traced
	retry.TraceParent = "00-11111111111111111111111111111111-2222222222222222-01"
	if got, created, err := s.EnqueueToolCall(c, retry); err != nil || created || got.TraceParent != first {
		t.Errorf("a retried enqueue = created %v, traceparent %q, %v; want the first's %q", created, got.TraceParent, err, first)
	}
	mustEnqueue(t, s, toolCall("c2", "lookup", t0.Add(time.Millisecond)))
	claimed, err := s.ClaimToolCalls(c, tenant, "replica_b", []string{"lookup"}, t0, time.Minute, 10)
	if err != nil || len(claimed) != 2 {
		t.Fatalf("ClaimToolCalls = %d calls, %v", len(claimed), err)
	}
	cases := []struct{ name, callID, want string }{
		{"traced", "run_1/c1", first},
		{"untraced", "run_1/c2", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, cl := range claimed {
				if cl.CallID == tc.callID && cl.TraceParent != tc.want {
					t.Errorf("claimed %s with traceparent %q, want %q", tc.callID, cl.TraceParent, tc.want)
				}
			}
			got, found, err := s.GetToolCall(c, tenant, tc.callID)
			if err != nil || !found || got.TraceParent != tc.want {
				t.Errorf("GetToolCall(%s) = traceparent %q, found %v, %v; want %q", tc.callID, got.TraceParent, found, err, tc.want)
			}
		})
	}
}
