// Package storetest is the conformance suite every store adapter passes:
// the same behaviour, checked the same way, on SQLite and PostgreSQL.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
)

// Opener returns a fresh, empty store that the test owns.
type Opener func(t *testing.T) store.Store

// Run runs the whole suite.
func Run(t *testing.T, open Opener) {
	t.Run("Specs", func(t *testing.T) { testSpecs(t, open(t)) })
	t.Run("CreateRunIdempotent", func(t *testing.T) { testCreateRun(t, open(t)) })
	t.Run("AppendConditionalOnSeq", func(t *testing.T) { testAppend(t, open(t)) })
	t.Run("ConcurrentAppendersOneWinnerPerSeq", func(t *testing.T) { testConcurrentAppend(t, open(t)) })
	t.Run("Leases", func(t *testing.T) { testLeases(t, open(t)) })
	t.Run("ClaimNeverDoubleLeases", func(t *testing.T) { testClaimRace(t, open(t)) })
	t.Run("ClaimMany", func(t *testing.T) { testClaimMany(t, open(t)) })
	runAdmission(t, open)
	runNewestVersion(t, open)
	t.Run("WakeTimes", func(t *testing.T) { testWake(t, open(t)) })
	t.Run("ListRuns", func(t *testing.T) { testListRuns(t, open(t)) })
	t.Run("Tenancy", func(t *testing.T) { testTenancy(t, open(t)) })
	t.Run("Memory", func(t *testing.T) { testMemory(t, open(t)) })
	t.Run("Bus", func(t *testing.T) { testBus(t, open(t)) })
	t.Run("Notifications", func(t *testing.T) { testNotify(t, open(t)) })
	runToolCalls(t, open)
	t.Run("SetIndexConditionalOnSeq", func(t *testing.T) { testSetIndex(t, open(t)) })
	t.Run("CountRuns", func(t *testing.T) { testCountRuns(t, open(t)) })
	runLifecycle(t, open)
	runThreadLifecycle(t, open)
	runThreads(t, open)
	runHistory(t, open)
	runSchedules(t, open)
	runWebhooks(t, open)
	runPushConfigs(t, open)
	runEvaluations(t, open)
	runFairness(t, open)
	runKeys(t, open)
	runAliases(t, open)
}

var t0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

const tenant = store.DefaultTenant

