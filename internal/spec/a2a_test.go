package spec_test

import (
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/spec"
)

// TestValidateA2A: an a2a tool's settings are checked at publish, every
// problem at once.
func TestValidateA2A(t *testing.T) {
	a2a := func(a *spec.A2ATool) spec.Tool { return spec.Tool{Name: "agent", Kind: spec.KindA2A, A2A: a} }
	tests := []struct {
		name  string
		tool  spec.Tool
		creds []string
		want  []string // fields with a violation
	}{
		{name: "card", tool: a2a(&spec.A2ATool{CardURL: "http://127.0.0.1:9/.well-known/agent-card.json"})},
		{name: "endpoint, http+json, credential", creds: []string{"tok"},
			tool: a2a(&spec.A2ATool{URL: "https://agent.example.com/a2a", Binding: spec.A2ABindingHTTPJSON, Credential: "tok", PollInterval: time.Second})},
		{name: "at most once", tool: spec.Tool{Name: "agent", Kind: spec.KindA2A, A2A: &spec.A2ATool{URL: "http://127.0.0.1:9/a2a"}, Delivery: spec.AtMostOnce, InDoubt: spec.InDoubtAsk}},
		{name: "no settings", tool: a2a(nil), want: []string{"tools[0].a2a"}},
		{name: "neither url", tool: a2a(&spec.A2ATool{}), want: []string{"tools[0].a2a"}},
		{name: "everything wrong",
			tool: a2a(&spec.A2ATool{CardURL: "ftp://x", URL: "nope", Binding: "GRPC", Credential: "undeclared", PollInterval: time.Hour}),
			want: []string{"tools[0].a2a", "tools[0].a2a.card_url", "tools[0].a2a.url", "tools[0].a2a.binding", "tools[0].a2a.credential", "tools[0].a2a.poll_interval"}},
		{name: "http settings on an a2a tool",
			tool: spec.Tool{Name: "agent", Kind: spec.KindA2A, A2A: &spec.A2ATool{URL: "http://127.0.0.1:9/a2a"}, HTTP: &spec.HTTPTool{URL: "http://127.0.0.1:9"}},
			want: []string{"tools[0]"}},
		{name: "a2a settings on a client tool", tool: spec.Tool{Name: "c", Kind: spec.KindClient, A2A: &spec.A2ATool{URL: "http://127.0.0.1:9/a2a"}}, want: []string{"tools[0]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := valid()
			s.Tools = []spec.Tool{tt.tool}
			s.Credentials = tt.creds
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

// TestA2ADefaults: an a2a tool declaring no parameters takes a message.
func TestA2ADefaults(t *testing.T) {
	got := spec.Tool{Name: "agent", Kind: spec.KindA2A}.WithA2ADefaults()
	if string(got.Parameters) != string(spec.A2AParameters) || got.Description == "" {
		t.Errorf("defaults = %s %q", got.Parameters, got.Description)
	}
	mine := spec.Tool{Name: "agent", Kind: spec.KindA2A, Description: "d", Parameters: []byte(`{"type":"object"}`)}.WithA2ADefaults()
	if string(mine.Parameters) != `{"type":"object"}` || mine.Description != "d" {
		t.Errorf("declared ones replaced: %s %q", mine.Parameters, mine.Description)
	}
	if http := (spec.Tool{Name: "h", Kind: spec.KindHTTP}).WithA2ADefaults(); len(http.Parameters) != 0 {
		t.Errorf("an http tool got parameters %s", http.Parameters)
	}
}
