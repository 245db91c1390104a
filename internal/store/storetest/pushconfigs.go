package storetest

import (
	"slices"
	"testing"

	"github.com/runsvc/runsvc/internal/store"
)

// liveStates are the states ListLiveSubscriptions is asked for: those of
// a Run not settled.
var liveStates = []string{"QUEUED", "RUNNING", "SUSPENDED"}

// runPushConfigs checks the subscriptions that follow a Run (A2A push
// configs): they go with their Run, and the live list leaves out those of
// settled Runs.
func runPushConfigs(t *testing.T, open Opener) {
	t.Run("RunSubscriptionsGoWithTheRun", func(t *testing.T) { testRunSubscriptionsDeleted(t, open(t)) })
	t.Run("LiveSubscriptionsSkipSettledRuns", func(t *testing.T) { testLiveSubscriptions(t, open(t)) })
}

// runSubscription is an A2A push config of run, with the webhook
// package's id ("a2a-<run>-<config>").
func runSubscription(run, config string) store.WebhookSubscription {
	s := subscription("a2a-" + run + "-" + config)
	s.RunID, s.EventTypes = run, []string{"a2a.task"}
	return s
}

// subscriptionIDs are the ids of subs.
func subscriptionIDs(subs []store.WebhookSubscription) []string {
	var out []string
	for _, s := range subs {
		out = append(out, s.ID)
	}
	slices.Sort(out)
	return out
}

// putSubscriptions stores subs, each with a pending delivery.
func putSubscriptions(t *testing.T, w store.Webhooks, subs ...store.WebhookSubscription) {
	t.Helper()
	for _, s := range subs {
		if err := w.PutSubscription(ctx(t), s); err != nil {
			t.Fatal(err)
		}
		e := event("msg-" + s.ID)
		e.SubscriptionID, e.RunID = s.ID, s.RunID
		if err := w.EnqueueWebhooks(ctx(t), []store.WebhookEvent{e}); err != nil {
			t.Fatal(err)
		}
	}
}

// testRunSubscriptionsDeleted: deleting a Run deletes, in its
// transaction, the subscriptions that follow it and their deliveries, and
// signals WebhooksTopic; another Run's (one whose id the first's is a
// prefix of, too) and the tenant's own stay. A thread's deletion takes its
// Runs' configs the same way.
func testRunSubscriptionsDeleted(t *testing.T, s store.Store) {
	c, w := ctx(t), webhooksOf(t, s)
	for _, id := range []string{"run_a", "run_ab"} {
		mustCreate(t, s, settledRun(id, "", "COMPLETED", 0))
	}
	putSubscriptions(t, w, subscription("wh_own"), runSubscription("run_a", "c1"), runSubscription("run_a", "x-y"),
		runSubscription("run_ab", "c1"), runSubscription("run_ab", "x"))
	changed := s.Notifier().Subscribe(store.WebhooksTopic)
	defer changed.Close()
	deleted, err := s.DeleteRuns(c, []store.RunDeletion{{Tenant: tenant, RunID: "run_a", LastSeq: 2}})
	if err != nil || !slices.Equal(deleted, []string{"run_a"}) {
		t.Fatalf("DeleteRuns = %v, %v", deleted, err)
	}
	waitSignal(t, "webhooks (a Run's configs deleted)", changed)
	all, err := w.ListSubscriptions(c, tenant)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a2a-run_ab-c1", "a2a-run_ab-x", "wh_own"}
	if got := subscriptionIDs(all); !slices.Equal(got, want) {
		t.Errorf("subscriptions left = %v, want %v", got, want)
	}
	for id, n := range map[string]int{"a2a-run_a-c1": 0, "a2a-run_a-x-y": 0, "a2a-run_ab-c1": 1, "wh_own": 1} {
		ds, err := w.ListDeliveries(c, tenant, id, store.DeliveryQuery{Limit: 10})
		if err != nil || len(ds) != n {
			t.Errorf("deliveries of %s = %d (%v), want %d", id, len(ds), err, n)
		}
	}
	if got, ok, err := w.GetSubscription(c, tenant, "a2a-run_ab-c1"); err != nil || !ok || got.RunID != "run_ab" {
		t.Errorf("GetSubscription(run_ab's) = %+v, %v, %v", got, ok, err)
	}
	mustCreate(t, s, threadRun("run_t", "th_p", false))
	settle(t, s, "run_t")
	putSubscriptions(t, w, runSubscription("run_t", "c"))
	if deleted, _, err := s.DeleteThread(c, tenant, "th_p", []store.RunDeletion{{Tenant: tenant, RunID: "run_t", LastSeq: 2}}); err != nil || len(deleted) != 1 {
		t.Fatalf("DeleteThread = %v, %v", deleted, err)
	}
	if _, ok, err := w.GetSubscription(c, tenant, "a2a-run_t-c"); ok || err != nil {
		t.Errorf("a thread's deleted Run keeps its config (%v, %v)", ok, err)
	}
}

