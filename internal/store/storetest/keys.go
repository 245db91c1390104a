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

// runKeys is the concurrency keys part of the conformance suite.
func runKeys(t *testing.T, open Opener) {
	t.Run("KeyQueueAndGrant", func(t *testing.T) { testKeyQueue(t, open(t)) })
	t.Run("KeyRejectLimited", func(t *testing.T) { testKeyReject(t, open(t)) })
	t.Run("KeyRaceNeverOverLimit", func(t *testing.T) { testKeyRace(t, open(t)) })
	t.Run("KeyOnAThread", func(t *testing.T) { testKeyOnThread(t, open(t)) })
	t.Run("KeySetIndexSettleGrants", func(t *testing.T) { testKeySetIndex(t, open(t)) })
}

func keyRun(id, key string, limit int) store.NewRun {
	nr := newRun(id, true)
	nr.ConcurrencyKey, nr.ConcurrencyLimit = key, limit
	return nr
}

// keyStates reads the Runs' key states and runnable flags.
func keyStates(t *testing.T, s store.Store, ids ...string) string {
	t.Helper()
	out := ""
	for _, id := range ids {
		r, err := s.GetRun(ctx(t), tenant, id)
		if err != nil {
			t.Fatal(err)
		}
		out += fmt.Sprintf("%s:%d/%v ", id, r.KeyState, r.Index.Runnable)
	}
	return out
}

func testKeyQueue(t *testing.T, s store.Store) {
	c := ctx(t)
	for i := 1; i <= 4; i++ {
		r := mustCreate(t, s, keyRun(fmt.Sprintf("run_%d", i), "k", 2))
		if r.KeySeq != i {
			t.Errorf("run_%d KeySeq = %d", i, r.KeySeq)
		}
	}
	want := "run_1:1/true run_2:1/true run_3:2/false run_4:2/false "
	if got := keyStates(t, s, "run_1", "run_2", "run_3", "run_4"); got != want {
		t.Fatalf("after four starts at limit 2: %s; want %s", got, want)
	}
	// An outsider's append to a waiting Run leaves it unclaimable.
	err := s.Append(c, store.Append{Tenant: tenant, RunID: "run_3", Records: []store.Record{rec(2, "message")},
		Index: store.Index{State: "QUEUED", Runnable: true, Summary: []byte(`{}`)}})
	if err != nil {
		t.Fatal(err)
	}
	leases, err := s.Claim(c, "w", t0, time.Minute, 10)
	if ids := leaseIDs(leases); err != nil || !slices.Equal(ids, []string{"run_1", "run_2"}) {
		t.Fatalf("Claim = %v %v; want run_1 and run_2", ids, err)
	}
	for _, l := range leases {
		if err := s.Release(c, l); err != nil {
			t.Fatal(err)
		}
	}
	q, err := s.KeyQueue(c, tenant, "k")
	if err != nil || !slices.Equal(q.Holding, []string{"run_1", "run_2"}) || !slices.Equal(q.Waiting, []string{"run_3", "run_4"}) {
		t.Fatalf("KeyQueue = %+v %v", q, err)
	}
	// A suspended Run keeps its slot.
	err = s.Append(c, store.Append{Tenant: tenant, RunID: "run_2", Records: []store.Record{rec(2, "suspended")}, Ends: true,
		Index: store.Index{State: "SUSPENDED", Suspension: "APPROVAL", Summary: []byte(`{}`)}})
	if err != nil {
		t.Fatal(err)
	}
	if got := keyStates(t, s, "run_3"); got != "run_3:2/false " {
		t.Fatalf("after a holder suspended: %s; want run_3 still waiting", got)
	}
	settle(t, s, "run_4") // a waiting Run settling (interrupted) gives nothing away
	settle(t, s, "run_1")
	want = "run_1:0/false run_2:1/false run_3:1/true run_4:0/false "
	if got := keyStates(t, s, "run_1", "run_2", "run_3", "run_4"); got != want {
		t.Fatalf("after run_4 and run_1 settled: %s; want %s", got, want)
	}
	settle(t, s, "run_2")
	settle(t, s, "run_3")
	if q, err := s.KeyQueue(c, tenant, "k"); err != nil || len(q.Holding)+len(q.Waiting) != 0 {
		t.Fatalf("KeyQueue after every Run settled = %+v %v", q, err)
	}
	// The key's slots are free again.
	if r := mustCreate(t, s, keyRun("run_5", "k", 1)); r.KeyState != store.KeyHolds || !r.Index.Runnable {
		t.Errorf("run_5 = %+v; want it holding a slot", r)
	}
}