func ctx(t *testing.T) context.Context {
	t.Helper()
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

func rec(seq int64, kind string) store.Record {
	return store.Record{Seq: seq, Time: t0.Add(time.Duration(seq) * time.Millisecond), Attempt: 0, Kind: kind, Body: []byte(fmt.Sprintf(`{"seq":%d}`, seq))}
}

func newRun(id string, runnable bool) store.NewRun {
	return store.NewRun{
		Run: store.Run{
			Tenant: tenant, RunID: id, Spec: "s", Version: "v1", RootRunID: id, CreateTime: t0,
			Index: store.Index{State: "QUEUED", Runnable: runnable, Summary: []byte(`{"n":1}`)},
		},
		Records: []store.Record{rec(1, "admitted")},
	}
}

func mustCreate(t *testing.T, s store.Store, nr store.NewRun) store.Run {
	t.Helper()
	r, created, err := s.CreateRun(ctx(t), nr)
	if err != nil || !created {
		t.Fatalf("CreateRun(%s) = created %v, %v", nr.RunID, created, err)
	}
	return r
}

func testSpecs(t *testing.T, s store.Store) {
	c := ctx(t)
	a1 := store.Spec{Tenant: tenant, Name: "alpha", Version: "a1", Body: []byte(`{"v":1}`), CreateTime: t0}
	got, created, err := s.PutSpec(c, a1)
	if err != nil || !created || got.Version != "a1" {
		t.Fatalf("PutSpec = %v %v %v", got, created, err)
	}
	again, created, err := s.PutSpec(c, store.Spec{Tenant: tenant, Name: "alpha", Version: "a1", Body: []byte(`{"v":1}`), CreateTime: t0.Add(time.Hour)})
	if err != nil || created || !again.CreateTime.Equal(t0) {
		t.Fatalf("identical republish: created %v, time %v, err %v", created, again.CreateTime, err)
	}
	for _, sp := range []store.Spec{
		{Tenant: tenant, Name: "alpha", Version: "a2", Body: []byte(`{"v":2}`), CreateTime: t0.Add(time.Minute)},
		{Tenant: tenant, Name: "beta", Version: "b1", Body: []byte(`{}`), CreateTime: t0},
	} {
		if _, _, err := s.PutSpec(c, sp); err != nil {
			t.Fatal(err)
		}
	}
	newest, err := s.GetSpec(c, tenant, "alpha", "")
	if err != nil || newest.Version != "a2" || string(newest.Body) != `{"v":2}` {
		t.Errorf("newest alpha = %+v, %v", newest, err)
	}
	old, err := s.GetSpec(c, tenant, "alpha", "a1")
	if err != nil || old.Version != "a1" {
		t.Errorf("alpha a1 = %+v, %v", old, err)
	}
	var nf *errs.SpecNotFound
	if _, err := s.GetSpec(c, tenant, "gamma", ""); !errors.As(err, &nf) {
		t.Errorf("missing spec: %v", err)
	}
	if _, err := s.GetSpec(c, tenant, "alpha", "nope"); !errors.As(err, &nf) || nf.Version != "nope" {
		t.Errorf("missing version: %v", err)
	}
	page, next, err := s.ListSpecs(c, tenant, store.SpecQuery{PageSize: 1})
	if err != nil || len(page) != 1 || page[0].Name != "alpha" || page[0].Version != "a2" || next == "" {
		t.Fatalf("first page %+v next %q err %v", page, next, err)
	}
	page, next, err = s.ListSpecs(c, tenant, store.SpecQuery{PageSize: 1, PageToken: next})
	if err != nil || len(page) != 1 || page[0].Name != "beta" || next != "" {
		t.Fatalf("second page %+v next %q err %v", page, next, err)
	}
	versions, _, err := s.ListSpecs(c, tenant, store.SpecQuery{Name: "alpha"})
	if err != nil || len(versions) != 2 || versions[0].Version != "a1" || versions[1].Version != "a2" {
		t.Errorf("alpha versions %+v %v", versions, err)
	}
	var bad *errs.InvalidRequest
	if _, _, err := s.ListSpecs(c, tenant, store.SpecQuery{PageToken: "%%%"}); !errors.As(err, &bad) {
		t.Errorf("bad page token: %v", err)
	}
}

func testCreateRun(t *testing.T, s store.Store) {
	c := ctx(t)
	nr := newRun("run_a", true)
	nr.RequestID, nr.RequestHash = "req-1", "h1"
	first := mustCreate(t, s, nr)
	if first.LastSeq != 1 {
		t.Errorf("LastSeq = %d", first.LastSeq)
	}
	dup := newRun("run_b", true)
	dup.RequestID, dup.RequestHash = "req-1", "h2"
	got, created, err := s.CreateRun(c, dup)
	if err != nil || created || got.RunID != "run_a" || got.RequestHash != "h1" {
		t.Fatalf("reused request id: %+v created %v err %v", got, created, err)
	}
	if _, err := s.GetRun(c, tenant, "run_b"); err == nil {
		t.Error("the duplicate was created")
	}
	var nf *errs.RunNotFound
	if _, err := s.GetRun(c, tenant, "run_zzz"); !errors.As(err, &nf) {
		t.Errorf("GetRun of missing: %v", err)
	}
	if _, err := s.ReadLog(c, tenant, "run_zzz", 1, 0); !errors.As(err, &nf) {
		t.Errorf("ReadLog of missing: %v", err)
	}
}

func testAppend(t *testing.T, s store.Store) {
	c := ctx(t)
	mustCreate(t, s, newRun("run_a", true))
	idx := store.Index{State: "RUNNING", Runnable: true, Summary: []byte(`{"n":3}`)}
	if err := s.Append(c, store.Append{Tenant: tenant, RunID: "run_a", Records: []store.Record{rec(2, "x"), rec(3, "y")}, Index: idx}); err != nil {
		t.Fatal(err)
	}
	var conflict *errs.SeqConflict
	for _, seq := range []int64{1, 3, 5} {
		err := s.Append(c, store.Append{Tenant: tenant, RunID: "run_a", Records: []store.Record{rec(seq, "z")}, Index: idx})
		if !errors.As(err, &conflict) || conflict.Seq != seq {
			t.Errorf("append at seq %d: %v", seq, err)
		}
	}
	var nf *errs.RunNotFound
	if err := s.Append(c, store.Append{Tenant: tenant, RunID: "run_x", Records: []store.Record{rec(2, "z")}}); !errors.As(err, &nf) {
		t.Errorf("append to a missing run: %v", err)
	}
	log, err := s.ReadLog(c, tenant, "run_a", 1, 0)
	if err != nil || len(log) != 3 {
		t.Fatalf("log %v %v", log, err)
	}
	for i, r := range log {
		if r.Seq != int64(i+1) || !r.Time.Equal(rec(r.Seq, "").Time) {
			t.Errorf("record %d = seq %d time %v", i, r.Seq, r.Time)
		}
	}
	tail, err := s.ReadLog(c, tenant, "run_a", 2, 1)
	if err != nil || len(tail) != 1 || tail[0].Kind != "x" || string(tail[0].Body) != `{"seq":2}` {
		t.Errorf("ReadLog(2, 1) = %+v %v", tail, err)
	}
	run, err := s.GetRun(c, tenant, "run_a")
	if err != nil || run.LastSeq != 3 || run.Index.State != "RUNNING" || string(run.Index.Summary) != `{"n":3}` {
		t.Errorf("run after appends: %+v %v", run, err)
	}
}

func testConcurrentAppend(t *testing.T, s store.Store) {
	c := ctx(t)
	mustCreate(t, s, newRun("run_a", true))
	const writers, seqs = 8, 20
	var mu sync.Mutex
	wins := map[int64][]int{}
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for {
				log, err := s.ReadLog(c, tenant, "run_a", 1, 0)
				if err != nil {
					t.Error(err)
					return
				}
				next := int64(len(log)) + 1
				if next > seqs {
					return
				}
				r := rec(next, "w")
				r.Body = []byte(fmt.Sprintf(`{"writer":%d}`, w))
				err = s.Append(c, store.Append{Tenant: tenant, RunID: "run_a", Records: []store.Record{r}, Index: store.Index{State: "RUNNING"}})
				var conflict *errs.SeqConflict
				switch {
				case err == nil:
					mu.Lock()
					wins[next] = append(wins[next], w)
					mu.Unlock()
				case errors.As(err, &conflict):
				default:
					t.Error(err)
					return
				}
			}
		}(w)
	}
	wg.Wait()
	log, err := s.ReadLog(c, tenant, "run_a", 1, 0)
	if err != nil || len(log) != seqs {
		t.Fatalf("log has %d records, %v", len(log), err)
	}
	for seq := int64(2); seq <= seqs; seq++ {
		if len(wins[seq]) != 1 {
			t.Errorf("seq %d was won by %v, want exactly one writer", seq, wins[seq])
		}
		if string(log[seq-1].Body) != fmt.Sprintf(`{"writer":%d}`, wins[seq][0]) {
			t.Errorf("seq %d holds %s, not the winner's record", seq, log[seq-1].Body)
		}
	}
}

