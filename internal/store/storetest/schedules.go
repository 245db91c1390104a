package storetest

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
)

// runSchedules checks the Schedules port, for a store that implements it,
// and that a Run's row keeps its schedule and tick.
func runSchedules(t *testing.T, open Opener) {
	schedules := func(t *testing.T) (store.Store, store.Schedules) {
		s := open(t)
		sc, ok := s.(store.Schedules)
		if !ok {
			t.Skip("the store keeps no schedules")
		}
		return s, sc
	}
	t.Run("SchedulesCreateGetListDelete", func(t *testing.T) { _, sc := schedules(t); testScheduleCRUD(t, sc) })
	t.Run("ScheduleClaimNeverDoubleLeases", func(t *testing.T) { _, sc := schedules(t); testScheduleClaimRace(t, sc) })
	t.Run("ScheduleTickRecordedOnce", func(t *testing.T) { _, sc := schedules(t); testScheduleTicks(t, sc) })
	t.Run("RunsOfASchedule", func(t *testing.T) { s, _ := schedules(t); testRunsOfSchedule(t, s) })
	t.Run("SkippedTickEventWithItsRecord", func(t *testing.T) {
		s, sc := schedules(t)
		wh, ok := s.(store.Webhooks)
		if !ok {
			t.Skip("the store keeps no webhooks")
		}
		testSkippedTickEvents(t, sc, wh)
	})
}

// testSkippedTickEvents checks that a tick's webhook events are written
// with the tick's row, and only by the call that records it.
func testSkippedTickEvents(t *testing.T, sc store.Schedules, wh store.Webhooks) {
	if err := wh.PutSubscription(ctx(t), subscription("wh_ticks")); err != nil {
		t.Fatal(err)
	}
	event := func(id string) store.WebhookEvent {
		return store.WebhookEvent{Tenant: tenant, ID: id, SubscriptionID: "wh_ticks", Type: "schedule.tick_skipped", Body: []byte(`{}`), CreateTime: t0}
	}
	tick := store.ScheduleTick{Tenant: tenant, ScheduleID: "s", Tick: t0, Outcome: "SKIPPED_OVERLAP", Time: t0, Events: []store.WebhookEvent{event("msg_first")}}
	if _, created, err := sc.PutScheduleTick(ctx(t), tick); err != nil || !created {
		t.Fatalf("PutScheduleTick = %v, %v", created, err)
	}
	again := tick
	again.Events = []store.WebhookEvent{event("msg_second")}
	if _, created, err := sc.PutScheduleTick(ctx(t), again); err != nil || created {
		t.Fatalf("PutScheduleTick again = %v, %v", created, err)
	}
	got, err := wh.ListDeliveries(ctx(t), tenant, "wh_ticks", store.DeliveryQuery{Limit: 10})
	if err != nil || len(got) != 1 || got[0].ID != "msg_first" || got[0].Type != "schedule.tick_skipped" {
		t.Fatalf("deliveries = %+v, %v; want msg_first alone", got, err)
	}
}

func newSchedule(id string) store.Schedule {
	return store.Schedule{Tenant: tenant, ScheduleID: id, Body: []byte(`{"spec":"s"}`), CreateTime: t0,
		Progress: store.ScheduleProgress{NextTick: t0.Add(time.Minute), DueAt: t0.Add(time.Minute)}}
}

func testScheduleCRUD(t *testing.T, sc store.Schedules) {
	for _, id := range []string{"b", "a", "c"} {
		if _, created, err := sc.CreateSchedule(ctx(t), newSchedule(id)); err != nil || !created {
			t.Fatalf("CreateSchedule(%s) = %v, %v", id, created, err)
		}
	}
	again := newSchedule("a")
	again.Body = []byte(`{"spec":"other"}`)
	if got, created, err := sc.CreateSchedule(ctx(t), again); err != nil || created || string(got.Body) != `{"spec":"s"}` {
		t.Fatalf("CreateSchedule again = %s, %v, %v", got.Body, created, err)
	}
	page, next, err := sc.ListSchedules(ctx(t), tenant, store.ScheduleQuery{PageSize: 2})
	if err != nil || len(page) != 2 || page[0].ScheduleID != "a" || page[1].ScheduleID != "b" || next == "" {
		t.Fatalf("ListSchedules = %v, %q, %v", page, next, err)
	}
	if page, _, err = sc.ListSchedules(ctx(t), tenant, store.ScheduleQuery{PageSize: 2, PageToken: next}); err != nil || len(page) != 1 || page[0].ScheduleID != "c" {
		t.Fatalf("ListSchedules page 2 = %v, %v", page, err)
	}
	paused, err := sc.SetSchedulePaused(ctx(t), tenant, "a", true, nil, t0.Add(time.Second))
	if err != nil || !paused.Paused || !paused.Progress.NextTick.Equal(t0.Add(time.Minute)) {
		t.Fatalf("SetSchedulePaused = %+v, %v", paused, err)
	}
	if due, err := sc.DueSchedules(ctx(t), t0.Add(time.Hour), 10); err != nil || len(due) != 2 {
		t.Fatalf("DueSchedules = %d schedules (a paused), %v", len(due), err)
	}
	if next, ok, err := sc.NextScheduleDue(ctx(t)); err != nil || !ok || !next.Equal(t0.Add(time.Minute)) {
		t.Fatalf("NextScheduleDue = %v, %v, %v", next, ok, err)
	}
	var missing *errs.ScheduleNotFound
	if err := sc.DeleteSchedule(ctx(t), tenant, "a"); err != nil {
		t.Fatal(err)
	}
	if _, err := sc.GetSchedule(ctx(t), tenant, "a"); !errors.As(err, &missing) {
		t.Fatalf("GetSchedule of a deleted schedule = %v", err)
	}
	if err := sc.DeleteSchedule(ctx(t), tenant, "a"); !errors.As(err, &missing) {
		t.Fatalf("DeleteSchedule twice = %v", err)
	}
	if _, err := sc.SetSchedulePaused(ctx(t), tenant, "a", true, nil, t0); !errors.As(err, &missing) {
		t.Fatalf("SetSchedulePaused of a deleted schedule = %v", err)
	}
}

