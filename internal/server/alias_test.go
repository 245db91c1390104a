package server_test

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// aliasSpec is Spec s answering answer at once.
func aliasSpec(answer string) string {
	return fmt.Sprintf(`{"name": "s", "model": {"provider": "scripted", "script": {"turns": [{"text": %q}]}}}`, answer)
}

// twoVersions starts a server with two Versions of Spec s and returns
// it, its AliasService client and the two Versions.
func twoVersions(t *testing.T) (*testserver.Server, runsvcv1.AliasServiceClient, string, string) {
	t.Helper()
	s := testserver.Start(t)
	v1 := s.Publish(t, aliasSpec("one")).GetVersion()
	v2 := s.Publish(t, aliasSpec("two")).GetVersion()
	return s, runsvcv1.NewAliasServiceClient(s.Conn), v1, v2
}

func moveAlias(t *testing.T, c runsvcv1.AliasServiceClient, req *runsvcv1.MoveAliasRequest) *runsvcv1.Alias {
	t.Helper()
	resp, err := c.MoveAlias(testserver.Context(t), req)
	if err != nil {
		t.Fatalf("MoveAlias(%v): %v", req, err)
	}
	return resp.GetAlias()
}

// later is a start_at an hour ahead: the many Runs of the split tests are
// admitted asleep, their Versions chosen, and cost no worker anything.
var later = timestamppb.New(time.Now().Add(time.Hour))

// started is one StartRun of the concurrent test: the Version it got, and
// whether it returned before MoveAlias was called or was called after
// MoveAlias returned.
type started struct {
	runID, version string
	before, after  bool
}

// TestAliasMoveTakesNewRunsOnly: 1,000 Runs start (asleep) on s@prod from eight
// callers while prod moves from v1 to v2 half way. Every start that
// returned before MoveAlias was called is on v1, every one called after
// MoveAlias returned on v2, and each Run's stored Version is the one its
// start returned.
func TestAliasMoveTakesNewRunsOnly(t *testing.T) {
	s, aliases, v1, v2 := twoVersions(t)
	moveAlias(t, aliases, &runsvcv1.MoveAliasRequest{Spec: "s", Alias: "prod", Version: v1})
	const total, callers = 1000, 8
	var moveCalled, moveReturned atomic.Bool
	var next, done atomic.Int64
	results := make([]started, total)
	moved, half := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(moved)
		<-half
		moveCalled.Store(true)
		moveAlias(t, aliases, &runsvcv1.MoveAliasRequest{Spec: "s", Alias: "prod", Version: v2})
		moveReturned.Store(true)
	}()
	var wg sync.WaitGroup
	for range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := next.Add(1) - 1; i < total; i = next.Add(1) - 1 {
				after := moveReturned.Load()
				resp, err := s.Runs.StartRun(testserver.Context(t), &runsvcv1.StartRunRequest{Spec: "s@prod", Input: "go", StartAt: later})
				if err != nil {
					t.Errorf("StartRun: %v", err)
					return
				}
				results[i] = started{runID: resp.GetRun().GetRunId(), version: resp.GetRun().GetVersion(), before: !moveCalled.Load(), after: after}
				if done.Add(1) == total/2 {
					close(half)
				}
			}
		}()
	}
	wg.Wait()
	<-moved
	checkAliasMove(t, s, results, v1, v2)
}

// parallel calls f(0) to f(n-1) from eight goroutines.
func parallel(t *testing.T, n int, f func(i int)) {
	t.Helper()
	var next atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := next.Add(1) - 1; i < int64(n); i = next.Add(1) - 1 {
				f(int(i))
			}
		}()
	}
	wg.Wait()
}

func checkAliasMove(t *testing.T, s *testserver.Server, results []started, v1, v2 string) {
	t.Helper()
	var before, after int
	for _, r := range results {
		switch {
		case r.before && r.version != v1:
			t.Fatalf("run %s returned before the move, on %s", r.runID, r.version)
		case r.after && r.version != v2:
			t.Fatalf("run %s started after the move returned, on %s", r.runID, r.version)
		}
		if r.before {
			before++
		}
		if r.after {
			after++
		}
		got, err := s.Runs.GetRun(testserver.Context(t), &runsvcv1.GetRunRequest{RunId: r.runID})
		if err != nil || got.GetRun().GetVersion() != r.version || got.GetRun().GetAlias() != "prod" || got.GetRun().GetAliasSide() != runsvcv1.AliasSide_ALIAS_SIDE_PRIMARY {
			t.Fatalf("GetRun(%s) = %v, %v; started on %s", r.runID, got.GetRun(), err, r.version)
		}
	}
	if before < 400 || after < 100 {
		t.Fatalf("%d starts returned before the move and %d began after it: the move did not land mid-way", before, after)
	}
	t.Logf("%d of %d starts before the move (all v1), %d after it (all v2)", before, len(results), after)
}

