package storetest

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
)

// runToolCalls runs the subtests of the ToolCalls port.
func runToolCalls(t *testing.T, open Opener) {
	t.Run("ToolAdvertsExpire", func(t *testing.T) { testToolAdverts(t, open(t)) })
	t.Run("EnqueueToolCallIdempotent", func(t *testing.T) { testEnqueueToolCall(t, open(t)) })
	t.Run("ClaimToolCalls", func(t *testing.T) { testClaimToolCalls(t, open(t)) })
	t.Run("ToolCallClaimNeverDoubled", func(t *testing.T) { testToolCallClaimRace(t, open(t)) })
	t.Run("ToolCallClaimExpires", func(t *testing.T) { testToolCallClaimExpiry(t, open(t)) })
	t.Run("ToolCallResults", func(t *testing.T) { testToolCallResults(t, open(t)) })
	t.Run("AbandonAndPruneToolCalls", func(t *testing.T) { testAbandonPrune(t, open(t)) })
	t.Run("ToolCallNotifications", func(t *testing.T) { testToolCallNotify(t, open(t)) })
	t.Run("ToolCallTraceParent", func(t *testing.T) { testToolCallTraceParent(t, open(t)) })
}

func toolCall(id, tool string, created time.Time) store.ToolCall {
	return store.ToolCall{
		Tenant: tenant, CallID: "run_1/" + id, RunID: "run_1", Tool: tool,
		Arguments: []byte(fmt.Sprintf(`{"id":%q}`, id)), Deadline: t0.Add(time.Hour), CreateTime: created,
	}
}

func mustEnqueue(t *testing.T, s store.Store, c store.ToolCall) store.ToolCall {
	t.Helper()
	got, created, err := s.EnqueueToolCall(ctx(t), c)
	if err != nil || !created {
		t.Fatalf("EnqueueToolCall(%s) = created %v, %v", c.CallID, created, err)
	}
	return got
}

func claimCalls(t *testing.T, s store.Store, owner string, tools []string, now time.Time, ttl time.Duration, limit int) []store.ToolCall {
	t.Helper()
	got, err := s.ClaimToolCalls(ctx(t), tenant, owner, tools, now, ttl, limit)
	if err != nil {
		t.Fatalf("ClaimToolCalls(%s): %v", owner, err)
	}
	return got
}

func callIDs(calls []store.ToolCall) string {
	ids := make([]string, len(calls))
	for i, c := range calls {
		ids[i] = c.CallID
	}
	return fmt.Sprint(ids)
}

func testToolAdverts(t *testing.T, s store.Store) {
	c := ctx(t)
	if err := s.AdvertiseTools(c, "r1", []store.ToolAdvert{
		{Tenant: tenant, Tool: "search", Description: "finds", Parameters: []byte(`{"type":"object"}`), Workers: 1},
		{Tenant: tenant, Tool: "add", Description: "adds (r1)", Workers: 2},
		{Tenant: "acme", Tool: "secret", Workers: 1},
	}, t0.Add(15*time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := s.AdvertiseTools(c, "r2", []store.ToolAdvert{{Tenant: tenant, Tool: "add", Description: "adds (r2)", Workers: 1}}, t0.Add(5*time.Second)); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		tenant string
		now    time.Time
		except string
		want   string
	}{
		{"both replicas live", tenant, t0, "", "[add:2/3 search:1/1]"},
		{"without r1", tenant, t0, "r1", "[add:1/1]"},
		{"r2 expired", tenant, t0.Add(5 * time.Second), "", "[add:1/2 search:1/1]"},
		{"all expired", tenant, t0.Add(15 * time.Second), "", "[]"},
		{"another tenant", "acme", t0, "", "[secret:1/1]"},
		{"unknown tenant", "nobody", t0, "", "[]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.ServedTools(ctx(t), tc.tenant, tc.now, tc.except)
			if err != nil {
				t.Fatal(err)
			}
			if s := servedString(got); s != tc.want {
				t.Errorf("ServedTools = %s, want %s", s, tc.want)
			}
		})
	}
	got, _ := s.ServedTools(c, tenant, t0, "")
	if len(got) != 2 || got[0].Description != "adds (r1)" || got[1].Description != "finds" || string(got[1].Parameters) != `{"type":"object"}` {
		t.Errorf("definitions: %+v", got)
	}
	// A heartbeat replaces the replica's adverts and pushes their expiry
	// back; no adverts withdraws them.
	if err := s.AdvertiseTools(c, "r1", []store.ToolAdvert{{Tenant: tenant, Tool: "search", Workers: 3}}, t0.Add(30*time.Second)); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.ServedTools(c, tenant, t0.Add(20*time.Second), ""); servedString(got) != "[search:1/3]" {
		t.Errorf("after a heartbeat: %s", servedString(got))
	}
	if got, _ := s.ServedTools(c, "acme", t0, ""); len(got) != 0 {
		t.Errorf("a tool r1 stopped advertising is still served: %s", servedString(got))
	}
	if err := s.AdvertiseTools(c, "r1", nil, t0.Add(30*time.Second)); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.ServedTools(c, tenant, t0, ""); servedString(got) != "[add:1/1]" {
		t.Errorf("after r1 withdrew: %s", servedString(got))
	}
	if _, err := s.PruneToolCalls(c, t0.Add(10*time.Second), time.Minute); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.ServedTools(c, tenant, t0, ""); len(got) != 0 {
		t.Errorf("an expired advert survived pruning: %s", servedString(got))
	}
}

