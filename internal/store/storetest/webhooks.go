package storetest

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
)

// runWebhooks checks the webhook outbox: events are stored with the
// Records of the append that carries them and never without them, and
// deliveries are leased, finished, listed and redelivered.
func runWebhooks(t *testing.T, open Opener) {
	t.Run("WebhookSubscriptions", func(t *testing.T) { testSubscriptions(t, open(t)) })
	t.Run("WebhookOutboxWithTheRecord", func(t *testing.T) { testOutboxAppend(t, open(t)) })
	t.Run("WebhookDeliveries", func(t *testing.T) { testDeliveries(t, open(t)) })
	t.Run("WebhookPrune", func(t *testing.T) { testPrune(t, webhooksOf(t, open(t))) })
}

func webhooksOf(t *testing.T, s store.Store) store.Webhooks {
	t.Helper()
	w, ok := s.(store.Webhooks)
	if !ok {
		t.Fatalf("%T does not implement store.Webhooks", s)
	}
	return w
}

func subscription(id string) store.WebhookSubscription {
	return store.WebhookSubscription{Tenant: tenant, ID: id, URL: "https://example.com/hook", EventTypes: []string{"run.settled"},
		Enabled: true, Secrets: []byte(`{}`), CreateTime: t0, UpdateTime: t0}
}

// testSubscriptions: subscriptions are kept per tenant, and each change
// signals WebhooksTopic, which every replica's copy follows.
func testSubscriptions(t *testing.T, st store.Store) {
	c, w := ctx(t), webhooksOf(t, st)
	changed := st.Notifier().Subscribe(store.WebhooksTopic)
	defer changed.Close()
	if err := w.PutSubscription(c, subscription("wh_a")); err != nil {
		t.Fatal(err)
	}
	waitSignal(t, "webhooks (put)", changed)
	s := subscription("wh_a")
	s.Enabled, s.DisabledReason, s.SpecFilter, s.UpdateTime = false, "410 Gone", "triage", t0.Add(time.Second)
	if err := w.PutSubscription(c, s); err != nil {
		t.Fatal(err)
	}
	waitSignal(t, "webhooks (update)", changed)
	got, ok, err := w.GetSubscription(c, tenant, "wh_a")
	if err != nil || !ok || got.Enabled || got.DisabledReason != "410 Gone" || got.SpecFilter != "triage" || !got.CreateTime.Equal(t0) || len(got.EventTypes) != 1 {
		t.Fatalf("GetSubscription = %+v, %v, %v", got, ok, err)
	}
	if _, ok, err := w.GetSubscription(c, "other", "wh_a"); ok || err != nil {
		t.Fatalf("another tenant's GetSubscription = %v, %v", ok, err)
	}
	if all, err := w.ListSubscriptions(c, ""); err != nil || len(all) != 1 {
		t.Fatalf("ListSubscriptions = %v, %v", all, err)
	}
	if found, err := w.DeleteSubscription(c, tenant, "wh_a"); !found || err != nil {
		t.Fatalf("DeleteSubscription = %v, %v", found, err)
	}
	waitSignal(t, "webhooks (delete)", changed)
	if found, err := w.DeleteSubscription(c, tenant, "wh_a"); found || err != nil {
		t.Fatalf("DeleteSubscription again = %v, %v", found, err)
	}
}

func event(id string) store.WebhookEvent {
	return store.WebhookEvent{Tenant: tenant, ID: id, SubscriptionID: "wh_a", Type: "run.settled", RunID: "r1", Body: []byte(`{}`), CreateTime: t0}
}

func testOutboxAppend(t *testing.T, s store.Store) {
	c, w := ctx(t), webhooksOf(t, s)
	mustCreate(t, s, newRun("r1", false))
	// A conflicting append stores neither its Records nor its events.
	bad := store.Append{Tenant: tenant, RunID: "r1", Records: []store.Record{rec(5, "x")}, Index: store.Index{State: "FAILED", Settled: true}, Ends: true,
		Events: []store.WebhookEvent{event("msg_lost")}}
	if err := s.Append(c, bad); !errors.As(err, new(*errs.SeqConflict)) {
		t.Fatalf("conflicting Append = %v", err)
	}
	suspend := store.Append{Tenant: tenant, RunID: "r1", Records: []store.Record{rec(2, "suspended")}, Index: store.Index{State: "SUSPENDED", Suspension: "APPROVAL"}, Ends: true,
		Events: []store.WebhookEvent{event("msg_suspended")}}
	settle := store.Append{Tenant: tenant, RunID: "r1", Records: []store.Record{rec(3, "settled")}, Index: store.Index{State: "FAILED", Settled: true}, Ends: true,
		Events: []store.WebhookEvent{event("msg_settled"), event("msg_failed")}}
	for _, a := range []store.Append{suspend, settle} {
		if err := s.Append(c, a); err != nil {
			t.Fatal(err)
		}
	}
	ds, err := w.ListDeliveries(c, tenant, "wh_a", store.DeliveryQuery{})
	if err != nil || len(ds) != 3 {
		t.Fatalf("ListDeliveries = %d, %v; want the 3 events of the stored appends", len(ds), err)
	}
	for _, d := range ds {
		if d.ID == "msg_lost" || d.State != store.DeliveryPending || !d.NextTime.Equal(t0) {
			t.Errorf("delivery %+v", d)
		}
	}
	if r, err := s.GetRun(c, tenant, "r1"); err != nil || r.LastSeq != 3 {
		t.Fatalf("GetRun = %+v, %v", r, err)
	}
}