// testLiveSubscriptions: the live list holds the tenant's own
// subscriptions and the configs of Runs not settled; a config of a Run
// that settles leaves it, before RetireSubscriptions marks it and after,
// one of a Run still running stays, and one of a Run that does not exist
// is never in it. ListSubscriptions still lists
// them all, and the list says a config is stored (of a settled Run too)
// until none is.
func testLiveSubscriptions(t *testing.T, s store.Store) {
	c, w := ctx(t), webhooksOf(t, s)
	mustCreate(t, s, newRun("run_live", true))
	mustCreate(t, s, newRun("run_ends", true))
	mustCreate(t, s, settledRun("run_done", "", "FAILED", 0))
	putSubscriptions(t, w, subscription("wh_own"), runSubscription("run_live", "c"), runSubscription("run_ends", "c"),
		runSubscription("run_done", "c"), runSubscription("run_gone", "c"))
	live := func(want ...string) {
		t.Helper()
		got, followed, err := w.ListLiveSubscriptions(c, liveStates)
		if err != nil || !followed {
			t.Fatalf("ListLiveSubscriptions = followed %v, %v", followed, err)
		}
		if ids := subscriptionIDs(got); !slices.Equal(ids, want) {
			t.Errorf("ListLiveSubscriptions = %v, want %v", ids, want)
		}
		for _, sub := range got {
			if sub.ID == "a2a-run_live-c" && (sub.RunID != "run_live" || !sub.Enabled || string(sub.Secrets) != `{}`) {
				t.Errorf("live config read back as %+v", sub)
			}
		}
	}
	live("a2a-run_ends-c", "a2a-run_live-c", "wh_own")
	// One Run's configs, and the tenant's own, are read alone.
	for run, want := range map[string][]string{"": {"wh_own"}, "run_live": {"a2a-run_live-c"}, "run_done": {"a2a-run_done-c"}, "run_none": nil} {
		got, err := w.ListRunSubscriptions(c, tenant, run)
		if ids := subscriptionIDs(got); err != nil || !slices.Equal(ids, want) {
			t.Errorf("ListRunSubscriptions(%q) = %v, %v; want %v", run, ids, err, want)
		}
	}
	settle(t, s, "run_ends")
	live("a2a-run_live-c", "wh_own")
	// Retiring marks the settled Runs' configs and the gone Run's, once;
	// the live list is the same after.
	retire(t, w, 3)
	retire(t, w, 0)
	live("a2a-run_live-c", "wh_own")
	if all, err := w.ListSubscriptions(c, ""); err != nil || len(all) != 5 {
		t.Errorf("ListSubscriptions = %d subscriptions, %v; want all 5", len(all), err)
	}
	settle(t, s, "run_live")
	live("wh_own")
	retire(t, w, 1)
	live("wh_own")
	for _, id := range []string{"a2a-run_live-c", "a2a-run_ends-c", "a2a-run_done-c", "a2a-run_gone-c"} {
		if _, err := w.DeleteSubscription(c, tenant, id); err != nil {
			t.Fatal(err)
		}
	}
	if got, followed, err := w.ListLiveSubscriptions(c, liveStates); err != nil || followed || len(got) != 1 {
		t.Errorf("with no config left, ListLiveSubscriptions = %d, followed %v, %v; want wh_own, not followed", len(got), followed, err)
	}
}

// retire retires the configs of Runs not live and checks it marked want.
func retire(t *testing.T, w store.Webhooks, want int) {
	t.Helper()
	if n, err := w.RetireSubscriptions(ctx(t), liveStates); err != nil || n != want {
		t.Errorf("RetireSubscriptions = %d, %v; want %d", n, err, want)
	}
}
