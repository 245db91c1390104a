package server_test

import (
	"fmt"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/structpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// robotSpec is a bus-enabled robot named name.
func robotSpec(name string) string {
	return fmt.Sprintf(`{"name": %q, "model": {"provider": "scripted", "script": {"turns": [{"text": "done"}]}},
	  "bus": {"enabled": true}}`, name)
}

// TestBusSenderIsTheCaller: over TLS with a keys file, a bus message's
// sender is the caller's identity: a key sends as the robot named like
// its entry or listed in its entry's robots ("*" any), an admin as any
// robot; any other sender is ACCESS_DENIED.
func TestBusSenderIsTheCaller(t *testing.T) {
	robots := map[string][]string{"acme-runner": {"robot"}, "initech-runner": {"*"}}
	s := startSecuredWith(t, []string{"acme", "globex", "initech"}, func(e *auth.Entry) { e.Robots = robots[e.Name] })
	for _, tenant := range []string{"acme", "globex", "initech"} {
		admin := s.conn(t, s.keys[tenant+"/admin"], nil)
		for _, name := range []string{"robot", "other", tenant + "-runner"} {
			testserver.Publish(t, sp(admin), robotSpec(name))
		}
	}
	tests := []struct {
		key, sender string
		ok          bool
	}{
		{"acme/runner", "robot", true},           // listed in robots
		{"acme/runner", "acme-runner", true},     // its own name
		{"acme/runner", "other", false},          // neither
		{"globex/runner", "robot", false},        // no robots listed
		{"globex/runner", "globex-runner", true}, // its own name
		{"initech/runner", "other", true},        // "*"
		{"acme/admin", "other", true},            // an admin sends as any robot
	}
	for _, tt := range tests {
		t.Run(tt.key+" as "+tt.sender, func(t *testing.T) {
			c := s.conn(t, s.keys[tt.key], nil)
			channel := tt.sender // every robot's own channel
			_, err := bs(c).SendMessage(ctxT(t), &runsvcv1.BusServiceSendMessageRequest{Sender: tt.sender, Channel: channel, Content: structpb.NewStringValue("hi")})
			if tt.ok {
				if err != nil {
					t.Fatalf("SendMessage = %v, want success", err)
				}
				return
			}
			if status.Code(err) != codes.PermissionDenied || reasonOf(err) != "ACCESS_DENIED" {
				t.Fatalf("SendMessage = %v (reason %q), want PERMISSION_DENIED ACCESS_DENIED", err, reasonOf(err))
			}
		})
	}
}