func testDeliveries(t *testing.T, s store.Store) {
	c, w := ctx(t), webhooksOf(t, s)
	if err := w.EnqueueWebhooks(c, []store.WebhookEvent{event("msg_1"), event("msg_2")}); err != nil {
		t.Fatal(err)
	}
	got, err := w.ClaimDeliveries(c, "a", t0, time.Minute, 10, nil)
	if err != nil || len(got) != 2 {
		t.Fatalf("ClaimDeliveries = %d, %v", len(got), err)
	}
	busy := store.WebhookEvent{Tenant: tenant, ID: "msg_busy", SubscriptionID: "wh_busy", Type: "run.settled", Body: []byte(`{}`), CreateTime: t0}
	if err := w.EnqueueWebhooks(c, []store.WebhookEvent{busy}); err != nil {
		t.Fatal(err)
	}
	if again, err := w.ClaimDeliveries(c, "b", t0.Add(time.Second), time.Minute, 10, []string{"wh_busy"}); err != nil || len(again) != 0 {
		t.Fatalf("a second ClaimDeliveries = %d, %v; want none while leased", len(again), err)
	}
	d := got[0]
	d.State, d.Attempts, d.LastStatus, d.LastError = store.DeliveryDead, 1, 503, "503 Service Unavailable"
	a := store.WebhookAttempt{Tenant: tenant, SubscriptionID: "wh_a", DeliveryID: d.ID, Type: d.Type, Attempt: 1, Status: 503, Latency: time.Millisecond, Error: d.LastError, Time: t0}
	if ok, err := w.FinishAttempt(c, d, a); !ok || err != nil {
		t.Fatalf("FinishAttempt = %v, %v", ok, err)
	}
	if ok, err := w.FinishAttempt(c, d, a); ok || err != nil {
		t.Fatalf("FinishAttempt without the lease = %v, %v", ok, err)
	}
	dead, err := w.ListDeliveries(c, tenant, "wh_a", store.DeliveryQuery{State: store.DeliveryDead})
	if err != nil || len(dead) != 1 || dead[0].ID != d.ID || dead[0].LastStatus != 503 || dead[0].Attempts != 1 {
		t.Fatalf("dead deliveries = %+v, %v", dead, err)
	}
	log, err := w.ListAttempts(c, tenant, "wh_a", 0)
	if err != nil || len(log) != 1 || log[0].Status != 503 || log[0].Latency != time.Millisecond {
		t.Fatalf("ListAttempts = %+v, %v", log, err)
	}
	if n, err := w.Redeliver(c, tenant, "wh_a", "", t0.Add(time.Hour)); n != 1 || err != nil {
		t.Fatalf("Redeliver = %d, %v", n, err)
	}
	// The redelivered one, the other whose lease expired, and the busy
	// subscription's, no longer busy.
	back, err := w.ClaimDeliveries(c, "b", t0.Add(time.Hour), time.Minute, 10, nil)
	if err != nil || len(back) != 3 {
		t.Fatalf("claim after Redeliver = %+v, %v", back, err)
	}
	for _, b := range back {
		if b.ID == d.ID && !b.PeriodStart.Equal(t0.Add(time.Hour)) {
			t.Errorf("redelivered %+v: its retry period starts anew", b)
		}
	}
}

// testPrune: pruning deletes delivered deliveries and log lines older than
// its bound, a batch at a time, and keeps pending and dead ones.
func testPrune(t *testing.T, w store.Webhooks) {
	c := ctx(t)
	ids := []string{"msg_ok_1", "msg_ok_2", "msg_dead", "msg_pending", "msg_ok_late"}
	var events []store.WebhookEvent
	for _, id := range ids {
		e := event(id)
		if id == "msg_ok_late" {
			e.CreateTime = t0.Add(2 * time.Hour)
		}
		events = append(events, e)
	}
	if err := w.EnqueueWebhooks(c, events); err != nil {
		t.Fatal(err)
	}
	claimed, err := w.ClaimDeliveries(c, "a", t0.Add(2*time.Hour), time.Minute, 10, nil)
	if err != nil || len(claimed) != len(ids) {
		t.Fatalf("ClaimDeliveries = %d, %v", len(claimed), err)
	}
	for _, d := range claimed {
		state := map[string]string{"msg_dead": store.DeliveryDead, "msg_pending": store.DeliveryPending}[d.ID]
		if state == "" {
			state = store.DeliveryDelivered
		}
		d.State, d.Attempts = state, 1
		a := store.WebhookAttempt{Tenant: tenant, SubscriptionID: "wh_a", DeliveryID: d.ID, Type: d.Type, Attempt: 1, Status: 200, Time: d.CreateTime}
		if ok, err := w.FinishAttempt(c, d, a); !ok || err != nil {
			t.Fatalf("FinishAttempt %s = %v, %v", d.ID, ok, err)
		}
	}
	before := t0.Add(time.Hour)
	for _, want := range []int{1, 1, 0} {
		if n, err := w.PruneDeliveries(c, before, 1); n != want || err != nil {
			t.Fatalf("PruneDeliveries(limit 1) = %d, %v; want %d", n, err, want)
		}
	}
	left, err := w.ListDeliveries(c, tenant, "wh_a", store.DeliveryQuery{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range left {
		got = append(got, d.ID)
	}
	slices.Sort(got)
	if want := []string{"msg_dead", "msg_ok_late", "msg_pending"}; !slices.Equal(got, want) {
		t.Fatalf("after pruning: %v, want %v", got, want)
	}
	// Log lines older than the bound went, one batch per call.
	for range 4 {
		if _, err := w.PruneDeliveries(c, before, 1); err != nil {
			t.Fatal(err)
		}
	}
	if log, err := w.ListAttempts(c, tenant, "wh_a", 0); err != nil || len(log) != 1 || log[0].DeliveryID != "msg_ok_late" {
		t.Fatalf("ListAttempts after pruning = %+v, %v", log, err)
	}
}
