package versions_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/spec/versions"
	"github.com/runsvc/runsvc/internal/store/inmem"
)

// TestCachedVersionsStayInTheirTenant: a Version read (and so cached) in
// one tenant is not found in another that never published it.
func TestCachedVersionsStayInTheirTenant(t *testing.T) {
	ctx := context.Background()
	reg := versions.New(inmem.New(), clock.NewFake(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)))
	v, _, err := reg.Publish(ctx, "acme", spec.Spec{Name: "triage", Model: spec.Model{Provider: spec.ProviderScripted, Script: []spec.Turn{{Text: "ok"}}}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		tenant string
		found  bool
	}{
		{"acme", true},
		{"acme", true}, // from the cache
		{"globex", false},
	}
	for _, tc := range tests {
		got, err := reg.Get(ctx, tc.tenant, "triage", v.Version)
		var nf *errs.SpecNotFound
		switch {
		case tc.found && (err != nil || got.Version != v.Version):
			t.Errorf("%s: %v, %v; want version %s", tc.tenant, got, err, v.Version)
		case !tc.found && !errors.As(err, &nf):
			t.Errorf("%s read another tenant's Version: %v, %v", tc.tenant, got, err)
		}
	}
}
