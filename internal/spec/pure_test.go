package spec_test

import (
	"testing"

	"github.com/runsvc/runsvc/internal/spec"
)

// TestValidatePure: pure is for the tools runsvc calls and the read-only
// built-in, never with at_most_once.
func TestValidatePure(t *testing.T) {
	tests := []struct {
		name string
		tool spec.Tool
		bad  bool
	}{
		{name: "http", tool: spec.Tool{Name: "h", Kind: spec.KindHTTP, HTTP: &spec.HTTPTool{URL: "http://127.0.0.1:9/h"}, Pure: true}},
		{name: "worker", tool: spec.Tool{Name: "w", Kind: spec.KindWorker, Pure: true}},
		{name: "mcp", tool: spec.Tool{Name: "m", Kind: spec.KindMCP, MCP: &spec.MCPTool{URL: "http://127.0.0.1:9/mcp"}, Pure: true}},
		{name: "memory_get", tool: spec.Tool{Name: spec.BuiltinMemoryGet, Kind: spec.KindBuiltin, Pure: true}},
		{name: "worker at most once", tool: spec.Tool{Name: "w", Kind: spec.KindWorker, Pure: true, Delivery: spec.AtMostOnce}, bad: true},
		{name: "client", tool: spec.Tool{Name: "c", Kind: spec.KindClient, Pure: true}, bad: true},
		{name: "ask_user", tool: spec.Tool{Name: spec.BuiltinAskUser, Kind: spec.KindBuiltin, Pure: true}, bad: true},
		{name: "memory_set", tool: spec.Tool{Name: spec.BuiltinMemorySet, Kind: spec.KindBuiltin, Pure: true}, bad: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := valid()
			s.Tools = []spec.Tool{tt.tool}
			got := violations(t, s, nothingPublished)
			switch {
			case tt.bad && (len(got) != 1 || got[0].Field != "tools[0].pure"):
				t.Fatalf("violations %v, want one on tools[0].pure", got)
			case !tt.bad && len(got) != 0:
				t.Fatalf("violations %v, want none", got)
			}
		})
	}
}
