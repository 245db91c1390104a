package storetest

import (
	"errors"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
)

// runAdmission checks Runs admitted already leased (NewRun with
// LeaseOwner): the replica admitting a Run runs it without a claim.
func runAdmission(t *testing.T, open Opener) {
	t.Run("AdmittedLeasedIsNotClaimableUntilExpiry", func(t *testing.T) { testAdmitLeased(t, open(t)) })
	t.Run("AdmittedLeasedRequestIDKeepsTheFirst", func(t *testing.T) { testAdmitLeasedAgain(t, open(t)) })
	t.Run("AdmittedWaitingIsNotLeased", func(t *testing.T) { testAdmitWaiting(t, open(t)) })
}

// leasedRun is a runnable Run to admit leased to owner until expires.
func leasedRun(id, owner string, expires time.Time) store.NewRun {
	nr := newRun(id, true)
	nr.LeaseOwner, nr.LeaseExpires = owner, expires
	return nr
}

func testAdmitLeased(t *testing.T, s store.Store) {
	c := ctx(t)
	const ttl = 10 * time.Second
	r := mustCreate(t, s, leasedRun("run_a", "w1", t0.Add(ttl)))
	if r.LeaseOwner != "w1" || !r.LeaseExpires.Equal(t0.Add(ttl)) {
		t.Fatalf("created with lease %q until %v, want w1 until %v", r.LeaseOwner, r.LeaseExpires, t0.Add(ttl))
	}
	if got, err := s.GetRun(c, tenant, "run_a"); err != nil || got.LeaseOwner != "w1" {
		t.Fatalf("GetRun: lease %q, %v; want w1", got.LeaseOwner, err)
	}
	if l, err := claimOne(t, s, "w2", t0.Add(time.Second), ttl); err != nil || l != nil {
		t.Fatalf("claimed a Run admitted leased: %+v %v", l, err)
	}
	held := &store.Lease{Tenant: tenant, RunID: "run_a", Owner: "w1", Token: 1, Expires: t0.Add(ttl)}
	if err := s.Renew(c, held, t0.Add(5*time.Second), ttl); err != nil {
		t.Fatalf("renewing the lease of admission (token 1): %v", err)
	}
	if err := s.Append(c, store.Append{Tenant: tenant, RunID: "run_a", Records: []store.Record{rec(2, "x")}, Lease: held, Index: store.Index{State: "RUNNING", Runnable: true}}); err != nil {
		t.Fatalf("appending under the lease of admission: %v", err)
	}
	if l, _ := claimOne(t, s, "w2", t0.Add(12*time.Second), ttl); l != nil {
		t.Fatal("renewal did not extend the lease of admission")
	}
	// The worker died: its lease expires and another worker takes over.
	l2, err := claimOne(t, s, "w2", t0.Add(16*time.Second), ttl)
	if err != nil || l2 == nil || l2.RunID != "run_a" || l2.Token == held.Token {
		t.Fatalf("takeover after the lease of admission expired: %+v %v", l2, err)
	}
	var lost *errs.LeaseLost
	err = s.Append(c, store.Append{Tenant: tenant, RunID: "run_a", Records: []store.Record{rec(3, "x")}, Lease: held, Index: store.Index{State: "RUNNING", Runnable: true}})
	if !errors.As(err, &lost) {
		t.Errorf("appending under the expired lease of admission: %v", err)
	}
}

func testAdmitLeasedAgain(t *testing.T, s store.Store) {
	first := leasedRun("run_a", "w1", t0.Add(10*time.Second))
	first.RequestID = "req-1"
	mustCreate(t, s, first)
	again := leasedRun("run_b", "w2", t0.Add(10*time.Second))
	again.RequestID = "req-1"
	r, created, err := s.CreateRun(ctx(t), again)
	if err != nil || created || r.RunID != "run_a" || r.LeaseOwner != "w1" {
		t.Fatalf("CreateRun with a used request id = %s leased to %q, created %v, %v; want run_a, w1's", r.RunID, r.LeaseOwner, created, err)
	}
}

func testAdmitWaiting(t *testing.T, s store.Store) {
	const ttl = 10 * time.Second
	active := threadRun("run_1", "th", false)
	active.LeaseOwner, active.LeaseExpires = "w1", t0.Add(ttl)
	if r := mustCreate(t, s, active); r.LeaseOwner != "w1" || r.Waiting {
		t.Fatalf("the thread's first Run: lease %q, waiting %v; want w1's, active", r.LeaseOwner, r.Waiting)
	}
	next := threadRun("run_2", "th", false)
	next.LeaseOwner, next.LeaseExpires = "w1", t0.Add(ttl)
	r := mustCreate(t, s, next)
	if !r.Waiting || r.LeaseOwner != "" {
		t.Fatalf("the thread's second Run: lease %q, waiting %v; want no lease, waiting", r.LeaseOwner, r.Waiting)
	}
	if got, err := s.GetRun(ctx(t), tenant, "run_2"); err != nil || got.LeaseOwner != "" {
		t.Fatalf("GetRun of the waiting Run: lease %q, %v; want none", got.LeaseOwner, err)
	}
	settle(t, s, "run_1")
	l, err := claimOne(t, s, "w2", t0.Add(time.Second), ttl)
	if err != nil || l == nil || l.RunID != "run_2" {
		t.Fatalf("claim once the thread's active Run settled: %+v %v; want run_2", l, err)
	}
}
