package storetest

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
)

// runThreads is the threads part of the conformance suite.
func runThreads(t *testing.T, open Opener) {
	t.Run("ThreadQueueAndPromote", func(t *testing.T) { testThreadQueue(t, open(t)) })
	t.Run("ThreadRejectBusy", func(t *testing.T) { testThreadReject(t, open(t)) })
	t.Run("ThreadRaceOneActive", func(t *testing.T) { testThreadRace(t, open(t)) })
	t.Run("ListThreads", func(t *testing.T) { testListThreads(t, open(t)) })
}

func threadRun(id, thread string, reject bool) store.NewRun {
	nr := newRun(id, true)
	nr.ThreadID, nr.RejectBusy = thread, reject
	return nr
}

// settle appends a settling Record to a Run.
func settle(t *testing.T, s store.Store, runID string) {
	t.Helper()
	run, err := s.GetRun(ctx(t), tenant, runID)
	if err != nil {
		t.Fatal(err)
	}
	err = s.Append(ctx(t), store.Append{Tenant: tenant, RunID: runID, Records: []store.Record{rec(run.LastSeq+1, "settled")},
		Ends: true, Index: store.Index{State: "COMPLETED", Summary: []byte(`{}`), Settled: true}})
	if err != nil {
		t.Fatalf("settling %s: %v", runID, err)
	}
}

func testThreadQueue(t *testing.T, s store.Store) {
	c := ctx(t)
	first := mustCreate(t, s, threadRun("run_1", "th", false))
	second := mustCreate(t, s, threadRun("run_2", "th", false))
	third := mustCreate(t, s, threadRun("run_3", "th", false))
	if first.Waiting || first.ContinuesRunID != "" || !first.Index.Runnable || first.ThreadSeq != 1 {
		t.Errorf("first = waiting %v continues %q runnable %v seq %d", first.Waiting, first.ContinuesRunID, first.Index.Runnable, first.ThreadSeq)
	}
	if !second.Waiting || second.Index.Runnable || !third.Waiting || third.ThreadSeq != 3 {
		t.Errorf("second, third = %+v, %+v; want both waiting, not runnable", second, third)
	}
	// An outsider's append to a waiting Run leaves it unclaimable.
	err := s.Append(c, store.Append{Tenant: tenant, RunID: "run_2", Records: []store.Record{rec(2, "message")},
		Index: store.Index{State: "QUEUED", Runnable: true, Summary: []byte(`{}`)}})
	if err != nil {
		t.Fatal(err)
	}
	leases, err := s.Claim(c, "w", t0, time.Minute, 10)
	if err != nil || len(leases) != 1 || leases[0].RunID != "run_1" {
		t.Fatalf("Claim = %v %v; want run_1 only", leaseIDs(leases), err)
	}
	th, found, err := s.GetThread(c, tenant, "th")
	if err != nil || !found || th.ActiveRunID != "run_1" || th.Runs != 3 || th.LastRunID != "" {
		t.Fatalf("thread = %+v %v %v", th, found, err)
	}
	settle(t, s, "run_1")
	got, err := s.GetRun(c, tenant, "run_2")
	if err != nil || got.Waiting || !got.Index.Runnable || got.ContinuesRunID != "run_1" {
		t.Fatalf("run_2 after run_1 settled = %+v %v", got, err)
	}
	if got, _ := s.GetRun(c, tenant, "run_3"); !got.Waiting || got.Index.Runnable {
		t.Errorf("run_3 = %+v; want still waiting", got)
	}
	th, _, _ = s.GetThread(c, tenant, "th")
	if th.ActiveRunID != "run_2" || th.LastRunID != "run_1" {
		t.Errorf("thread = %+v; want active run_2, last run_1", th)
	}
	settle(t, s, "run_2")
	settle(t, s, "run_3")
	th, _, _ = s.GetThread(c, tenant, "th")
	if th.ActiveRunID != "" || th.LastRunID != "run_3" {
		t.Errorf("thread = %+v; want none active, last run_3", th)
	}
	fourth := mustCreate(t, s, threadRun("run_4", "th", true))
	if fourth.Waiting || fourth.ContinuesRunID != "run_3" {
		t.Errorf("fourth = %+v; want active, continuing run_3", fourth)
	}
	runs, next, err := s.ListRuns(c, tenant, store.RunQuery{ThreadID: "th", PageSize: 3})
	if err != nil || len(runs) != 3 || next == "" {
		t.Fatalf("ListRuns(thread) = %d runs, %q, %v", len(runs), next, err)
	}
	rest, _, err := s.ListRuns(c, tenant, store.RunQuery{ThreadID: "th", PageToken: next})
	if err != nil || len(rest) != 1 {
		t.Fatalf("ListRuns(thread, page 2) = %d, %v", len(rest), err)
	}
	for i, r := range append(runs, rest...) {
		if want := fmt.Sprintf("run_%d", i+1); r.RunID != want {
			t.Errorf("thread run %d = %s, want %s", i, r.RunID, want)
		}
	}
}

