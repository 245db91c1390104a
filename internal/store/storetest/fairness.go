package storetest

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/store"
)

// runFairness checks the claim order: priority first, then the fairness
// keys in turn, by weight.
func runFairness(t *testing.T, open Opener) {
	t.Run("ClaimHighestPriorityFirst", func(t *testing.T) { testClaimPriority(t, open(t)) })
	t.Run("ClaimFairAcrossKeys", func(t *testing.T) { testClaimFair(t, open(t)) })
	t.Run("ClaimFairByWeight", func(t *testing.T) { testClaimWeighted(t, open(t)) })
}

// queuedRun is a runnable Run of priority p and fairness key key, with a
// stride (0: the default), created at t0+at.
func queuedRun(id string, p int, key string, stride int64, at time.Duration) store.NewRun {
	nr := newRun(id, true)
	nr.CreateTime = t0.Add(at)
	nr.Priority, nr.FairnessKey, nr.FairStride = p, key, stride
	return nr
}

// claimOrder claims every runnable Run, one at a time, and returns their
// ids in the order claimed.
func claimOrder(t *testing.T, s store.Store) []string {
	t.Helper()
	var order []string
	for {
		ls, err := s.Claim(ctx(t), "w", t0.Add(time.Hour), time.Hour, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(ls) == 0 {
			return order
		}
		order = append(order, ls[0].RunID)
	}
}

func testClaimPriority(t *testing.T, s store.Store) {
	mustCreate(t, s, queuedRun("low-1", 1, "", 0, 0))
	mustCreate(t, s, queuedRun("mid-1", 0, "", 0, time.Millisecond))
	mustCreate(t, s, queuedRun("low-2", 1, "", 0, 2*time.Millisecond))
	mustCreate(t, s, queuedRun("high", 5, "", 0, 3*time.Millisecond))
	got, err := s.GetRun(ctx(t), tenant, "mid-1")
	if err != nil || got.Priority != store.DefaultPriority || got.FairnessKey != tenant {
		t.Fatalf("GetRun(mid-1) = priority %d key %q, %v; want the defaults %d and the tenant", got.Priority, got.FairnessKey, err, store.DefaultPriority)
	}
	if order, want := claimOrder(t, s), []string{"high", "mid-1", "low-1", "low-2"}; !slices.Equal(order, want) {
		t.Fatalf("claimed %v, want %v", order, want)
	}
}

// testClaimFair queues one key's 20 Runs, then three other keys' 2 each:
// the claims take every key in turn, so the small keys' Runs are all
// claimed among the first 1+2×4 claims (the big key's head, then each
// key's turn), not after the big key's 20.
func testClaimFair(t *testing.T, s store.Store) {
	for i := range 20 {
		mustCreate(t, s, queuedRun(fmt.Sprintf("big-%02d", i), 0, "big", 0, time.Duration(i)*time.Millisecond))
	}
	for i := range 2 {
		for _, k := range []string{"a", "b", "c"} {
			mustCreate(t, s, queuedRun(fmt.Sprintf("%s-%d", k, i), 0, k, 0, time.Second+time.Duration(i)*time.Millisecond))
		}
	}
	order := claimOrder(t, s)
	if len(order) != 26 {
		t.Fatalf("claimed %d Runs, want 26: %v", len(order), order)
	}
	for _, id := range []string{"a-0", "a-1", "b-0", "b-1", "c-0", "c-1"} {
		if i := slices.Index(order, id); i >= 9 {
			t.Errorf("%s claimed %dth: %v", id, i+1, order)
		}
	}
	big := slices.DeleteFunc(slices.Clone(order), func(id string) bool { return id[:3] != "big" })
	if !slices.IsSorted(big) {
		t.Errorf("one key's Runs claimed out of their order: %v", big)
	}
}

// testClaimWeighted queues two keys' 12 Runs each, one of weight 3 (a
// third of the stride): of the first 8 claims, 6 are its.
func testClaimWeighted(t *testing.T, s store.Store) {
	for i := range 12 {
		mustCreate(t, s, queuedRun(fmt.Sprintf("one-%02d", i), 0, "one", 0, time.Duration(i)*time.Millisecond))
		mustCreate(t, s, queuedRun(fmt.Sprintf("three-%02d", i), 0, "three", store.DefaultStride/3, time.Duration(i)*time.Millisecond))
	}
	order := claimOrder(t, s)
	heavy := 0
	for _, id := range order[:8] {
		if id[:5] == "three" {
			heavy++
		}
	}
	if heavy != 6 {
		t.Fatalf("the weight-3 key had %d of the first 8 claims, want 6: %v", heavy, order)
	}
}
