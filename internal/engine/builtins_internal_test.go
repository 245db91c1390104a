package engine

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/runsvc/runsvc/internal/spec"
)

// TestDelegateToolListsDelegatesAsListed: the delegate tool offers the
// model the Spec's delegates exactly as listed, name@alias entries
// included, and says what an alias entry means only when there is one.
func TestDelegateToolListsDelegatesAsListed(t *testing.T) {
	tests := []struct {
		delegates []string
		alias     bool
	}{
		{delegates: []string{"analyst", "writer"}},
		{delegates: []string{"analyst@prod", "analyst", "writer@canary"}, alias: true},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.delegates, ","), func(t *testing.T) {
			tool := builtinTool(spec.BuiltinDelegate, &spec.Version{Spec: spec.Spec{Name: "lead", Delegates: tt.delegates}})
			var schema struct {
				Properties struct {
					To struct {
						Enum        []string `json:"enum"`
						Description string   `json:"description"`
					} `json:"to"`
				} `json:"properties"`
			}
			if err := json.Unmarshal(tool.Parameters, &schema); err != nil {
				t.Fatal(err)
			}
			to := schema.Properties.To
			if !slices.Equal(to.Enum, tt.delegates) {
				t.Errorf("the model may choose %v, want %v", to.Enum, tt.delegates)
			}
			if got := strings.Contains(to.Description, "alias"); got != tt.alias {
				t.Errorf("to's description %q: mentions aliases %v, want %v", to.Description, got, tt.alias)
			}
		})
	}
}