// testScheduleClaimRace: of eight owners claiming one due schedule at
// once, one gets it; its save releases it; an expired lease is claimable.
func testScheduleClaimRace(t *testing.T, sc store.Schedules) {
	if _, _, err := sc.CreateSchedule(ctx(t), newSchedule("race")); err != nil {
		t.Fatal(err)
	}
	now := t0.Add(time.Minute)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var winners []string
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(owner string) {
			defer wg.Done()
			if _, ok, err := sc.ClaimSchedule(ctx(t), tenant, "race", owner, now, now.Add(5*time.Second)); err != nil {
				t.Error(err)
			} else if ok {
				mu.Lock()
				winners = append(winners, owner)
				mu.Unlock()
			}
		}(string(rune('a' + i)))
	}
	wg.Wait()
	if len(winners) != 1 {
		t.Fatalf("winners %v", winners)
	}
	if saved, err := sc.SaveScheduleProgress(ctx(t), tenant, "race", "nobody", store.ScheduleProgress{Count: 9}, now); err != nil || saved {
		t.Fatalf("a save by a non-owner = %v, %v", saved, err)
	}
	p := store.ScheduleProgress{NextTick: now.Add(time.Minute), DueAt: now.Add(time.Minute), Count: 1, LastRunID: "run_1"}
	if saved, err := sc.SaveScheduleProgress(ctx(t), tenant, "race", winners[0], p, now); err != nil || !saved {
		t.Fatalf("the owner's save = %v, %v", saved, err)
	}
	got, ok, err := sc.ClaimSchedule(ctx(t), tenant, "race", "late", now, now.Add(5*time.Second))
	if err != nil || !ok || got.Progress.Count != 1 || got.Progress.LastRunID != "run_1" || got.LeaseOwner != "late" {
		t.Fatalf("claim after the save = %+v, %v, %v", got, ok, err)
	}
	if _, ok, _ := sc.ClaimSchedule(ctx(t), tenant, "race", "other", now.Add(time.Second), now.Add(time.Minute)); ok {
		t.Fatal("claimed a schedule under a live lease")
	}
	if _, ok, _ := sc.ClaimSchedule(ctx(t), tenant, "race", "other", now.Add(5*time.Second), now.Add(time.Minute)); !ok {
		t.Fatal("an expired lease is not claimable")
	}
}

func testScheduleTicks(t *testing.T, sc store.Schedules) {
	tick := store.ScheduleTick{Tenant: tenant, ScheduleID: "s", Tick: t0, Outcome: "STARTING", Time: t0}
	if _, created, err := sc.PutScheduleTick(ctx(t), tick); err != nil || !created {
		t.Fatalf("PutScheduleTick = %v, %v", created, err)
	}
	other := tick
	other.Outcome = "SKIPPED_OVERLAP"
	got, created, err := sc.PutScheduleTick(ctx(t), other)
	if err != nil || created || got.Outcome != "STARTING" {
		t.Fatalf("PutScheduleTick again = %+v, %v, %v", got, created, err)
	}
	tick.Outcome, tick.RunID = "STARTED", "run_1"
	if err := sc.SetScheduleTickOutcome(ctx(t), tick); err != nil {
		t.Fatal(err)
	}
	later := store.ScheduleTick{Tenant: tenant, ScheduleID: "s", Tick: t0.Add(time.Minute), Outcome: "SKIPPED_CATCHUP", Time: t0}
	if _, _, err := sc.PutScheduleTick(ctx(t), later); err != nil {
		t.Fatal(err)
	}
	ticks, err := sc.ScheduleTicks(ctx(t), tenant, "s", 10)
	if err != nil || len(ticks) != 2 || ticks[0].Outcome != "SKIPPED_CATCHUP" || ticks[1].RunID != "run_1" || !ticks[1].Tick.Equal(t0) {
		t.Fatalf("ScheduleTicks = %+v, %v", ticks, err)
	}
}

func testRunsOfSchedule(t *testing.T, s store.Store) {
	for i, id := range []string{"r1", "r2", "r3"} {
		nr := newRun(id, false)
		nr.CreateTime = t0.Add(time.Duration(i) * time.Second)
		if id != "r2" {
			nr.ScheduleID, nr.ScheduleTick = "nightly", t0.Add(time.Duration(i)*time.Hour)
		}
		mustCreate(t, s, nr)
	}
	got, _, err := s.ListRuns(ctx(t), tenant, store.RunQuery{ScheduleID: "nightly"})
	if err != nil || len(got) != 2 || got[0].RunID != "r3" || got[1].RunID != "r1" {
		t.Fatalf("ListRuns by schedule = %v, %v", got, err)
	}
	if !got[0].ScheduleTick.Equal(t0.Add(2*time.Hour)) || got[0].ScheduleID != "nightly" {
		t.Fatalf("run row %+v", got[0])
	}
	one, err := s.GetRun(ctx(t), tenant, "r1")
	if err != nil || one.ScheduleID != "nightly" || !one.ScheduleTick.Equal(t0) {
		t.Fatalf("GetRun = %+v, %v", one, err)
	}
}