func servedString(tools []store.ServedTool) string {
	out := make([]string, len(tools))
	for i, t := range tools {
		out[i] = fmt.Sprintf("%s:%d/%d", t.Tool, t.Replicas, t.Workers)
	}
	return fmt.Sprint(out)
}

func testEnqueueToolCall(t *testing.T, s store.Store) {
	c := ctx(t)
	first := mustEnqueue(t, s, toolCall("c1", "add", t0))
	if first.CallID != "run_1/c1" || first.RunID != "run_1" || first.Tool != "add" || string(first.Arguments) != `{"id":"c1"}` ||
		!first.Deadline.Equal(t0.Add(time.Hour)) || !first.CreateTime.Equal(t0) || first.Done || first.Owner != "" || first.Claims != 0 {
		t.Errorf("enqueued %+v", first)
	}
	again := toolCall("c1", "add", t0.Add(time.Minute))
	again.Arguments = []byte(`{"id":"other"}`)
	got, created, err := s.EnqueueToolCall(c, again)
	if err != nil || created || string(got.Arguments) != `{"id":"c1"}` || !got.CreateTime.Equal(t0) {
		t.Fatalf("enqueue of an existing id: %+v created %v err %v", got, created, err)
	}
	// Taken over after a claim: the existing call, claim and all.
	claimed := claimCalls(t, s, "r1", []string{"add"}, t0, time.Minute, 10)
	if len(claimed) != 1 {
		t.Fatalf("claimed %d calls", len(claimed))
	}
	got, created, err = s.EnqueueToolCall(c, toolCall("c1", "add", t0.Add(time.Minute)))
	if err != nil || created || got.Owner != "r1" || got.Claims != 1 {
		t.Errorf("enqueue of a claimed id: %+v created %v err %v", got, created, err)
	}
	if more := claimCalls(t, s, "r2", []string{"add"}, t0, time.Minute, 10); len(more) != 0 {
		t.Errorf("a re-enqueued call was claimed again: %s", callIDs(more))
	}
	read, found, err := s.GetToolCall(c, tenant, "run_1/c1")
	if err != nil || !found || read.Owner != "r1" || read.Token != claimed[0].Token || !read.ClaimExpires.Equal(t0.Add(time.Minute)) {
		t.Errorf("GetToolCall = %+v %v %v", read, found, err)
	}
	if _, found, err := s.GetToolCall(c, tenant, "run_1/nope"); err != nil || found {
		t.Errorf("GetToolCall of a missing call: found %v, %v", found, err)
	}
	// A retry after a timeout pushes the deadline back, never forward, and
	// makes a call past its old deadline claimable again.
	late := toolCall("late", "add", t0)
	late.Deadline = t0.Add(time.Second)
	mustEnqueue(t, s, late)
	if got := claimCalls(t, s, "r2", []string{"add"}, t0.Add(2*time.Second), time.Minute, 10); len(got) != 0 {
		t.Fatalf("claimed a call past its deadline: %s", callIDs(got))
	}
	for _, tc := range []struct {
		name     string
		deadline time.Time
		want     time.Time
	}{
		{"a later deadline", t0.Add(time.Hour), t0.Add(time.Hour)},
		{"an earlier deadline", t0.Add(time.Minute), t0.Add(time.Hour)},
		{"no deadline", time.Time{}, time.Time{}},
		{"a deadline after none", t0.Add(2 * time.Hour), time.Time{}},
	} {
		retry := toolCall("late", "add", t0.Add(2*time.Second))
		retry.Deadline = tc.deadline
		got, created, err := s.EnqueueToolCall(c, retry)
		if err != nil || created || !got.Deadline.Equal(tc.want) {
			t.Errorf("retry with %s: deadline %v created %v err %v; want deadline %v", tc.name, got.Deadline, created, err, tc.want)
		}
	}
	if got := claimCalls(t, s, "r2", []string{"add"}, t0.Add(2*time.Second), time.Minute, 10); callIDs(got) != "[run_1/late]" {
		t.Errorf("after the retry, claimed %s; want the late call", callIDs(got))
	}
	other := toolCall("c1", "add", t0)
	other.Tenant = "acme"
	if _, created, err := s.EnqueueToolCall(c, other); err != nil || !created {
		t.Errorf("another tenant's call of the same id: created %v, %v", created, err)
	}
	if _, found, _ := s.GetToolCall(c, "nobody", "run_1/c1"); found {
		t.Error("another tenant reads the call")
	}
}

