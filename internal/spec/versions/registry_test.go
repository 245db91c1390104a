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
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/sqlite/sqlitetest"
)

// TestCachedVersionsStayInTheirTenant: a Version read (and so cached) in
// one tenant is not found in another that never published it.
func TestCachedVersionsStayInTheirTenant(t *testing.T) {
	ctx := context.Background()
	reg := versions.New(sqlitetest.Open(t), clock.NewFake(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)), versions.Options{})
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

// TestUnbuildableSpecs: with Options.Buildable, a valid Spec whose provider the
// server lacks is SPEC_UNBUILDABLE naming model.provider and is not
// stored; one it has is published; without it both are.
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
			reg := versions.New(sqlitetest.Open(t), clock.NewFake(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)), versions.Options{Buildable: tc.buildable})
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

// TestNewestVersionIsReadEachTimeAndDecodedOnce: Get without a version
// returns the newest Version the store has, a newer one as soon as it is
// published, and the same decoded Version while it stays the newest.
func TestNewestVersionIsReadEachTimeAndDecodedOnce(t *testing.T) {
	ctx := context.Background()
	reg := versions.New(sqlitetest.Open(t), clock.NewFake(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)), versions.Options{})
	publish := func(text string) *spec.Version {
		v, _, err := reg.Publish(ctx, "acme", spec.Spec{Name: "triage", Model: spec.Model{Provider: spec.ProviderScripted, Script: []spec.Turn{{Text: text}}}})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	first := publish("one")
	var previous *spec.Version
	tests := []struct {
		name string
		// publish, when set, publishes a new Version first.
		publish string
		// same is whether Get returns the Version the step before got.
		same bool
	}{
		{name: "the only Version"},
		{name: "the same again", same: true},
		{name: "a newer one once published", publish: "two"},
		{name: "the newer one again", same: true},
	}
	want := first.Version
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.publish != "" {
				want = publish(tt.publish).Version
			}
			got, err := reg.Get(ctx, "acme", "triage", "")
			if err != nil {
				t.Fatal(err)
			}
			if got.Version != want {
				t.Errorf("Get newest = %s, want %s", got.Version, want)
			}
			if (got == previous) != tt.same {
				t.Errorf("the same decoded Version as before: %v, want %v", got == previous, tt.same)
			}
			previous = got
		})
	}
}

// checkingStore is a store counting the Spec reads.
type checkingStore struct {
	store.Store
	reads int
}

func (s *checkingStore) GetSpec(ctx context.Context, tenant, name, version string) (store.Spec, error) {
	s.reads++
	return s.Store.GetSpec(ctx, tenant, name, version)
}

// TestNewestIsRememberedOnlyWhenAsked: after RememberNewest (a store
// other replicas write), Newest reads a Spec's newest once and then
// remembers it; a Version published here replaces it; without it the
// store is read every time.
func TestNewestIsRememberedOnlyWhenAsked(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name   string
		checks bool
	}{{"remembering", true}, {"not remembering", false}} {
		checks := c.checks
		t.Run(c.name, func(t *testing.T) {
			counted := &checkingStore{Store: sqlitetest.Open(t)}
			reg := versions.New(counted, clock.NewFake(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)), versions.Options{RememberNewest: checks})
			publish := func(text string) string {
				v, _, err := reg.Publish(ctx, "acme", spec.Spec{Name: "triage", Model: spec.Model{Provider: spec.ProviderScripted, Script: []spec.Turn{{Text: text}}}})
				if err != nil {
					t.Fatal(err)
				}
				return v.Version
			}
			want := publish("one")
			steps := []struct {
				publish    string
				remembered bool
			}{{}, {remembered: true}, {publish: "two"}, {remembered: true}}
			for i, st := range steps {
				if st.publish != "" {
					want = publish(st.publish)
				}
				before := counted.reads
				v, remembered, err := reg.Newest(ctx, "acme", "triage")
				if err != nil || v.Version != want {
					t.Fatalf("step %d: Newest = %v, %v; want %s", i, v, err, want)
				}
				wantRemembered := st.remembered && checks
				if remembered != wantRemembered || (counted.reads > before) == wantRemembered {
					t.Errorf("step %d: remembered %v after %d reads, want remembered %v", i, remembered, counted.reads-before, wantRemembered)
				}
			}
		})
	}
}