func testLeases(t *testing.T, s store.Store) {
	c := ctx(t)
	mustCreate(t, s, newRun("run_a", true))
	const ttl = 10 * time.Second
	l1, err := claimOne(t, s, "w1", t0, ttl)
	if err != nil || l1 == nil || l1.RunID != "run_a" || l1.Owner != "w1" || l1.Tenant != tenant || l1.Token != 1 {
		t.Fatalf("claim: %+v %v (want the Run's first lease, token 1)", l1, err)
	}
	if l, err := claimOne(t, s, "w2", t0.Add(time.Second), ttl); err != nil || l != nil {
		t.Fatalf("claimed a leased run: %+v %v", l, err)
	}
	if err := s.Renew(c, l1, t0.Add(5*time.Second), ttl); err != nil {
		t.Fatalf("renew: %v", err)
	}
	if l, _ := claimOne(t, s, "w2", t0.Add(12*time.Second), ttl); l != nil {
		t.Fatal("renewal did not extend the lease")
	}
	// The lease expires; another worker takes the Run over.
	l2, err := claimOne(t, s, "w2", t0.Add(16*time.Second), ttl)
	if err != nil || l2 == nil || l2.RunID != "run_a" || l2.Token == l1.Token {
		t.Fatalf("takeover: %+v %v", l2, err)
	}
	var lost *errs.LeaseLost
	if err := s.Renew(c, l1, t0.Add(17*time.Second), ttl); !errors.As(err, &lost) {
		t.Errorf("renewing a taken lease: %v", err)
	}
	err = s.Append(c, store.Append{Tenant: tenant, RunID: "run_a", Records: []store.Record{rec(2, "x")}, Lease: l1, Index: store.Index{State: "RUNNING", Runnable: true}})
	if !errors.As(err, &lost) {
		t.Errorf("appending under a taken lease: %v", err)
	}
	if err := s.Append(c, store.Append{Tenant: tenant, RunID: "run_a", Records: []store.Record{rec(2, "x")}, Lease: l2, Index: store.Index{State: "RUNNING", Runnable: true}}); err != nil {
		t.Errorf("appending under the held lease: %v", err)
	}
	// Releasing a lost lease changes nothing; releasing the held one frees the Run.
	if err := s.Release(c, l1); err != nil {
		t.Fatal(err)
	}
	if l, _ := claimOne(t, s, "w3", t0.Add(17*time.Second), ttl); l != nil {
		t.Fatal("a stale release freed the lease")
	}
	if err := s.Release(c, l2); err != nil {
		t.Fatal(err)
	}
	l3, err := claimOne(t, s, "w3", t0.Add(17*time.Second), ttl)
	if err != nil || l3 == nil {
		t.Fatalf("claim after release: %+v %v", l3, err)
	}
	// An append that releases and makes the Run idle leaves nothing to claim.
	if err := s.Append(c, store.Append{Tenant: tenant, RunID: "run_a", Records: []store.Record{rec(3, "settled")}, Lease: l3, Release: true, Ends: true, Index: store.Index{State: "COMPLETED", Settled: true}}); err != nil {
		t.Fatal(err)
	}
	if l, _ := claimOne(t, s, "w4", t0.Add(time.Hour), ttl); l != nil {
		t.Errorf("claimed a settled run: %+v", l)
	}
}