func testClaimToolCalls(t *testing.T, s store.Store) {
	for i, tc := range []struct{ id, tool string }{{"a1", "add"}, {"m1", "mul"}, {"a2", "add"}, {"s1", "sub"}, {"a3", "add"}} {
		mustEnqueue(t, s, toolCall(tc.id, tc.tool, t0.Add(time.Duration(i)*time.Second)))
	}
	late := toolCall("late", "add", t0)
	late.Deadline = t0.Add(time.Second)
	mustEnqueue(t, s, late)
	acme := toolCall("x", "add", t0)
	acme.Tenant = "acme"
	if _, _, err := s.EnqueueToolCall(ctx(t), acme); err != nil {
		t.Fatal(err)
	}
	now := t0.Add(2 * time.Second)
	first := claimCalls(t, s, "r1", []string{"add", "mul"}, now, 10*time.Second, 3)
	if got := callIDs(first); got != "[run_1/a1 run_1/m1 run_1/a2]" {
		t.Fatalf("first claim = %s, want the oldest three of add and mul", got)
	}
	for _, c := range first {
		if c.Owner != "r1" || c.Token == 0 || !c.ClaimExpires.Equal(now.Add(10*time.Second)) || c.Claims != 1 || c.Tenant != tenant {
			t.Errorf("claimed %+v", c)
		}
	}
	rest := claimCalls(t, s, "r2", []string{"add", "mul"}, now, 10*time.Second, 10)
	if got := callIDs(rest); got != "[run_1/a3]" {
		t.Errorf("second claim = %s, want a3 only (late is past its deadline, acme's is another tenant's)", got)
	}
	if none := claimCalls(t, s, "r3", nil, now, time.Second, 10); len(none) != 0 {
		t.Errorf("a claim of no tools took %s", callIDs(none))
	}
	if none := claimCalls(t, s, "r3", []string{"sub"}, now, time.Second, 0); len(none) != 0 {
		t.Errorf("a claim of none took %s", callIDs(none))
	}
}

func testToolCallClaimRace(t *testing.T, s store.Store) {
	c := ctx(t)
	const calls, claimers = 30, 6
	for i := 0; i < calls; i++ {
		mustEnqueue(t, s, toolCall(fmt.Sprintf("c%02d", i), "add", t0.Add(time.Duration(i)*time.Millisecond)))
	}
	owners := claimConcurrently(t, claimers, "r", func(owner string) ([]string, error) {
		got, err := s.ClaimToolCalls(c, tenant, owner, []string{"add"}, t0, time.Minute, 3)
		ids := make([]string, len(got))
		for i, tc := range got {
			ids[i] = tc.CallID
		}
		return ids, err
	})
	if len(owners) != calls {
		t.Errorf("%d calls claimed, want %d", len(owners), calls)
	}
	for id, o := range owners {
		if len(o) != 1 {
			t.Errorf("%s claimed by %v", id, o)
		}
	}
}

