package mcptool_test

import (
	"errors"
	"testing"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/netpolicy"
	"github.com/runsvc/runsvc/internal/tool/mcptool"
)

// TestNetworkPolicy: the outbound network policy decides at dial time
// whether an MCP server is reached; a refusal is ACCESS_DENIED and the
// server sees nothing.
func TestNetworkPolicy(t *testing.T) {
	tests := []struct {
		name    string
		allow   []string
		reached bool
	}{
		{name: "loopback allowed", allow: []string{"127.0.0.0/8"}, reached: true},
		{name: "default policy", reached: true},
		{name: "only another network", allow: []string{"10.0.0.0/8"}, reached: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := startServer(t, true)
			pol, err := netpolicy.Parse(tt.allow)
			if err != nil {
				t.Fatal(err)
			}
			x := mcptool.New(mcptool.Options{Network: pol})
			t.Cleanup(x.Close)
			out, err := x.Execute(testContext(t), mcpCall(srv.url(), "echo", `{"text":"hello"}`))
			_, handshakes := srv.seen()
			if tt.reached {
				if err != nil || string(out) != `"hello"` {
					t.Fatalf("Execute = %s, %v; want \"hello\"", out, err)
				}
				return
			}
			var denied *errs.AccessDenied
			if !errors.As(err, &denied) {
				t.Fatalf("Execute error = %T %v; want *errs.AccessDenied", err, err)
			}
			if handshakes != 0 {
				t.Fatalf("the server saw %d handshakes; the policy refuses before connecting", handshakes)
			}
		})
	}
}
