package server_test

import (
	"fmt"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestA2AURLRefusedAtPublish: an a2a tool's card or endpoint naming an
// address the outbound network policy refuses fails PublishSpec
// ACCESS_DENIED, as an http tool's URL does.
func TestA2AURLRefusedAtPublish(t *testing.T) {
	srv := testserver.Start(t, allowNetworks("127.0.0.0/8"))
	for _, a2a := range []string{`{"cardUrl": "http://192.0.2.1/.well-known/agent-card.json"}`, `{"url": "http://169.254.169.254/a2a"}`} {
		sp := &runsvcv1.Spec{}
		raw := fmt.Sprintf(`{"name": "delegator", "model": {"provider": "scripted", "script": {"turns": [{"text": "x"}]}},
		  "tools": [{"name": "agent", "kind": "TOOL_KIND_A2A", "a2a": %s}]}`, a2a)
		if err := protojson.Unmarshal([]byte(raw), sp); err != nil {
			t.Fatal(err)
		}
		_, err := srv.Specs.PublishSpec(testserver.Context(t), &runsvcv1.PublishSpecRequest{Spec: sp})
		if status.Code(err) != codes.PermissionDenied || reasonOf(err) != "ACCESS_DENIED" {
			t.Errorf("%s: PublishSpec = %v, want PERMISSION_DENIED ACCESS_DENIED", a2a, err)
		}
	}
}