func testClaimRace(t *testing.T, s store.Store) {
	c := ctx(t)
	const runs, workers = 30, 6
	for i := 0; i < runs; i++ {
		mustCreate(t, s, newRun(fmt.Sprintf("run_%02d", i), true))
	}
	owners := claimConcurrently(t, workers, "w", func(owner string) ([]string, error) {
		leases, err := s.Claim(c, owner, t0, time.Minute, 3)
		ids := make([]string, len(leases))
		for i, l := range leases {
			ids[i] = l.RunID
		}
		return ids, err
	})
	if len(owners) != runs {
		t.Errorf("%d runs claimed, want %d", len(owners), runs)
	}
	for id, o := range owners {
		if len(o) != 1 {
			t.Errorf("%s leased to %v", id, o)
		}
	}
}

// claimConcurrently runs claimers (named prefix0, prefix1, ...) at once,
// each calling claim until it takes nothing, and returns the owners that
// took each id.
func claimConcurrently(t *testing.T, claimers int, prefix string, claim func(owner string) ([]string, error)) map[string][]string {
	t.Helper()
	var mu sync.Mutex
	owners := map[string][]string{}
	var wg sync.WaitGroup
	for w := 0; w < claimers; w++ {
		wg.Add(1)
		go func(owner string) {
			defer wg.Done()
			for {
				ids, err := claim(owner)
				if err != nil {
					t.Error(err)
					return
				}
				if len(ids) == 0 {
					return
				}
				mu.Lock()
				for _, id := range ids {
					owners[id] = append(owners[id], owner)
				}
				mu.Unlock()
			}
		}(fmt.Sprintf("%s%d", prefix, w))
	}
	wg.Wait()
	return owners
}

