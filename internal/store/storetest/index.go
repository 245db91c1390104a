package storetest

import (
	"errors"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
)

// testSetIndex: an index written without Records replaces the Run's index
// only while the log's last seq is the one given, adds no Record, keeps
// the lease, wakes the Run's followers, and takes the Run off the claim
// queue when it is no longer runnable.
func testSetIndex(t *testing.T, s store.Store) {
	c := ctx(t)
	mustCreate(t, s, newRun("run_a", true))
	sub := s.Notifier().Subscribe(store.RunTopic(tenant, "run_a"))
	defer sub.Close()
	failed := store.Index{State: "FAILED", Summary: []byte(`{"status":"FAILED"}`), Settled: true}
	var conflict *errs.SeqConflict
	for _, last := range []int64{0, 2} {
		if err := s.SetIndex(c, tenant, "run_a", last, failed, t0.Add(time.Second)); !errors.As(err, &conflict) {
			t.Errorf("SetIndex at last seq %d of a log ending at 1: %v", last, err)
		}
	}
	var nf *errs.RunNotFound
	if err := s.SetIndex(c, tenant, "run_x", 1, failed, t0); !errors.As(err, &nf) {
		t.Errorf("SetIndex of a missing run: %v", err)
	}
	if err := s.SetIndex(c, tenant, "run_a", 1, failed, t0.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	select {
	case <-sub.C():
	case <-time.After(5 * time.Second):
		t.Error("SetIndex did not signal the run's topic")
	}
	run, err := s.GetRun(c, tenant, "run_a")
	if err != nil || run.LastSeq != 1 || run.Index.State != "FAILED" || run.Index.Runnable || string(run.Index.Summary) != `{"status":"FAILED"}` {
		t.Errorf("run after SetIndex: %+v %v", run, err)
	}
	if log, err := s.ReadLog(c, tenant, "run_a", 1, 0); err != nil || len(log) != 1 {
		t.Errorf("SetIndex changed the log: %d records, %v", len(log), err)
	}
	leases, err := s.Claim(c, "w", t0.Add(2*time.Second), time.Minute, 10)
	if err != nil || len(leases) != 0 {
		t.Errorf("a Run indexed FAILED was claimed: %v %v", leases, err)
	}
}
