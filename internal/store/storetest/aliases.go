package storetest

import (
	"errors"
	"sync"
	"testing"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
)

// runAliases checks the Aliases port, for a store that implements it.
func runAliases(t *testing.T, open Opener) {
	aliases := func(t *testing.T) store.Aliases {
		t.Helper()
		a, ok := open(t).(store.Aliases)
		if !ok {
			t.Skip("the store keeps no aliases")
		}
		return a
	}
	t.Run("AliasesWriteGetListDelete", func(t *testing.T) { testAliasCRUD(t, aliases(t)) })
	t.Run("AliasWritesConditionalOnRevision", func(t *testing.T) { testAliasRace(t, aliases(t)) })
}

// aliasWrite is the write moving spec's alias name from revision rev to
// version (a creation when rev is 0).
func aliasWrite(spec, name, version string, rev int64) store.AliasWrite {
	a := store.Alias{Tenant: tenant, Spec: spec, Name: name, Version: version, Revision: rev + 1, UpdateTime: t0, UpdatedBy: "alice"}
	return store.AliasWrite{Alias: a, IfRevision: rev, Move: store.AliasMove{
		Tenant: tenant, Spec: spec, Name: name, Revision: rev + 1, Time: t0, Subject: "alice", ToVersion: version,
	}}
}

func testAliasCRUD(t *testing.T, s store.Aliases) {
	var nf *errs.AliasNotFound
	if _, err := s.GetAlias(ctx(t), tenant, "s", "prod"); !errors.As(err, &nf) {
		t.Fatalf("GetAlias of nothing = %v, want AliasNotFound", err)
	}
	for _, w := range []store.AliasWrite{aliasWrite("s", "prod", "v1", 0), aliasWrite("s", "canary", "v1", 0), aliasWrite("t", "prod", "v9", 0)} {
		if err := s.WriteAlias(ctx(t), w); err != nil {
			t.Fatal(err)
		}
	}
	move := aliasWrite("s", "prod", "v2", 1)
	move.Alias.Canary, move.Alias.CanaryPercent = "v1", 10
	move.Move.FromVersion, move.Move.ToCanary, move.Move.ToPercent = "v1", "v1", 10
	if err := s.WriteAlias(ctx(t), move); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetAlias(ctx(t), tenant, "s", "prod")
	if err != nil || got.Version != "v2" || got.Canary != "v1" || got.CanaryPercent != 10 || got.Revision != 2 || got.UpdatedBy != "alice" || !got.UpdateTime.Equal(t0) {
		t.Fatalf("GetAlias = %+v, %v", got, err)
	}
	list, err := s.ListAliases(ctx(t), tenant, "s")
	if err != nil || len(list) != 2 || list[0].Name != "canary" || list[1].Name != "prod" {
		t.Fatalf("ListAliases(s) = %+v, %v", list, err)
	}
	if all, err := s.ListAliases(ctx(t), tenant, ""); err != nil || len(all) != 3 || all[2].Spec != "t" {
		t.Fatalf("ListAliases() = %+v, %v", all, err)
	}
	del := store.AliasWrite{Alias: store.Alias{Tenant: tenant, Spec: "s", Name: "prod"}, Delete: true, IfRevision: 2,
		Move: store.AliasMove{Tenant: tenant, Spec: "s", Name: "prod", Revision: 3, Time: t0, Subject: "bob", FromVersion: "v2", FromCanary: "v1", FromPercent: 10}}
	if err := s.WriteAlias(ctx(t), del); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetAlias(ctx(t), tenant, "s", "prod"); !errors.As(err, &nf) {
		t.Fatalf("GetAlias after delete = %v, want AliasNotFound", err)
	}
	// Recreated, the alias counts from 1 again; its history goes on.
	if err := s.WriteAlias(ctx(t), aliasWrite("s", "prod", "v3", 0)); err != nil {
		t.Fatal(err)
	}
	moves, err := s.ListAliasMoves(ctx(t), tenant, "s", "prod", 10)
	if err != nil || len(moves) != 4 {
		t.Fatalf("ListAliasMoves = %+v, %v", moves, err)
	}
	if m := moves[1]; m.Subject != "bob" || m.FromVersion != "v2" || m.FromCanary != "v1" || m.FromPercent != 10 || m.ToVersion != "" {
		t.Fatalf("the deletion's move = %+v", m)
	}
	if moves[0].ToVersion != "v3" || moves[2].ToVersion != "v2" || moves[2].ToPercent != 10 || moves[3].ToVersion != "v1" {
		t.Fatalf("moves newest first = %+v", moves)
	}
	if two, _ := s.ListAliasMoves(ctx(t), tenant, "s", "prod", 2); len(two) != 2 {
		t.Fatalf("ListAliasMoves limit 2 = %d moves", len(two))
	}
}

// testAliasRace: of writers that read the same revision, one wins and
// the others fail ErrConditionFailed having written nothing.
func testAliasRace(t *testing.T, s store.Aliases) {
	if err := s.WriteAlias(ctx(t), aliasWrite("s", "prod", "v0", 0)); err != nil {
		t.Fatal(err)
	}
	const writers = 8
	var wg sync.WaitGroup
	results := make(chan error, writers)
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results <- s.WriteAlias(ctx(t), aliasWrite("s", "prod", string(rune('a'+i)), 1))
		}()
	}
	wg.Wait()
	close(results)
	won := 0
	for err := range results {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, store.ErrConditionFailed):
			t.Fatalf("a losing write = %v, want ErrConditionFailed", err)
		}
	}
	moves, err := s.ListAliasMoves(ctx(t), tenant, "s", "prod", 100)
	if won != 1 || err != nil || len(moves) != 2 {
		t.Fatalf("%d writers won, %d moves recorded (%v); want 1 and 2", won, len(moves), err)
	}
	if err := s.WriteAlias(ctx(t), aliasWrite("s", "prod", "x", 0)); !errors.Is(err, store.ErrConditionFailed) {
		t.Fatalf("creating an existing alias = %v, want ErrConditionFailed", err)
	}
}