// claimOne claims at most one Run, failing the test on an error.
func claimOne(t *testing.T, s store.Store, owner string, now time.Time, ttl time.Duration) (*store.Lease, error) {
	t.Helper()
	leases, err := s.Claim(ctx(t), owner, now, ttl, 1)
	if err != nil || len(leases) == 0 {
		return nil, err
	}
	if len(leases) > 1 {
		t.Fatalf("Claim with limit 1 returned %d leases", len(leases))
	}
	return leases[0], nil
}

func testClaimMany(t *testing.T, s store.Store) {
	c := ctx(t)
	for i := 0; i < 5; i++ {
		nr := newRun(fmt.Sprintf("run_%d", i), true)
		nr.CreateTime = t0.Add(time.Duration(i) * time.Second)
		mustCreate(t, s, nr)
	}
	idle := newRun("run_idle", false)
	idle.Index.State, idle.Index.WakeAt = "SUSPENDED", t0.Add(-time.Second)
	mustCreate(t, s, idle)
	first, err := s.Claim(c, "w1", t0, time.Minute, 4)
	if err != nil || len(first) != 4 {
		t.Fatalf("first claim: %d leases, %v", len(first), err)
	}
	for _, l := range first {
		if l.RunID == "run_idle" {
			t.Errorf("an idle run was claimed before runnable ones")
		}
	}
	rest, err := s.Claim(c, "w2", t0, time.Minute, 10)
	if err != nil || len(rest) != 2 {
		t.Fatalf("second claim: %d leases, %v", len(rest), err)
	}
	seen := map[string]bool{}
	for _, l := range append(first, rest...) {
		if seen[l.RunID] {
			t.Errorf("%s leased twice", l.RunID)
		}
		seen[l.RunID] = true
	}
	if !seen["run_idle"] {
		t.Error("the idle run past its wake time was not claimed")
	}
	if more, _ := s.Claim(c, "w3", t0, time.Minute, 10); len(more) != 0 {
		t.Errorf("claimed %d leased runs", len(more))
	}
}