func testKeyReject(t *testing.T, s store.Store) {
	c := ctx(t)
	mustCreate(t, s, keyRun("run_1", "k", 1))
	nr := keyRun("run_2", "k", 1)
	nr.RejectLimited = true
	_, _, err := s.CreateRun(c, nr)
	var limited *errs.ConcurrencyLimited
	if !errors.As(err, &limited) || limited.Key != "k" || limited.Limit != 1 {
		t.Fatalf("CreateRun over the limit, rejecting = %v; want ConcurrencyLimited", err)
	}
	var nf *errs.RunNotFound
	if _, err := s.GetRun(c, tenant, "run_2"); !errors.As(err, &nf) {
		t.Fatalf("GetRun(run_2) = %v; want RunNotFound: a refused start creates nothing", err)
	}
	other := keyRun("run_3", "other", 1)
	other.RejectLimited = true
	mustCreate(t, s, other)
}

// testKeyRace starts Runs of one key at once and settles the holder each
// time: one holds at a time, and the slot goes in start (KeySeq) order.
func testKeyRace(t *testing.T, s store.Store) {
	const n = 16
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, _, err := s.CreateRun(ctx(t), keyRun(fmt.Sprintf("run_%02d", i), "k", 1)); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	bySeq := make([]string, n+1)
	for i := range n {
		r, err := s.GetRun(ctx(t), tenant, fmt.Sprintf("run_%02d", i))
		if err != nil {
			t.Fatal(err)
		}
		bySeq[r.KeySeq] = r.RunID
	}
	for seq := 1; seq <= n; seq++ {
		q, err := s.KeyQueue(ctx(t), tenant, "k")
		if err != nil || len(q.Holding) != 1 || q.Holding[0] != bySeq[seq] || len(q.Waiting) != n-seq {
			t.Fatalf("at seq %d: KeyQueue = %+v %v; want %s alone holding, %d waiting", seq, q, err, bySeq[seq], n-seq)
		}
		settle(t, s, bySeq[seq])
	}
}

func testKeyOnThread(t *testing.T, s store.Store) {
	mustCreate(t, s, keyRun("run_1", "k", 1))
	nr := threadRun("run_2", "th", false)
	nr.ConcurrencyKey, nr.ConcurrencyLimit = "k", 1
	r := mustCreate(t, s, nr)
	if r.Waiting || r.KeyState != store.KeyWaits || r.Index.Runnable {
		t.Fatalf("run_2, active on its thread, waiting on its key = %+v", r)
	}
	later := threadRun("run_3", "th", false)
	mustCreate(t, s, later)
	settle(t, s, "run_1")
	if got := keyStates(t, s, "run_2", "run_3"); got != "run_2:1/true run_3:0/false " {
		t.Fatalf("after run_1 settled: %s; want run_2 holding and runnable, run_3 waiting on the thread", got)
	}
}

func testKeySetIndex(t *testing.T, s store.Store) {
	c := ctx(t)
	mustCreate(t, s, keyRun("run_1", "k", 1))
	mustCreate(t, s, keyRun("run_2", "k", 1))
	err := s.SetIndex(c, tenant, "run_1", 1, store.Index{State: "FAILED", Summary: []byte(`{}`), Settled: true}, t0.Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if got := keyStates(t, s, "run_2"); got != "run_2:1/true " {
		t.Fatalf("after run_1 failed beside its log: %s; want run_2 holding", got)
	}
}
