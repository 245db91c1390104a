package storetest

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/runsvc/runsvc/internal/store"
)

// runHistory is the thread-history part of the conformance suite.
func runHistory(t *testing.T, open Opener) {
	t.Run("HistoryPartsStoredOnceInOrder", func(t *testing.T) { testHistoryParts(t, open(t)) })
	t.Run("HistoryPartsGoWithTheirRun", func(t *testing.T) { testHistoryDelete(t, open(t)) })
	t.Run("HistoryPartNeverOutlivesItsRun", func(t *testing.T) { testHistoryDeleteRace(t, open(t)) })
}

// historyThread creates n Runs on thread th, run_1 to run_n, each settled
// before the next is created, and returns their parts as the engine would
// store them.
func historyThread(t *testing.T, s store.Store, th string, n int) []store.HistoryPart {
	t.Helper()
	var parts []store.HistoryPart
	for i := 1; i <= n; i++ {
		r := mustCreate(t, s, threadRun(fmt.Sprintf("%s_run_%d", th, i), th, true))
		settle(t, s, r.RunID)
		parts = append(parts, store.HistoryPart{Tenant: tenant, ThreadID: th, ThreadSeq: r.ThreadSeq, RunID: r.RunID,
			ContinuesRunID: r.ContinuesRunID, Body: []byte(fmt.Sprintf(`[{"role":"user","text":"q%d"}]`, i))})
	}
	return parts
}

// partIDs is the run ids of parts, in order.
func partIDs(parts []store.HistoryPart) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p.RunID)
	}
	return out
}

func testHistoryParts(t *testing.T, s store.Store) {
	c := ctx(t)
	parts := historyThread(t, s, "th", 4)
	other := historyThread(t, s, "other", 1)
	// Stored out of order, in two calls, one of them twice: each Run's
	// first part stays.
	if err := s.PutHistoryParts(c, []store.HistoryPart{parts[2], parts[0], other[0]}); err != nil {
		t.Fatal(err)
	}
	again := parts[0]
	again.Body = []byte(`[]`)
	if err := s.PutHistoryParts(c, []store.HistoryPart{parts[1], again}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutHistoryParts(c, nil); err != nil {
		t.Errorf("PutHistoryParts(none) = %v", err)
	}
	got, err := s.HistoryParts(c, tenant, "th", 4)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(got, parts[:3], samePart) {
		t.Errorf("HistoryParts(th, before 4) = %+v, want %+v", got, parts[:3])
	}
	if got, _ := s.HistoryParts(c, tenant, "th", 3); !slices.Equal(partIDs(got), partIDs(parts[:2])) {
		t.Errorf("HistoryParts(th, before 3) = %v, want %v", partIDs(got), partIDs(parts[:2]))
	}
	if got, _ := s.HistoryParts(c, "tenant-b", "th", 10); len(got) != 0 {
		t.Errorf("another tenant's HistoryParts = %v, want none", partIDs(got))
	}
	// A Run that does not exist gets no part.
	ghost := store.HistoryPart{Tenant: tenant, ThreadID: "th", ThreadSeq: 9, RunID: "run_ghost", Body: []byte(`[]`)}
	if err := s.PutHistoryParts(c, []store.HistoryPart{ghost}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.HistoryParts(c, tenant, "th", 10); !slices.Equal(partIDs(got), partIDs(parts[:3])) {
		t.Errorf("after a part for a Run that does not exist, HistoryParts = %v, want %v", partIDs(got), partIDs(parts[:3]))
	}
}

// samePart compares parts by what the store keeps.
func samePart(a, b store.HistoryPart) bool {
	return a.Tenant == b.Tenant && a.ThreadID == b.ThreadID && a.ThreadSeq == b.ThreadSeq && a.RunID == b.RunID &&
		a.ContinuesRunID == b.ContinuesRunID && string(a.Body) == string(b.Body)
}

func testHistoryDelete(t *testing.T, s store.Store) {
	c := ctx(t)
	parts := historyThread(t, s, "th", 4)
	if err := s.PutHistoryParts(c, parts); err != nil {
		t.Fatal(err)
	}
	th, _, err := s.GetThread(c, tenant, "th")
	if err != nil || th.Deletions != 0 {
		t.Fatalf("thread before any deletion = %+v, %v; want 0 deletions", th, err)
	}
	deleteRun(t, s, parts[1].RunID)
	th, _, _ = s.GetThread(c, tenant, "th")
	if th.Deletions != 1 {
		t.Errorf("thread after one deletion = %d deletions, want 1", th.Deletions)
	}
	got, _ := s.HistoryParts(c, tenant, "th", 10)
	if want := []string{parts[0].RunID, parts[2].RunID, parts[3].RunID}; !slices.Equal(partIDs(got), want) {
		t.Errorf("HistoryParts after deleting %s = %v, want %v", parts[1].RunID, partIDs(got), want)
	}
	// A Run off any thread counts nowhere.
	mustCreate(t, s, newRun("run_alone", true))
	settle(t, s, "run_alone")
	deleteRun(t, s, "run_alone")
	if th, _, _ = s.GetThread(c, tenant, "th"); th.Deletions != 1 {
		t.Errorf("thread after deleting a Run off it = %d deletions, want 1", th.Deletions)
	}
	var ds []store.RunDeletion
	for _, p := range []store.HistoryPart{parts[0], parts[2], parts[3]} {
		r, err := s.GetRun(c, tenant, p.RunID)
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, store.RunDeletion{Tenant: tenant, RunID: r.RunID, LastSeq: r.LastSeq})
	}
	if _, gone, err := s.DeleteThread(c, tenant, "th", ds); err != nil || !gone {
		t.Fatalf("DeleteThread = gone %v, %v", gone, err)
	}
	if got, _ := s.HistoryParts(c, tenant, "th", 10); len(got) != 0 {
		t.Errorf("HistoryParts of a deleted thread = %v, want none", partIDs(got))
	}
}

// deleteRun deletes a settled Run.
func deleteRun(t *testing.T, s store.Store, runID string) {
	t.Helper()
	r, err := s.GetRun(ctx(t), tenant, runID)
	if err != nil {
		t.Fatal(err)
	}
	deleted, err := s.DeleteRuns(ctx(t), []store.RunDeletion{{Tenant: tenant, RunID: runID, LastSeq: r.LastSeq}})
	if err != nil || len(deleted) != 1 {
		t.Fatalf("DeleteRuns(%s) = %v, %v", runID, deleted, err)
	}
}

// testHistoryDeleteRace stores parts while their Runs are deleted: once
// both are done, no part is left of a deleted Run, whichever went first.
func testHistoryDeleteRace(t *testing.T, s store.Store) {
	c := ctx(t)
	const n = 20
	parts := historyThread(t, s, "th", n)
	var wg sync.WaitGroup
	for _, p := range parts {
		r, err := s.GetRun(c, tenant, p.RunID)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(2)
		go func() {
			defer wg.Done()
			if err := s.PutHistoryParts(c, []store.HistoryPart{p}); err != nil {
				t.Error(err)
			}
		}()
		go func() {
			defer wg.Done()
			if _, err := s.DeleteRuns(c, []store.RunDeletion{{Tenant: tenant, RunID: r.RunID, LastSeq: r.LastSeq}}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if got, _ := s.HistoryParts(c, tenant, "th", n+1); len(got) != 0 {
		t.Errorf("parts of deleted Runs = %v, want none", partIDs(got))
	}
	if th, _, _ := s.GetThread(c, tenant, "th"); th.Deletions != n {
		t.Errorf("thread = %d deletions, want %d", th.Deletions, n)
	}
}
