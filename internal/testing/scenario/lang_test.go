package scenario_test

import (
	"testing"

	"github.com/runsvc/runsvc/internal/testing/scenario"
)

// TestSubstitute: the step language's substitutions, which the Python and
// Node runners mirror (clients/*/tests).
func TestSubstitute(t *testing.T) {
	vars := map[string]string{"run": "run_1", "suite": "go"}
	cases := []struct{ name, in, want string }{
		{"variables", `{"runId": "${run}", "r": "scn-${suite}"}`, `{"runId": "run_1", "r": "scn-go"}`},
		{"repeat", "${repeat:x:3}${repeat:ab:2}", "xxxabab"},
		{"unknown left alone", "${missing} ${repeat:x:n}", "${missing} ${repeat:x:n}"},
		{"list", `{"d": "${list:9:3}", "e": "${list:x:0}"}`, `{"d": ["9","9","9"], "e": []}`},
		{"list only as a whole string", `{"d": "a${list:9:3}"}`, `{"d": "a${list:9:3}"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := scenario.Substitute(tc.in, vars); got != tc.want {
				t.Errorf("Substitute(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
