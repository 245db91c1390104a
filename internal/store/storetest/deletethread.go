package storetest

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
)

func runThreadLifecycle(t *testing.T, open Opener) {
	t.Run("DeleteThreadBatchesThenRow", func(t *testing.T) { testDeleteThread(t, open(t)) })
	t.Run("ExpiredRunsKeepBusyThreads", func(t *testing.T) { testExpiredThreadRuns(t, open(t)) })
}

// deletionOf is the deletion of a Run as it is now.
func deletionOf(t *testing.T, s store.Store, runID string) store.RunDeletion {
	t.Helper()
	r, err := s.GetRun(ctx(t), tenant, runID)
	if err != nil {
		t.Fatal(err)
	}
	return store.RunDeletion{Tenant: tenant, RunID: runID, LastSeq: r.LastSeq}
}

func testDeleteThread(t *testing.T, s store.Store) {
	c := ctx(t)
	for _, id := range []string{"run_1", "run_2", "run_3"} {
		mustCreate(t, s, threadRun(id, "th", false))
	}
	mustCreate(t, s, threadRun("run_x", "th_other", false))
	for _, id := range []string{"run_1", "run_2", "run_3"} {
		settle(t, s, id)
	}
	stale := deletionOf(t, s, "run_3")
	stale.LastSeq--
	for _, tc := range []struct {
		name       string
		thread     string
		ds         []store.RunDeletion
		deleted    []string
		threadGone bool
	}{
		{"first batch, Runs left", "th", []store.RunDeletion{deletionOf(t, s, "run_1"), deletionOf(t, s, "run_2")}, []string{"run_1", "run_2"}, false},
		{"log moved on", "th", []store.RunDeletion{stale}, nil, false},
		{"last batch", "th", []store.RunDeletion{deletionOf(t, s, "run_3")}, []string{"run_3"}, true},
		{"again", "th", nil, nil, false},
		{"unknown thread", "th_nope", nil, nil, false},
		{"busy thread, no Runs asked", "th_other", nil, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, gone, err := s.DeleteThread(c, tenant, tc.thread, tc.ds)
			if err != nil || !slices.Equal(got, tc.deleted) || gone != tc.threadGone {
				t.Fatalf("DeleteThread = %v, gone %v, %v; want %v, gone %v", got, gone, err, tc.deleted, tc.threadGone)
			}
		})
	}
	if _, found, err := s.GetThread(c, tenant, "th"); err != nil || found {
		t.Errorf("GetThread after its delete = found %v, %v", found, err)
	}
	var nf *errs.RunNotFound
	if _, err := s.GetRun(c, tenant, "run_3"); !errors.As(err, &nf) {
		t.Errorf("GetRun(run_3) after the thread's delete = %v, want RunNotFound", err)
	}
	if th, found, err := s.GetThread(c, tenant, "th_other"); err != nil || !found || th.ActiveRunID != "run_x" {
		t.Errorf("another thread after the delete = %+v found %v, %v", th, found, err)
	}
	// The thread's id is free again: a new Run starts it afresh.
	again := mustCreate(t, s, threadRun("run_4", "th", true))
	if again.Waiting || again.ContinuesRunID != "" || again.ThreadSeq != 1 {
		t.Errorf("first Run on the deleted thread's id = waiting %v continues %q seq %d", again.Waiting, again.ContinuesRunID, again.ThreadSeq)
	}
}

func testExpiredThreadRuns(t *testing.T, s store.Store) {
	c := ctx(t)
	mustCreate(t, s, threadRun("run_b1", "th_busy", false))
	settle(t, s, "run_b1")
	mustCreate(t, s, threadRun("run_b2", "th_busy", false)) // active, not settled
	mustCreate(t, s, threadRun("run_w1", "th_wait", false))
	mustCreate(t, s, threadRun("run_w2", "th_wait", false)) // waits behind run_w1
	settle(t, s, "run_w1")                                  // run_w2 becomes active
	mustCreate(t, s, threadRun("run_i1", "th_idle", false))
	settle(t, s, "run_i1")
	mustCreate(t, s, threadRun("run_i2", "th_idle", false))
	settle(t, s, "run_i2")
	got, err := s.ExpiredRuns(c, store.ExpiryQuery{RunGroup: store.RunGroup{Tenant: tenant, Spec: "s", Version: "v1"}, Settled: settledStates, Before: t0.Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range got {
		ids = append(ids, r.RunID)
	}
	slices.Sort(ids)
	if want := []string{"run_i1", "run_i2"}; !slices.Equal(ids, want) {
		t.Errorf("ExpiredRuns = %v, want %v (a thread with an unsettled Run keeps all its Runs)", ids, want)
	}
	settle(t, s, "run_b2")
	if got, err := s.ExpiredRuns(c, store.ExpiryQuery{RunGroup: store.RunGroup{Tenant: tenant, Spec: "s", Version: "v1"}, Settled: settledStates, Before: t0.Add(time.Hour)}); err != nil || len(got) != 4 {
		t.Errorf("ExpiredRuns once th_busy is idle = %d Runs, %v; want 4", len(got), err)
	}
}