func leaseIDs(ls []*store.Lease) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.RunID)
	}
	return out
}

func testThreadReject(t *testing.T, s store.Store) {
	c := ctx(t)
	mustCreate(t, s, threadRun("run_1", "th", true))
	_, _, err := s.CreateRun(c, threadRun("run_2", "th", true))
	var busy *errs.ThreadBusy
	if !errors.As(err, &busy) || busy.ActiveRunID != "run_1" || busy.ThreadID != "th" {
		t.Fatalf("second reject start = %v; want ThreadBusy naming run_1", err)
	}
	if _, err := s.GetRun(c, tenant, "run_2"); !errors.As(err, new(*errs.RunNotFound)) {
		t.Errorf("the rejected run exists: %v", err)
	}
	th, _, _ := s.GetThread(c, tenant, "th")
	if th.Runs != 1 || th.ActiveRunID != "run_1" {
		t.Errorf("thread after a rejected start = %+v", th)
	}
	if _, found, err := s.GetThread(c, tenant, "nope"); found || err != nil {
		t.Errorf("GetThread(unknown) = found %v, %v", found, err)
	}
}

// testThreadRace starts Runs on one thread from many goroutines: exactly
// one is active, and settling them one by one never leaves two active.
func testThreadRace(t *testing.T, s store.Store) {
	c := ctx(t)
	const n = 20
	var wg sync.WaitGroup
	errc := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, err := s.CreateRun(c, threadRun(fmt.Sprintf("run_%02d", i), "th", false))
			errc <- err
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		if err != nil {
			t.Fatal(err)
		}
	}
	for settled := 0; settled < n; settled++ {
		runs, _, err := s.ListRuns(c, tenant, store.RunQuery{ThreadID: "th", PageSize: 100})
		if err != nil || len(runs) != n {
			t.Fatalf("ListRuns = %d, %v", len(runs), err)
		}
		var active []string
		for i, r := range runs {
			if r.ThreadSeq != i+1 {
				t.Fatalf("run %s at position %d has thread seq %d", r.RunID, i, r.ThreadSeq)
			}
			if !r.Waiting && !slices.Contains(settledStates, r.Index.State) {
				active = append(active, r.RunID)
			}
		}
		if len(active) != 1 || active[0] != runs[settled].RunID {
			t.Fatalf("after %d settled, active = %v; want [%s]", settled, active, runs[settled].RunID)
		}
		settle(t, s, active[0])
	}
}

func testListThreads(t *testing.T, s store.Store) {
	c := ctx(t)
	for i := range 3 {
		nr := threadRun(fmt.Sprintf("run_%d", i), fmt.Sprintf("th_%d", i), false)
		nr.CreateTime = t0.Add(time.Duration(i) * time.Second)
		mustCreate(t, s, nr)
	}
	page, next, err := s.ListThreads(c, tenant, store.ThreadQuery{PageSize: 2})
	if err != nil || len(page) != 2 || next == "" || page[0].ThreadID != "th_2" || page[1].ThreadID != "th_1" {
		t.Fatalf("ListThreads = %+v %q %v", page, next, err)
	}
	rest, next, err := s.ListThreads(c, tenant, store.ThreadQuery{PageToken: next})
	if err != nil || len(rest) != 1 || rest[0].ThreadID != "th_0" || next != "" {
		t.Fatalf("ListThreads page 2 = %+v %q %v", rest, next, err)
	}
	if other, _, err := s.ListThreads(c, "other", store.ThreadQuery{}); err != nil || len(other) != 0 {
		t.Errorf("another tenant's threads = %+v %v", other, err)
	}
}
