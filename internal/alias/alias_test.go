package alias_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/alias"
	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/spec/versions"
	"github.com/runsvc/runsvc/internal/store/sqlite/sqlitetest"
)

// fixture publishes two Versions of Spec s and returns a Registry over
// the same store, with gate as its Gate.
func fixture(t *testing.T, gate alias.Gate) (*alias.Registry, string, string) {
	t.Helper()
	db := sqlitetest.Open(t)
	clk := clock.NewFake(time.Date(2026, 12, 6, 5, 0, 0, 0, time.UTC))
	reg := versions.New(db, clk, versions.Options{})
	var vs []string
	for _, instr := range []string{"one", "two"} {
		v, _, err := reg.Publish(context.Background(), "default", spec.Spec{Name: "s", Instructions: instr, Model: spec.Model{Provider: spec.ProviderScripted, Script: []spec.Turn{{Text: "ok"}}}})
		if err != nil {
			t.Fatal(err)
		}
		vs = append(vs, v.Version)
	}
	return alias.New(db, reg, gate, clk), vs[0], vs[1]
}

func TestMoveRecordsWhoWhenFromTo(t *testing.T) {
	ctx := context.Background()
	r, v1, v2 := fixture(t, nil)
	if _, err := r.Move(ctx, alias.MoveRequest{Tenant: "default", Spec: "s", Name: "prod", Version: v1, Subject: "alice"}); err != nil {
		t.Fatal(err)
	}
	moved, err := r.Move(ctx, alias.MoveRequest{Tenant: "default", Spec: "s", Name: "prod", Version: v2, Canary: v1, CanaryPercent: 10, Subject: "bob"})
	if err != nil || moved.Version != v2 || moved.Canary != v1 || moved.Revision != 2 {
		t.Fatalf("Move = %+v, %v", moved, err)
	}
	if err := r.Delete(ctx, "default", "s", "prod", "carol"); err != nil {
		t.Fatal(err)
	}
	h, err := r.History(ctx, "default", "s", "prod", 0)
	if err != nil || len(h) != 3 {
		t.Fatalf("History = %+v, %v", h, err)
	}
	want := []alias.Move{
		{Subject: "carol", From: alias.Target{Version: v2, Canary: v1, CanaryPercent: 10}},
		{Subject: "bob", From: alias.Target{Version: v1}, To: alias.Target{Version: v2, Canary: v1, CanaryPercent: 10}},
		{Subject: "alice", To: alias.Target{Version: v1}},
	}
	for i, m := range h {
		if m.Subject != want[i].Subject || m.From != want[i].From || m.To != want[i].To || m.Time.IsZero() {
			t.Errorf("move %d = %+v, want %+v", i, m, want[i])
		}
	}
}

func TestMoveRefuses(t *testing.T) {
	ctx := context.Background()
	r, v1, _ := fixture(t, nil)
	cases := []struct {
		name string
		req  alias.MoveRequest
		want error
	}{
		{"bad name", alias.MoveRequest{Name: "Prod!"}, &errs.AliasInvalid{}},
		{"unknown version", alias.MoveRequest{Name: "prod", Version: "nope"}, &errs.AliasInvalid{}},
		{"weight without canary", alias.MoveRequest{Name: "prod", CanaryPercent: 5}, &errs.AliasInvalid{}},
		{"weight out of range", alias.MoveRequest{Name: "prod", Canary: v1, CanaryPercent: 100}, &errs.AliasInvalid{}},
		{"unknown spec", alias.MoveRequest{Spec: "nope", Name: "prod"}, &errs.SpecNotFound{}},
		{"no gate", alias.MoveRequest{Name: "prod", IfEvaluation: "ev_1", MinScore: 0.9}, &errs.DependencyMissing{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.Tenant = "default"
			if tc.req.Spec == "" {
				tc.req.Spec = "s"
			}
			_, err := r.Move(ctx, tc.req)
			if errs.Kind(err) != errs.Kind(tc.want) {
				t.Fatalf("Move = %v, want %T", err, tc.want)
			}
		})
	}
	if _, err := r.Get(ctx, "default", "s", "prod"); !errors.As(err, new(*errs.AliasNotFound)) {
		t.Fatalf("a refused move created the alias: %v", err)
	}
}

// gate refuses every Version but pass.
type gate struct{ pass string }

func (g gate) Check(_ context.Context, _, evaluationID, _, version string, minScore float64) error {
	if version == g.pass {
		return nil
	}
	return &errs.InvalidRequest{Violations: []errs.FieldViolation{{Field: "if_evaluation", Description: fmt.Sprintf("%s scored %s under %v", evaluationID, version, minScore)}}}
}

func TestMoveGatedOnEvaluation(t *testing.T) {
	ctx := context.Background()
	var g gate
	r, v1, v2 := fixture(t, &g)
	g.pass = v2
	if _, err := r.Move(ctx, alias.MoveRequest{Tenant: "default", Spec: "s", Name: "prod", Version: v1, IfEvaluation: "ev_1", MinScore: 0.9}); err == nil {
		t.Fatal("the gate's refusal did not refuse the move")
	}
	if a, err := r.Move(ctx, alias.MoveRequest{Tenant: "default", Spec: "s", Name: "prod", Version: v2, IfEvaluation: "ev_1", MinScore: 0.9}); err != nil || a.Version != v2 {
		t.Fatalf("a move the gate passes = %+v, %v", a, err)
	}
}

func TestRef(t *testing.T) {
	for ref, want := range map[string][2]string{"s": {"s", ""}, "s@prod": {"s", "prod"}, "s@canary-2": {"s", "canary-2"}} {
		if s, a, err := alias.Ref(ref); err != nil || s != want[0] || a != want[1] {
			t.Errorf("Ref(%q) = %q, %q, %v", ref, s, a, err)
		}
	}
	for _, ref := range []string{"s@", "s@Prod", "s@prod@x"} {
		if _, _, err := alias.Ref(ref); !errors.As(err, new(*errs.AliasInvalid)) {
			t.Errorf("Ref(%q) = %v, want AliasInvalid", ref, err)
		}
	}
}

// TestPickSplitsByWeight: a 90/10 split of 2,000 keys lands within two
// points of 10%, and a key always takes the same side.
func TestPickSplitsByWeight(t *testing.T) {
	a := alias.Alias{Spec: "s", Name: "prod", Version: "v1", Canary: "v2", CanaryPercent: 10}
	canary := 0
	for i := range 2000 {
		key := fmt.Sprintf("thread-%d", i)
		v, side := a.Pick(key)
		if again, _ := a.Pick(key); again != v {
			t.Fatalf("key %s took %s, then %s", key, v, again)
		}
		if side == alias.Canary {
			canary++
		}
	}
	if pct := float64(canary) / 20; pct < 8 || pct > 12 {
		t.Fatalf("the canary took %.1f%% of 2,000 keys, want 10±2", pct)
	}
}