func testToolCallClaimExpiry(t *testing.T, s store.Store) {
	c := ctx(t)
	mustEnqueue(t, s, toolCall("c1", "add", t0))
	const ttl = 10 * time.Second
	tools := []string{"add"}
	got := claimCalls(t, s, "r1", tools, t0, ttl, 1)
	if len(got) != 1 {
		t.Fatalf("claim: %s", callIDs(got))
	}
	held := got[0]
	if more := claimCalls(t, s, "r2", tools, t0.Add(5*time.Second), ttl, 1); len(more) != 0 {
		t.Fatalf("claimed a held call: %s", callIDs(more))
	}
	if err := s.RenewToolCall(c, &held, t0.Add(5*time.Second), ttl); err != nil || !held.ClaimExpires.Equal(t0.Add(15*time.Second)) {
		t.Fatalf("renew: %v, expires %v", err, held.ClaimExpires)
	}
	if more := claimCalls(t, s, "r2", tools, t0.Add(12*time.Second), ttl, 1); len(more) != 0 {
		t.Fatal("renewal did not extend the claim")
	}
	// r1 dies: its claim expires and r2 takes the call.
	got = claimCalls(t, s, "r2", tools, t0.Add(16*time.Second), ttl, 1)
	if len(got) != 1 || got[0].Owner != "r2" || got[0].Token == held.Token || got[0].Claims != 2 {
		t.Fatalf("takeover: %+v", got)
	}
	taken := got[0]
	var lost *errs.LeaseLost
	if err := s.RenewToolCall(c, &held, t0.Add(17*time.Second), ttl); !errors.As(err, &lost) || lost.RunID != "run_1" || lost.WorkerID != "r1" {
		t.Errorf("renewing a taken claim: %v", err)
	}
	if err := s.CompleteToolCall(c, held, store.ToolCallResult{Output: []byte(`"from r1"`)}, t0.Add(17*time.Second)); !errors.As(err, &lost) {
		t.Errorf("completion by the claim's former holder: %v", err)
	}
	// A stale release changes nothing; the holder's release frees the call
	// at once, and the next claim is a new one even by the same owner.
	if err := s.ReleaseToolCall(c, held); err != nil {
		t.Fatal(err)
	}
	if more := claimCalls(t, s, "r3", tools, t0.Add(17*time.Second), ttl, 1); len(more) != 0 {
		t.Fatal("a stale release freed the claim")
	}
	if err := s.ReleaseToolCall(c, taken); err != nil {
		t.Fatal(err)
	}
	got = claimCalls(t, s, "r2", tools, t0.Add(17*time.Second), ttl, 1)
	if len(got) != 1 || got[0].Token == taken.Token || got[0].Claims != 3 {
		t.Fatalf("claim after release: %+v", got)
	}
	if err := s.CompleteToolCall(c, taken, store.ToolCallResult{Output: []byte(`1`)}, t0.Add(18*time.Second)); !errors.As(err, &lost) {
		t.Errorf("completion under a released claim: %v", err)
	}
	if err := s.CompleteToolCall(c, got[0], store.ToolCallResult{Output: []byte(`"from r2"`)}, t0.Add(18*time.Second)); err != nil {
		t.Fatalf("completion by the holder: %v", err)
	}
	if more := claimCalls(t, s, "r3", tools, t0.Add(time.Hour), ttl, 1); len(more) != 0 {
		t.Errorf("claimed a done call: %s", callIDs(more))
	}
}

func testToolCallResults(t *testing.T, s store.Store) {
	c := ctx(t)
	tests := []struct {
		name   string
		result store.ToolCallResult
	}{
		{"output", store.ToolCallResult{Output: []byte(`{"sum":3}`)}},
		{"failure", store.ToolCallResult{Failure: &store.ToolCallFailure{Message: "disk full"}}},
		{"retryable failure", store.ToolCallResult{Failure: &store.ToolCallFailure{Message: "busy", Retryable: true}}},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			id := fmt.Sprintf("c%d", i)
			mustEnqueue(t, s, toolCall(id, "add", t0))
			got := claimCalls(t, s, "r1", []string{"add"}, t0, time.Minute, 1)
			if len(got) != 1 || got[0].CallID != "run_1/"+id {
				t.Fatalf("claim: %s", callIDs(got))
			}
			done := t0.Add(time.Second)
			if err := s.CompleteToolCall(c, got[0], tc.result, done); err != nil {
				t.Fatal(err)
			}
			read, found, err := s.GetToolCall(c, tenant, "run_1/"+id)
			if err != nil || !found || !read.Done || !read.CompleteTime.Equal(done) {
				t.Fatalf("after completion: %+v %v %v", read, found, err)
			}
			if string(read.Result.Output) != string(tc.result.Output) {
				t.Errorf("output %s, want %s", read.Result.Output, tc.result.Output)
			}
			switch f := read.Result.Failure; {
			case tc.result.Failure == nil && f != nil:
				t.Errorf("failure %+v, want none", f)
			case tc.result.Failure != nil && (f == nil || *f != *tc.result.Failure):
				t.Errorf("failure %+v, want %+v", f, tc.result.Failure)
			}
			// Recorded once: the holder cannot complete it again.
			var lost *errs.LeaseLost
			if err := s.CompleteToolCall(c, got[0], store.ToolCallResult{Output: []byte(`"again"`)}, done); !errors.As(err, &lost) {
				t.Errorf("second completion: %v", err)
			}
			if read, _, _ := s.GetToolCall(c, tenant, "run_1/"+id); string(read.Result.Output) != string(tc.result.Output) {
				t.Errorf("a second completion changed the output to %s", read.Result.Output)
			}
		})
	}
}

