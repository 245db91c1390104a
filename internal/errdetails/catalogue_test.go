package errdetails_test

import (
	"encoding/json"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	codepb "google.golang.org/genproto/googleapis/rpc/code"

	"github.com/runsvc/runsvc/internal/errdetails"
)

// TestCatalogueAgreesWithTheWire checks every catalogue entry against the
// hand-written wire case of its reason, which TestEveryReasonOverTheWire
// sends over a real gRPC connection: so every row of the catalogue is
// provoked over the wire, and says what the wire carries.
func TestCatalogueAgreesWithTheWire(t *testing.T) {
	cases := map[string]wireCase{}
	for _, tc := range wireCases() {
		cases[tc.reason] = tc
	}
	entries := errdetails.Catalogue()
	if len(entries) != len(errdetails.Reasons()) {
		t.Fatalf("catalogue has %d entries, the table %d rows", len(entries), len(errdetails.Reasons()))
	}
	for _, e := range entries {
		t.Run(e.Reason, func(t *testing.T) {
			tc, ok := cases[e.Reason]
			if !ok {
				t.Fatalf("%s is in the table but no wire case in table_test.go provokes it over gRPC: add one", e.Reason)
			}
			if want := codepb.Code_name[int32(tc.code)]; e.Code != want {
				t.Errorf("code %s, the wire says %s", e.Code, want)
			}
			if got, want := sorted(e.MetadataKeys), sorted(tc.keys); !slices.Equal(got, want) {
				t.Errorf("metadata keys %v, the wire carries %v", got, want)
			}
			var details []string
			for _, d := range e.Details {
				if d != "ErrorInfo" && d != "RetryInfo" {
					details = append(details, d)
				}
			}
			if got, want := sorted(details), sorted(tc.details); !slices.Equal(got, want) {
				t.Errorf("details %v, the wire carries %v", got, want)
			}
			if tc.retry > 0 && e.Retryable == "no" {
				t.Errorf("catalogue says never retryable, the wire case retries after %v", tc.retry)
			}
			if tc.retry == 0 && e.Retryable == "yes" {
				t.Errorf("catalogue says always retryable, the wire case does not retry")
			}
			if tc.message != "" && !strings.Contains(e.MessageTemplate, "{") {
				t.Errorf("template %q has no placeholder, but the message %q has values", e.MessageTemplate, tc.message)
			}
			if e.Description == "" || e.Since == "" {
				t.Errorf("no description or since-version: add %s to internal/errdetails/descriptions.go", e.Reason)
			}
			if strings.Contains(e.MessageTemplate, "777") {
				t.Errorf("template %q kept a placeholder number", e.MessageTemplate)
			}
		})
	}
}

// insideOnly are reasons no client call can provoke, with where they are
// tested instead of testdata/scenarios.json.
var insideOnly = map[string]string{
	"SEQ_CONFLICT": "internal/errdetails TestEveryReasonOverTheWire (a log writer's conflict never reaches a client)",
	"LEASE_LOST":   "internal/errdetails TestEveryReasonOverTheWire (a worker's lost lease never reaches a client)",
}

// TestScenarioCoverage lists the reasons testdata/scenarios.json provokes
// against a real server; it fails for a scenario of a reason that is not
// in the table, and logs the reasons it does not yet cover.
func TestScenarioCoverage(t *testing.T) {
	raw, err := os.ReadFile("../../testdata/scenarios.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Scenarios []struct {
			Reason string `json:"reason"`
		} `json:"scenarios"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	inTable := map[string]bool{errdetails.ReasonCancelled: true, errdetails.ReasonDeadlineExceeded: true}
	for _, r := range errdetails.Reasons() {
		inTable[r] = true
	}
	covered := map[string]bool{}
	for _, s := range file.Scenarios {
		if !inTable[s.Reason] {
			t.Errorf("scenario reason %s is not in the table", s.Reason)
		}
		covered[s.Reason] = true
	}
	var missing []string
	for _, r := range errdetails.Reasons() {
		if !covered[r] && insideOnly[r] == "" {
			missing = append(missing, r)
		}
	}
	t.Logf("scenarios.json covers %d of %d reasons; inside-only: %v; not yet covered by a scenario: %v", len(covered), len(inTable)-2, insideOnly, missing)
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}
