package server_test

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"google.golang.org/grpc/status"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestAnthropicFailuresOverGRPC: a Run on the anthropic provider retries an
// overloaded (529) model, and fails with the reason the table gives a
// refused request (400) and a spent rate limit, as its google.rpc.Status
// read over gRPC.
func TestAnthropicFailuresOverGRPC(t *testing.T) {
	ok := "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"c\",\"content\":[],\"usage\":{\"input_tokens\":3,\"output_tokens\":1}}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"fine\"}}\n\n" +
		"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
	tests := []struct {
		name       string
		fail       int    // requests that fail before one succeeds
		status     int    // their status
		body       string // their body
		wantState  runsvcv1.RunState
		wantReason string
	}{
		{name: "529 overloaded is retried", fail: 2, status: 529, body: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, wantState: runsvcv1.RunState_RUN_STATE_COMPLETED},
		{name: "400 fails the run INFERENCE_REJECTED", fail: 100, status: 400, body: `{"type":"error","error":{"type":"invalid_request_error","message":"bad"}}`, wantState: runsvcv1.RunState_RUN_STATE_FAILED, wantReason: "INFERENCE_REJECTED"},
		{name: "429 past the retry budget fails INFERENCE_RATE_LIMITED", fail: 100, status: 429, body: `{"type":"error","error":{"type":"rate_limit_error","message":"slow"}}`, wantState: runsvcv1.RunState_RUN_STATE_FAILED, wantReason: "INFERENCE_RATE_LIMITED"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			model := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.ReadAll(r.Body)
				if int(calls.Add(1)) <= tt.fail {
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(tt.status)
					_, _ = io.WriteString(w, tt.body)
					return
				}
				w.Header().Set("Content-Type", "text/event-stream")
				_, _ = io.WriteString(w, ok)
			}))
			_ = model.Listener.Close()
			model.Listener = l
			model.Start()
			t.Cleanup(model.Close)
			srv := testserver.Start(t)
			srv.Publish(t, fmt.Sprintf(`{"name":"claude","model":{"provider":"anthropic","model":"c","baseUrl":"%s"},"limits":{"transientRetryBudget":3}}`, model.URL))
			run := srv.Settled(t, srv.Start(t, "claude", "hi").GetRunId())
			if run.GetState() != tt.wantState {
				t.Fatalf("run %v (%v), want %v", run.GetState(), run.GetFailure(), tt.wantState)
			}
			if got := reasonOf(status.ErrorProto(run.GetFailure())); got != tt.wantReason {
				t.Errorf("failure reason %q, want %q", got, tt.wantReason)
			}
		})
	}
}