func testAbandonPrune(t *testing.T, s store.Store) {
	c := ctx(t)
	for _, id := range []string{"pending", "claimed", "expired", "done"} {
		mustEnqueue(t, s, toolCall(id, id, t0))
	}
	claimCalls(t, s, "r1", []string{"claimed"}, t0, time.Minute, 1)
	claimCalls(t, s, "r1", []string{"expired"}, t0, time.Second, 1)
	done := claimCalls(t, s, "r1", []string{"done"}, t0, time.Minute, 1)
	if err := s.CompleteToolCall(c, done[0], store.ToolCallResult{Output: []byte(`1`)}, t0); err != nil {
		t.Fatal(err)
	}
	abandon := []struct {
		id   string
		want bool
	}{
		{"pending", true}, {"claimed", false}, {"expired", true}, {"done", false}, {"missing", false},
	}
	for _, tc := range abandon {
		t.Run("abandon "+tc.id, func(t *testing.T) {
			got, err := s.AbandonToolCall(ctx(t), tenant, "run_1/"+tc.id, t0.Add(2*time.Second))
			if err != nil || got != tc.want {
				t.Errorf("AbandonToolCall = %v, %v; want %v", got, err, tc.want)
			}
			_, found, _ := s.GetToolCall(ctx(t), tenant, "run_1/"+tc.id)
			if found == tc.want && tc.id != "missing" {
				t.Errorf("after abandoning: found %v", found)
			}
		})
	}
	// Pruning keeps what someone may still read, and drops the rest.
	fresh := toolCall("fresh", "add", t0.Add(time.Hour))
	fresh.Deadline = t0.Add(2 * time.Hour)
	mustEnqueue(t, s, fresh)
	noDeadline := toolCall("undated", "add", t0)
	noDeadline.Deadline = time.Time{}
	mustEnqueue(t, s, noDeadline)
	const keep = 10 * time.Minute
	n, err := s.PruneToolCalls(c, t0.Add(time.Hour+keep+time.Second), keep)
	if err != nil {
		t.Fatal(err)
	}
	// claimed's deadline is t0+1h, done completed at t0, undated was
	// created at t0: all more than keep ago. fresh stays.
	if n != 3 {
		t.Errorf("pruned %d calls, want 3", n)
	}
	for id, want := range map[string]bool{"claimed": false, "done": false, "undated": false, "fresh": true} {
		if _, found, _ := s.GetToolCall(c, tenant, "run_1/"+id); found != want {
			t.Errorf("after pruning, %s found = %v, want %v", id, found, want)
		}
	}
}

func testToolCallNotify(t *testing.T, s store.Store) {
	c := ctx(t)
	queue := s.Notifier().Subscribe(store.ToolCallsTopic(tenant, "add"))
	defer queue.Close()
	result := s.Notifier().Subscribe(store.ToolResultTopic(tenant, "run_1/c1"))
	defer result.Close()
	mustEnqueue(t, s, toolCall("c1", "add", t0))
	waitSignal(t, "enqueue", queue)
	got := claimCalls(t, s, "r1", []string{"add"}, t0, time.Minute, 1)
	if err := s.ReleaseToolCall(c, got[0]); err != nil {
		t.Fatal(err)
	}
	waitSignal(t, "release", queue)
	got = claimCalls(t, s, "r2", []string{"add"}, t0, time.Minute, 1)
	if err := s.CompleteToolCall(c, got[0], store.ToolCallResult{Output: []byte(`1`)}, t0); err != nil {
		t.Fatal(err)
	}
	waitSignal(t, "result", result)
}
