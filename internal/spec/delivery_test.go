package spec_test

import (
	"testing"

	"github.com/runsvc/runsvc/internal/spec"
)

// TestValidateDelivery: delivery and in_doubt are checked at publish.
func TestValidateDelivery(t *testing.T) {
	http := func(d spec.Delivery, i spec.InDoubt) spec.Tool {
		return spec.Tool{Name: "charge", Kind: spec.KindHTTP, HTTP: &spec.HTTPTool{URL: "http://127.0.0.1:9/charge"}, Delivery: d, InDoubt: i}
	}
	tests := []struct {
		name string
		tool spec.Tool
		want []string // fields with a violation
	}{
		{name: "default", tool: http("", "")},
		{name: "at least once", tool: http(spec.AtLeastOnce, spec.InDoubtTellModel)},
		{name: "at most once", tool: http(spec.AtMostOnce, "")},
		{name: "at most once, ask", tool: http(spec.AtMostOnce, spec.InDoubtAsk)},
		{name: "worker at most once", tool: spec.Tool{Name: "w", Kind: spec.KindWorker, Delivery: spec.AtMostOnce}},
		{name: "mcp at most once", tool: spec.Tool{Name: "m", Kind: spec.KindMCP, MCP: &spec.MCPTool{URL: "http://127.0.0.1:9/mcp"}, Delivery: spec.AtMostOnce}},
		{name: "client at most once", tool: spec.Tool{Name: "c", Kind: spec.KindClient, Delivery: spec.AtMostOnce}, want: []string{"tools[0].delivery"}},
		{name: "builtin at most once", tool: spec.Tool{Name: spec.BuiltinAskUser, Kind: spec.KindBuiltin, Delivery: spec.AtMostOnce}, want: []string{"tools[0].delivery"}},
		{name: "unknown delivery", tool: http("exactly_once", ""), want: []string{"tools[0].delivery"}},
		{name: "ask without at most once", tool: http("", spec.InDoubtAsk), want: []string{"tools[0].in_doubt"}},
		{name: "unknown in_doubt", tool: http(spec.AtMostOnce, "guess"), want: []string{"tools[0].in_doubt"}},
		{name: "both wrong", tool: http("twice", "guess"), want: []string{"tools[0].delivery", "tools[0].in_doubt"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := valid()
			s.Tools = []spec.Tool{tt.tool}
			var got []string
			for _, v := range violations(t, s, nothingPublished) {
				got = append(got, v.Field)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("violations on %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("violation %d on %s, want %s", i, got[i], tt.want[i])
				}
			}
		})
	}
}
