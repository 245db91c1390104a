package runs_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"

	"github.com/runsvc/runsvc/internal/alias"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/spec"
)

// fakeAliases is an alias table a test moves and deletes from under a
// Manager.
type fakeAliases struct {
	mu      sync.Mutex
	version map[string]alias.Alias // by alias name, Spec "s" only
	reads   int
}

func (f *fakeAliases) Get(_ context.Context, _, specName, name string) (alias.Alias, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reads++
	a, ok := f.version[name]
	if !ok || specName != "s" {
		return alias.Alias{}, &errs.AliasNotFound{Spec: specName, Alias: name}
	}
	return a, nil
}

// set points alias name of Spec s at version, or deletes it when version
// is empty.
func (f *fakeAliases) set(name, version string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if version == "" {
		delete(f.version, name)
		return
	}
	f.version[name] = alias.Alias{Spec: "s", Name: name, Version: version}
}

// aliasManager is a Manager over h's store with the fake aliases.
func aliasManager(h *harness, aliases *fakeAliases) *runs.Manager {
	return runs.New(runs.Deps{Store: h.db, Specs: h.reg, Clock: h.clk, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Aliases: aliases})
}

// twoVersions publishes two Versions of s, answering "one" and "two".
func (h *harness) twoVersions(t *testing.T) (string, string) {
	t.Helper()
	v1 := h.publish(t, spec.Spec{Name: "s", Model: spec.Model{Provider: spec.ProviderScripted, Script: []spec.Turn{{Text: "one"}}}}).Version
	v2 := h.publish(t, spec.Spec{Name: "s", Model: spec.Model{Provider: spec.ProviderScripted, Script: []spec.Turn{{Text: "two"}}}}).Version
	return v1, v2
}

// startChild starts a delegated child of parent on s@prod as the engine
// does: its Run id and request id made when the delegation was logged.
func startChild(t *testing.T, m *runs.Manager, parent runs.Run, runID, delegationID string) (runs.Run, error) {
	t.Helper()
	run, _, err := m.Start(ctxOf(t), runs.StartRequest{Tenant: tenant, RunID: runID, Spec: "s@prod", Input: "task", RequestID: "delegation:" + delegationID,
		Parent: &runs.Parent{RunID: parent.RunID, RootRunID: parent.RunID, DelegationID: delegationID, Depth: 1}})
	return run, err
}

// TestRestartedChildKeepsItsAliasVersion: a delegated child started on
// s@prod again (as the engine does after a takeover of its parent) is the
// Run it started, on the Version it took, after prod moved and after prod
// was deleted, and the alias is not read again; a child not started yet
// resolves the alias, and an alias that does not exist is ALIAS_NOT_FOUND.
func TestRestartedChildKeepsItsAliasVersion(t *testing.T) {
	h := newHarness(t)
	v1, v2 := h.twoVersions(t)
	aliases := &fakeAliases{version: map[string]alias.Alias{}}
	aliases.set("prod", v1)
	m := aliasManager(h, aliases)
	parent := h.start(t, "go", "", "")
	child := func(runID, delegationID string) (runs.Run, error) {
		return startChild(t, m, parent, runID, delegationID)
	}
	first, err := child("run_child1", "dlg_1")
	if err != nil || first.Version != v1 {
		t.Fatalf("the first start: %+v, %v; want %s", first, err, v1)
	}
	for _, to := range []string{v2, ""} {
		aliases.set("prod", to)
		read := aliases.reads
		again, err := child("run_child1", "dlg_1")
		if err != nil || again.RunID != first.RunID || again.Version != v1 {
			t.Fatalf("prod moved to %q: started again as %+v, %v; want %s on %s", to, again, err, first.RunID, v1)
		}
		if aliases.reads != read {
			t.Errorf("prod moved to %q: starting the child again read the alias", to)
		}
	}
	if _, err := child("run_child2", "dlg_2"); !isA[*errs.AliasNotFound](err) {
		t.Fatalf("a new child of a deleted alias: %v, want ALIAS_NOT_FOUND", err)
	}
	aliases.set("prod", v2)
	if second, err := child("run_child2", "dlg_2"); err != nil || second.Version != v2 {
		t.Fatalf("a new child after the move: %+v, %v; want %s", second, err, v2)
	}
}

// TestChildrenStickToTheirParentsSide: during a 50/50 canary, the
// children one parent Run starts of s@prod all take one side (the split
// keys them by the parent), while the children of many parents take
// both.
func TestChildrenStickToTheirParentsSide(t *testing.T) {
	h := newHarness(t)
	v1, v2 := h.twoVersions(t)
	aliases := &fakeAliases{version: map[string]alias.Alias{"prod": {Spec: "s", Name: "prod", Version: v1, Canary: v2, CanaryPercent: 50}}}
	m := aliasManager(h, aliases)
	versions := map[string]int{}
	for p := range 20 {
		parent := h.start(t, fmt.Sprintf("parent %d", p), "", "")
		var first string
		for c := range 4 {
			child, err := startChild(t, m, parent, fmt.Sprintf("run_%d_%d", p, c), fmt.Sprintf("dlg_%d_%d", p, c))
			if err != nil {
				t.Fatal(err)
			}
			if c == 0 {
				first = child.Version
			} else if child.Version != first {
				t.Fatalf("parent %s: a child on %s, another on %s", parent.RunID, first, child.Version)
			}
		}
		versions[first]++
	}
	if versions[v1] == 0 || versions[v2] == 0 {
		t.Fatalf("the children of 20 parents took %v, want both sides of a 50/50 canary", versions)
	}
}