// TestCanarySplitsAndSticksToThreads: prod sends 10% of new Runs to a
// canary; 2,000 starts (asleep) on 1,000 threads (two each) split within two
// points of 90/10, every thread's Runs on one side, GetRun says which, and
// GetRollout counts both sides.
func TestCanarySplitsAndSticksToThreads(t *testing.T) {
	s, aliases, v1, v2 := twoVersions(t)
	moveAlias(t, aliases, &runsvcv1.MoveAliasRequest{Spec: "s", Alias: "prod", Version: v1, CanaryVersion: v2, CanaryPercent: 10})
	const threads = 1000
	sides := make([][2]*runsvcv1.Run, threads)
	for round := range 2 {
		parallel(t, threads, func(i int) {
			resp, err := s.Runs.StartRun(testserver.Context(t), &runsvcv1.StartRunRequest{Spec: "s@prod", Input: "go", ThreadId: fmt.Sprintf("th-%d", i),
				ThreadStrategy: runsvcv1.ThreadStrategy_THREAD_STRATEGY_ENQUEUE, StartAt: later})
			if err != nil {
				t.Error(err)
				return
			}
			sides[i][round] = resp.GetRun()
		})
	}
	canary := 0
	want := map[runsvcv1.AliasSide]string{runsvcv1.AliasSide_ALIAS_SIDE_PRIMARY: v1, runsvcv1.AliasSide_ALIAS_SIDE_CANARY: v2}
	for i, pair := range sides {
		for _, run := range pair {
			if run.GetVersion() != want[run.GetAliasSide()] {
				t.Fatalf("run %s on side %v runs %s", run.GetRunId(), run.GetAliasSide(), run.GetVersion())
			}
			if run.GetAliasSide() == runsvcv1.AliasSide_ALIAS_SIDE_CANARY {
				canary++
			}
		}
		if pair[0].GetAliasSide() != pair[1].GetAliasSide() {
			t.Fatalf("thread th-%d: a Run on %v, the next on %v", i, pair[0].GetAliasSide(), pair[1].GetAliasSide())
		}
	}
	pct := float64(canary) / 20
	t.Logf("the canary took %d of 2,000 starts (%.1f%%), each thread's two on one side", canary, pct)
	if pct < 8 || pct > 12 {
		t.Fatalf("the canary took %.1f%% of 2,000 starts, want 10±2", pct)
	}
	rollout, err := aliases.GetRollout(testserver.Context(t), &runsvcv1.GetRolloutRequest{Spec: "s", Alias: "prod", MaxRuns: 5000})
	if err != nil || len(rollout.GetSides()) != 2 {
		t.Fatalf("GetRollout = %v, %v", rollout, err)
	}
	if p, c := rollout.GetSides()[0], rollout.GetSides()[1]; p.GetVersion() != v1 || c.GetVersion() != v2 || int(c.GetRuns()) != canary || int(p.GetRuns()) != 2*threads-canary {
		t.Fatalf("rollout sides %v, want %d on the canary of 2,000", rollout.GetSides(), canary)
	}
}

