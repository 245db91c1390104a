package errdetails_test

import (
	"slices"
	"sort"
	"strings"
	"testing"

	codepb "google.golang.org/genproto/googleapis/rpc/code"

	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/testing/scenario"
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

// TestScenarioCoverage: every reason in the table is provoked by a
// scenario of testdata/scenarios.json against a real server, or listed in
// its insideOnly with the tests that prove it, never both; every scenario's
// reason is in the table.
func TestScenarioCoverage(t *testing.T) {
	f, err := scenario.Load("../../testdata/scenarios.json")
	if err != nil {
		t.Fatal(err)
	}
	inTable := map[string]bool{}
	for _, r := range errdetails.Reasons() {
		inTable[r] = true
	}
	covered := map[string]bool{}
	for _, s := range f.Scenarios {
		if !inTable[s.Reason] {
			t.Errorf("scenario %q: reason %s is not in the table", s.Name, s.Reason)
		}
		covered[s.Reason] = true
	}
	for _, p := range scenario.Coverage(f, errdetails.Reasons(), "../..") {
		t.Error(p)
	}
	if len(f.InsideOnly) != 2 || f.InsideOnly["SEQ_CONFLICT"].Why == "" || f.InsideOnly["LEASE_LOST"].Why == "" {
		t.Errorf("insideOnly is %v; only SEQ_CONFLICT and LEASE_LOST never reach a client", f.InsideOnly)
	}
	t.Logf("scenarios.json provokes %d of the table's %d reasons; inside-only: %d", len(covered), len(inTable), len(f.InsideOnly))
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}