func testWake(t *testing.T, s store.Store) {
	c := ctx(t)
	if err := s.Ping(c); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	if _, ok, err := s.NextWake(c); ok || err != nil {
		t.Fatalf("NextWake of an empty store: %v %v", ok, err)
	}
	nr := newRun("run_a", false)
	nr.Index.State, nr.Index.WakeAt = "SUSPENDED", t0.Add(time.Hour)
	mustCreate(t, s, nr)
	later := newRun("run_b", false)
	later.Index.State, later.Index.WakeAt = "SUSPENDED", t0.Add(2*time.Hour)
	mustCreate(t, s, later)
	if l, _ := claimOne(t, s, "w", t0.Add(time.Minute), time.Minute); l != nil {
		t.Fatal("claimed an idle run before its wake time")
	}
	at, ok, err := s.NextWake(c)
	if err != nil || !ok || !at.Equal(t0.Add(time.Hour)) {
		t.Fatalf("NextWake = %v %v %v", at, ok, err)
	}
	l, err := claimOne(t, s, "w", t0.Add(time.Hour), time.Minute)
	if err != nil || l == nil || l.RunID != "run_a" {
		t.Fatalf("claim at wake time: %+v %v", l, err)
	}
	// A leased Run past its wake time may be claimed when its lease ends.
	at, ok, err = s.NextWake(c)
	if err != nil || !ok || !at.Equal(t0.Add(time.Hour+time.Minute)) {
		t.Fatalf("NextWake with the due Run leased = %v %v %v, want its lease's end", at, ok, err)
	}
}

func testListRuns(t *testing.T, s store.Store) {
	c := ctx(t)
	for i := 0; i < 5; i++ {
		nr := newRun(fmt.Sprintf("run_%d", i), true)
		nr.CreateTime = t0.Add(time.Duration(i) * time.Second)
		if i%2 == 1 {
			nr.Spec, nr.Index.State = "other", "COMPLETED"
		}
		if i == 4 {
			nr.ParentRunID, nr.DelegationID = "run_0", "dlg_4"
		}
		mustCreate(t, s, nr)
	}
	var ids []string
	token := ""
	for {
		page, next, err := s.ListRuns(c, tenant, store.RunQuery{PageSize: 2, PageToken: token})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range page {
			ids = append(ids, r.RunID)
		}
		if next == "" {
			break
		}
		token = next
	}
	if fmt.Sprint(ids) != "[run_4 run_3 run_2 run_1 run_0]" {
		t.Errorf("paged newest first: %v", ids)
	}
	for _, tc := range []struct {
		q    store.RunQuery
		want string
	}{
		{store.RunQuery{States: []string{"COMPLETED"}}, "[run_3 run_1]"},
		{store.RunQuery{Spec: "s"}, "[run_4 run_2 run_0]"},
		{store.RunQuery{ParentRunID: "run_0"}, "[run_4]"},
		{store.RunQuery{States: []string{"QUEUED", "COMPLETED"}, Spec: "other"}, "[run_3 run_1]"},
		{store.RunQuery{States: []string{"QUEUED", "COMPLETED"}, PageSize: 2}, "[run_4 run_3 run_2 run_1 run_0]"},
		{store.RunQuery{States: []string{"COMPLETED", "QUEUED"}, PageSize: 1}, "[run_4 run_3 run_2 run_1 run_0]"},
	} {
		var got []string
		for token := "first"; token != ""; {
			q := tc.q
			if token != "first" {
				q.PageToken = token
			}
			page, next, err := s.ListRuns(c, tenant, q)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range page {
				got = append(got, r.RunID)
			}
			token = next
		}
		if fmt.Sprint(got) != tc.want {
			t.Errorf("%+v: %v, want %s", tc.q, got, tc.want)
		}
	}
	child, err := s.GetRunByDelegation(c, tenant, "dlg_4")
	if err != nil || child.RunID != "run_4" || child.ParentRunID != "run_0" {
		t.Errorf("by delegation: %+v %v", child, err)
	}
	var nf *errs.DelegationNotFound
	if _, err := s.GetRunByDelegation(c, tenant, "dlg_x"); !errors.As(err, &nf) {
		t.Errorf("missing delegation: %v", err)
	}
}