// TestThreadKeepsItsVersionUnlessItFollows: after prod moves, a thread
// whose Run ran v1 keeps v1 (side THREAD), a start with follow_alias
// takes v2, and a new thread takes v2.
func TestThreadKeepsItsVersionUnlessItFollows(t *testing.T) {
	s, aliases, v1, v2 := twoVersions(t)
	moveAlias(t, aliases, &runsvcv1.MoveAliasRequest{Spec: "s", Alias: "prod", Version: v1})
	start := func(thread string, follow bool) *runsvcv1.Run {
		resp, err := s.Runs.StartRun(testserver.Context(t), &runsvcv1.StartRunRequest{Spec: "s@prod", Input: "go", ThreadId: thread, FollowAlias: follow,
			ThreadStrategy: runsvcv1.ThreadStrategy_THREAD_STRATEGY_ENQUEUE})
		if err != nil {
			t.Fatal(err)
		}
		return resp.GetRun()
	}
	first := start("th", false)
	s.Settled(t, first.GetRunId())
	moveAlias(t, aliases, &runsvcv1.MoveAliasRequest{Spec: "s", Alias: "prod", Version: v2})
	cases := []struct {
		name, thread string
		follow       bool
		version      string
		side         runsvcv1.AliasSide
	}{
		{"the thread keeps v1", "th", false, v1, runsvcv1.AliasSide_ALIAS_SIDE_THREAD},
		{"the thread follows prod", "th", true, v2, runsvcv1.AliasSide_ALIAS_SIDE_PRIMARY},
		{"a new thread", "th-new", false, v2, runsvcv1.AliasSide_ALIAS_SIDE_PRIMARY},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			run := start(tc.thread, tc.follow)
			if run.GetVersion() != tc.version || run.GetAliasSide() != tc.side {
				t.Fatalf("run on %s side %v, want %s side %v", run.GetVersion(), run.GetAliasSide(), tc.version, tc.side)
			}
			s.Settled(t, run.GetRunId())
		})
	}
}

// TestMovingProdNeedsPublisher: a runner may move canary but not prod; a
// publisher and an admin may move prod; a reader may move neither. The
// audit names who moved it.
func TestMovingProdNeedsPublisher(t *testing.T) {
	sec := startSecured(t, []string{"acme"})
	admin := sec.conn(t, sec.keys["acme/admin"], nil)
	v := testserver.Publish(t, runsvcv1.NewSpecServiceClient(admin), aliasSpec("one")).GetVersion()
	cases := []struct {
		role, alias, want string
	}{
		{"runner", "prod", "ACCESS_DENIED"},
		{"runner", "canary", ""},
		{"reader", "canary", "ROLE_DENIED"},
		{"worker", "prod", "ROLE_DENIED"},
		{"publisher", "prod", ""},
		{"admin", "prod", ""},
	}
	for _, tc := range cases {
		t.Run(tc.role+"/"+tc.alias, func(t *testing.T) {
			c := runsvcv1.NewAliasServiceClient(sec.conn(t, sec.keys["acme/"+tc.role], nil))
			_, err := c.MoveAlias(ctxT(t), &runsvcv1.MoveAliasRequest{Spec: "s", Alias: tc.alias, Version: v})
			if got := reasonOf(err); got != tc.want {
				t.Fatalf("%s moving %s: %q (%v), want %q", tc.role, tc.alias, got, err, tc.want)
			}
			_, err = c.DeleteAlias(ctxT(t), &runsvcv1.DeleteAliasRequest{Spec: "s", Alias: tc.alias})
			if got := reasonOf(err); tc.want != "" && got != tc.want {
				t.Fatalf("%s deleting %s: %q, want %q", tc.role, tc.alias, got, tc.want)
			}
		})
	}
	h, err := runsvcv1.NewAliasServiceClient(admin).ListAliasHistory(ctxT(t), &runsvcv1.ListAliasHistoryRequest{Spec: "s", Alias: "prod"})
	if err != nil || len(h.GetMoves()) != 4 || h.GetMoves()[3].GetSubject() != "acme-publisher" || h.GetMoves()[0].GetSubject() != "acme-admin" {
		t.Fatalf("prod's history = %v, %v", h.GetMoves(), err)
	}
}

// TestDelegateToAnAlias: a delegation to s@prod starts its child on the
// Version prod names.
func TestDelegateToAnAlias(t *testing.T) {
	s, aliases, v1, _ := twoVersions(t)
	moveAlias(t, aliases, &runsvcv1.MoveAliasRequest{Spec: "s", Alias: "prod", Version: v1})
	resp, err := s.Delegation.Delegate(testserver.Context(t), &runsvcv1.DelegateRequest{Spec: "s@prod", Task: "go", Async: true})
	if err != nil {
		t.Fatal(err)
	}
	child := s.Settled(t, resp.GetDelegation().GetChildRunId())
	if child.GetVersion() != v1 || child.GetAlias() != "prod" || child.GetAnswer() != "one" {
		t.Fatalf("the child ran %s (alias %q) and answered %q; want %s", child.GetVersion(), child.GetAlias(), child.GetAnswer(), v1)
	}
}
