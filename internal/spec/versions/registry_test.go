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

// TestUnbuildableSpecs: with SetBuildable, a valid Spec whose provider the
// server lacks is SPEC_UNBUILDABLE naming model.provider and is not
// stored; one it has is published; without SetBuildable both are.
func TestUnbuildableSpecs(t *testing.T) {
	ctx := context.Background()
	scripted := spec.Spec{Name: "a", Model: spec.Model{Provider: spec.ProviderScripted, Script: []spec.Turn{{Text: "ok"}}}}
	openai := spec.Spec{Name: "b", Model: spec.Model{Provider: spec.ProviderOpenAI, Model: "gpt-4o-mini", BaseURL: "http://127.0.0.1:9/v1"}}
	tests := []struct {
		name        string
		buildable   *versions.Buildable
		s           spec.Spec
		unbuildable bool
	}{
		{"provider present", &versions.Buildable{Providers: map[string]bool{spec.ProviderScripted: true}}, scripted, false},
		{"provider absent", &versions.Buildable{Providers: map[string]bool{spec.ProviderScripted: true}}, openai, true},
		{"no check", nil, openai, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg := versions.New(inmem.New(), clock.NewFake(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)))
			if tc.buildable != nil {
				reg.SetBuildable(*tc.buildable)
			}
			_, _, err := reg.Publish(ctx, "acme", tc.s)
			var ub *errs.SpecUnbuildable
			if got := errors.As(err, &ub); got != tc.unbuildable {
				t.Fatalf("Publish: %v, want unbuildable %v", err, tc.unbuildable)
			}
			if tc.unbuildable && (len(ub.Violations) != 1 || ub.Violations[0].Field != "model.provider") {
				t.Errorf("violations %+v, want one on model.provider", ub.Violations)
			}
			if !tc.unbuildable && err != nil {
				t.Errorf("Publish: %v", err)
			}
			_, err = reg.Get(ctx, "acme", tc.s.Name, "")
			if stored := err == nil; stored == tc.unbuildable {
				t.Errorf("stored = %v after Publish returned %v", stored, tc.unbuildable)
			}
		})
	}
}
