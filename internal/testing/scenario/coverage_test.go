package scenario_test

import (
	"strings"
	"testing"

	"github.com/runsvc/runsvc/internal/testing/scenario"
)

// TestCoverage: Coverage finds a reason with neither a scenario nor an
// insideOnly entry, one with both, an insideOnly reason not in the table,
// and insideOnly tests that do not exist.
func TestCoverage(t *testing.T) {
	root := repoFile(t, "")
	real := scenario.InsideOnly{Why: "w", Tests: []string{"internal/testing/scenario/coverage_test.go TestCoverage/sub"}}
	cases := []struct {
		name    string
		file    scenario.File
		reasons []string
		want    []string // one problem mentioning each, in order
	}{
		{"all covered", scenario.File{Scenarios: []scenario.Scenario{{Reason: "A"}}, InsideOnly: map[string]scenario.InsideOnly{"B": real}}, []string{"A", "B"}, nil},
		{"neither", scenario.File{Scenarios: []scenario.Scenario{{Reason: "A"}}}, []string{"A", "B"}, []string{"reason B has no scenario"}},
		{"both", scenario.File{Scenarios: []scenario.Scenario{{Reason: "A"}}, InsideOnly: map[string]scenario.InsideOnly{"A": real}}, []string{"A"}, []string{"reason A has a scenario but is listed"}},
		{"not in the table", scenario.File{InsideOnly: map[string]scenario.InsideOnly{"Z": real}}, nil, []string{"insideOnly reason Z is not in the table"}},
		{"no test", scenario.File{InsideOnly: map[string]scenario.InsideOnly{"B": {Why: "w"}}}, []string{"B"}, []string{"names no test"}},
		{"missing file", scenario.File{InsideOnly: map[string]scenario.InsideOnly{"B": {Tests: []string{"internal/nowhere_test.go TestX"}}}}, []string{"B"}, []string{"nowhere_test.go"}},
		{"missing func", scenario.File{InsideOnly: map[string]scenario.InsideOnly{"B": {Tests: []string{"internal/testing/scenario/coverage_test.go TestNoSuchThing"}}}}, []string{"B"}, []string{"has no func TestNoSuchThing"}},
		{"malformed", scenario.File{InsideOnly: map[string]scenario.InsideOnly{"B": {Tests: []string{"TestX"}}}}, []string{"B"}, []string{`"TestX" is not`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := scenario.Coverage(&tc.file, tc.reasons, root)
			if len(got) != len(tc.want) {
				t.Fatalf("Coverage = %q, want %d problems", got, len(tc.want))
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("problem %d = %q, want it to mention %q", i, got[i], w)
				}
			}
		})
	}
}