func testTenancy(t *testing.T, s store.Store) {
	c := ctx(t)
	mustCreate(t, s, newRun("run_a", true))
	if _, _, err := s.PutSpec(c, store.Spec{Tenant: tenant, Name: "alpha", Version: "a1", Body: []byte(`{}`), CreateTime: t0}); err != nil {
		t.Fatal(err)
	}
	var nf *errs.RunNotFound
	if _, err := s.GetRun(c, "other", "run_a"); !errors.As(err, &nf) {
		t.Errorf("another tenant's run: %v", err)
	}
	if err := s.Append(c, store.Append{Tenant: "other", RunID: "run_a", Records: []store.Record{rec(2, "x")}}); !errors.As(err, &nf) {
		t.Errorf("append to another tenant's run: %v", err)
	}
	var snf *errs.SpecNotFound
	if _, err := s.GetSpec(c, "other", "alpha", ""); !errors.As(err, &snf) {
		t.Errorf("another tenant's spec: %v", err)
	}
	if runs, _, _ := s.ListRuns(c, "other", store.RunQuery{}); len(runs) != 0 {
		t.Errorf("another tenant lists %d runs", len(runs))
	}
	if _, err := s.SetValue(c, tenant, "ns", "k", []byte(`1`), t0); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetValues(c, "other", "ns", []string{"k"}); len(got) != 0 {
		t.Errorf("another tenant reads memory: %v", got)
	}
}

