package schedule_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/schedule"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/webhook"
)

// TestSkippedTicksRaiseWebhookEvents: every tick recorded as skipped (here
// by the catch-up rules after an outage) writes one schedule.tick_skipped
// outbox row per matching subscription with its record, and started ticks
// write none.
func TestSkippedTicksRaiseWebhookEvents(t *testing.T) {
	r := newRig(t, day)
	wh := r.db.(store.Webhooks)
	ctx := context.Background()
	sub := store.WebhookSubscription{Tenant: store.DefaultTenant, ID: "wh_ticks", URL: "https://example.com/hook",
		EventTypes: []string{webhook.ScheduleTickSkipped}, Enabled: true, Secrets: []byte(`{}`), CreateTime: day, UpdateTime: day}
	if err := wh.PutSubscription(ctx, sub); err != nil {
		t.Fatal(err)
	}
	subs := webhook.NewSubscriptions(wh)
	if err := subs.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	r.sched = schedule.New(schedule.Deps{Store: r.db, Runs: r.runs, Clock: r.clk, Owner: "a", TickEvents: webhook.NewEvents(subs, nil).ForSkippedTick})
	r.runs.settle = true
	r.create(t, schedule.Definition{ID: "outage", Cron: "*/5 * * * *", Overlap: schedule.OverlapAllow, CatchupWindow: time.Hour})
	r.run(t, 5*time.Minute, day.Add(30*time.Minute))
	r.clk.Advance(3 * time.Hour)
	r.fire(t)

	got, err := wh.ListDeliveries(ctx, store.DefaultTenant, "wh_ticks", store.DeliveryQuery{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 23 {
		t.Fatalf("%d schedule.tick_skipped deliveries, want the 23 ticks skipped by catch-up", len(got))
	}
	seen := map[time.Time]bool{}
	for _, d := range got {
		var p struct {
			Type string           `json:"type"`
			Data webhook.TickData `json:"data"`
		}
		if err := json.Unmarshal(d.Body, &p); err != nil {
			t.Fatal(err)
		}
		if d.Type != webhook.ScheduleTickSkipped || p.Type != d.Type || p.Data.ScheduleID != "outage" || p.Data.Spec != "nightly" || p.Data.Outcome != schedule.OutcomeSkippedCatchup {
			t.Fatalf("delivery %s: type %q, body %s", d.ID, d.Type, d.Body)
		}
		if p.Data.Tick.Before(day.Add(35*time.Minute)) || p.Data.Tick.After(day.Add(145*time.Minute)) || seen[p.Data.Tick] {
			t.Fatalf("tick %v outside the skipped range or twice", p.Data.Tick)
		}
		seen[p.Data.Tick] = true
	}
}