func testMemory(t *testing.T, s store.Store) {
	c := ctx(t)
	e1, err := s.SetValue(c, tenant, "ns", "a", []byte(`{"x":1}`), t0)
	if err != nil {
		t.Fatal(err)
	}
	e2, err := s.SetValue(c, tenant, "ns", "b", []byte(`"two"`), t0)
	if err != nil {
		t.Fatal(err)
	}
	e3, err := s.SetValue(c, tenant, "ns", "a", []byte(`3`), t0.Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if !(e1.Version < e2.Version && e2.Version < e3.Version) {
		t.Errorf("versions %d %d %d do not increase", e1.Version, e2.Version, e3.Version)
	}
	if _, err := s.SetValue(c, tenant, "other-ns", "a", []byte(`9`), t0); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetValues(c, tenant, "ns", []string{"a", "missing", "b"})
	if err != nil || len(got) != 2 {
		t.Fatalf("GetValues = %v %v", got, err)
	}
	byKey := map[string]store.Entry{}
	for _, e := range got {
		byKey[e.Key] = e
	}
	if string(byKey["a"].Value) != `3` || byKey["a"].Version != e3.Version || string(byKey["b"].Value) != `"two"` {
		t.Errorf("values %+v", byKey)
	}
	changes, err := s.Changes(c, tenant, "ns", e1.Version)
	if err != nil || len(changes) != 2 || changes[0].Key != "b" || changes[1].Key != "a" {
		t.Errorf("changes after %d: %+v %v", e1.Version, changes, err)
	}
}

func testBus(t *testing.T, s store.Store) {
	c := ctx(t)
	if err := s.DeclareChannels(c, tenant, "bob", []string{"bob", "alerts"}); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.ChannelExists(c, tenant, "alerts"); err != nil || !ok {
		t.Errorf("alerts exists = %v %v", ok, err)
	}
	if ok, _ := s.ChannelExists(c, tenant, "nope"); ok {
		t.Error("undeclared channel exists")
	}
	for i, id := range []string{"m1", "m2", "m3"} {
		m := store.BusMessage{Tenant: tenant, MessageID: id, Channel: "bob", Sender: "alice", Content: []byte(`"hi"`), SendTime: t0.Add(time.Duration(i) * time.Second)}
		if id == "m3" {
			m.InReplyTo = "m1"
		}
		if err := s.SendBus(c, m); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.DeliverBus(c, tenant, "bob", "", t0, 30*time.Second, 2)
	if err != nil || len(got) != 2 || got[0].MessageID != "m1" || got[1].MessageID != "m2" || got[0].DeliveryCount != 1 {
		t.Fatalf("first delivery %+v %v", got, err)
	}
	got, _ = s.DeliverBus(c, tenant, "bob", "", t0.Add(time.Second), 30*time.Second, 10)
	if len(got) != 1 || got[0].MessageID != "m3" || got[0].InReplyTo != "m1" {
		t.Fatalf("second delivery %+v", got)
	}
	if n, err := s.AckBus(c, tenant, "bob", []string{"m1", "m1", "zz"}); err != nil || n != 1 {
		t.Errorf("ack = %d %v", n, err)
	}
	at, ok, err := s.NextRedelivery(c, tenant, "bob")
	if err != nil || !ok || !at.Equal(t0.Add(30*time.Second)) {
		t.Errorf("next redelivery %v %v %v", at, ok, err)
	}
	// Unacknowledged messages come back after the ack timeout, counted.
	got, _ = s.DeliverBus(c, tenant, "bob", "", t0.Add(40*time.Second), 30*time.Second, 10)
	if len(got) != 2 || got[0].MessageID != "m2" || got[0].DeliveryCount != 2 || got[1].MessageID != "m3" {
		t.Fatalf("redelivery %+v", got)
	}
	replies, _ := s.DeliverBus(c, tenant, "bob", "m1", t0.Add(80*time.Second), 30*time.Second, 10)
	if len(replies) != 1 || replies[0].MessageID != "m3" {
		t.Errorf("replies to m1: %+v", replies)
	}
}

func testNotify(t *testing.T, s store.Store) {
	c := ctx(t)
	run := s.Notifier().Subscribe(store.RunTopic(tenant, "run_a"))
	defer run.Close()
	runnable := s.Notifier().Subscribe(store.TopicRunnable)
	defer runnable.Close()
	mem := s.Notifier().Subscribe(store.MemoryTopic(tenant, "ns"))
	defer mem.Close()
	bus := s.Notifier().Subscribe(store.BusTopic(tenant, "ch"))
	defer bus.Close()
	outsider := s.Notifier().Subscribe(store.OutsiderTopic(tenant, "run_a"))
	defer outsider.Close()

	mustCreate(t, s, newRun("run_a", true))
	waitSignal(t, "run", run)
	waitSignal(t, "runnable", runnable)
	waitSignal(t, "outsider (admission)", outsider)
	if err := s.Append(c, store.Append{Tenant: tenant, RunID: "run_a", Records: []store.Record{rec(2, "x")}, Index: store.Index{State: "RUNNING"}}); err != nil {
		t.Fatal(err)
	}
	waitSignal(t, "run append", run)
	waitSignal(t, "outsider append", outsider)

	worker := rec(3, "x")
	worker.Attempt = 1
	if err := s.Append(c, store.Append{Tenant: tenant, RunID: "run_a", Records: []store.Record{worker}, Index: store.Index{State: "RUNNING"}}); err != nil {
		t.Fatal(err)
	}
	waitSignal(t, "run append by a worker", run)
	select {
	case <-outsider.C():
		t.Fatal("a worker's append signalled the outsider topic")
	case <-time.After(200 * time.Millisecond):
	}
	if err := s.Append(c, store.Append{Tenant: tenant, RunID: "run_a", Records: []store.Record{rec(4, "y")}, Index: store.Index{State: "RUNNING"}}); err != nil {
		t.Fatal(err)
	}
	waitSignal(t, "outsider append", outsider)

	if _, err := s.SetValue(c, tenant, "ns", "k", []byte(`1`), t0); err != nil {
		t.Fatal(err)
	}
	waitSignal(t, "memory", mem)
	if err := s.SendBus(c, store.BusMessage{Tenant: tenant, MessageID: "m", Channel: "ch", Sender: "a", Content: []byte(`1`), SendTime: t0}); err != nil {
		t.Fatal(err)
	}
	waitSignal(t, "bus", bus)
}

// waitSignal fails the test unless sub receives a signal soon.
func waitSignal(t *testing.T, name string, sub store.Subscription) {
	t.Helper()
	select {
	case <-sub.C():
	case <-time.After(10 * time.Second):
		t.Fatalf("no %s signal", name)
	}
}
