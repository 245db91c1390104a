package schedule_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/schedule"
	"github.com/runsvc/runsvc/internal/store"
)

var day = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// TestCronInBerlinAcrossDST fires "*/5 * * * *" in Europe/Berlin through
// both changes of 2026 on a fake clock. Spring-forward (01:00 UTC on
// 03-29): 01:55 CET is 00:55 UTC, and the gap's local times 02:00-02:55
// fire once, at 03:00 CEST (01:00 UTC). Fall-back (01:00 UTC on 10-25):
// 02:55 CEST is 00:55 UTC, the repeated 02:00-02:55 CET do not fire
// again, 03:00 CET is 02:00 UTC.
func TestCronInBerlinAcrossDST(t *testing.T) {
	cases := []struct {
		name       string
		start, end time.Time
		want       []string
	}{
		{"spring-forward", time.Date(2026, 3, 29, 0, 32, 0, 0, time.UTC), time.Date(2026, 3, 29, 1, 22, 0, 0, time.UTC),
			[]string{"00:35:00", "00:40:00", "00:45:00", "00:50:00", "00:55:00", "01:00:00", "01:05:00", "01:10:00", "01:15:00", "01:20:00"}},
		{"fall-back", time.Date(2026, 10, 25, 0, 32, 0, 0, time.UTC), time.Date(2026, 10, 25, 2, 12, 0, 0, time.UTC),
			[]string{"00:35:00", "00:40:00", "00:45:00", "00:50:00", "00:55:00", "02:00:00", "02:05:00", "02:10:00"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRig(t, c.start)
			r.runs.settle = true
			s := r.create(t, schedule.Definition{ID: "berlin", Cron: "*/5 * * * *", TimeZone: "Europe/Berlin"})
			if s.Overlap != schedule.OverlapSkip || len(s.NextTicks) != 5 {
				t.Fatalf("created %+v", s)
			}
			r.run(t, time.Minute, c.end)
			equal(t, "ticks started", r.runs.ticks(), c.want)
		})
	}
}

// TestOverlapPolicies: a tick a minute, Runs that stay active until the
// test settles them all at 00:03:30.
func TestOverlapPolicies(t *testing.T) {
	cases := []struct {
		overlap     string
		outcomes    []string
		started     []string
		interrupted []string
	}{
		{schedule.OverlapSkip,
			[]string{"00:01:00 STARTED", "00:02:00 SKIPPED_OVERLAP", "00:03:00 SKIPPED_OVERLAP", "00:04:00 STARTED"},
			[]string{"00:01:00", "00:04:00"}, nil},
		{schedule.OverlapEnqueue,
			[]string{"00:01:00 STARTED", "00:02:00 STARTED", "00:03:00 SKIPPED_OVERLAP", "00:04:00 BUFFERED"},
			[]string{"00:01:00", "00:02:00"}, nil},
		{schedule.OverlapAllow,
			[]string{"00:01:00 STARTED", "00:02:00 STARTED", "00:03:00 STARTED", "00:04:00 STARTED"},
			[]string{"00:01:00", "00:02:00", "00:03:00", "00:04:00"}, nil},
		{schedule.OverlapInterrupt,
			[]string{"00:01:00 STARTED", "00:02:00 STARTED", "00:03:00 STARTED", "00:04:00 STARTED"},
			[]string{"00:01:00", "00:02:00", "00:03:00", "00:04:00"}, []string{"run_0001", "run_0002"}},
	}
	for _, c := range cases {
		t.Run(c.overlap, func(t *testing.T) {
			r := newRig(t, day)
			r.create(t, schedule.Definition{ID: "every-minute", Interval: time.Minute, Overlap: c.overlap})
			r.run(t, 30*time.Second, day.Add(210*time.Second))
			r.runs.settleAll()
			r.run(t, 30*time.Second, day.Add(4*time.Minute))
			equal(t, "outcomes", r.outcomes(t, "every-minute"), c.outcomes)
			equal(t, "ticks started", r.runs.ticks(), c.started)
			equal(t, "interrupted", r.runs.interrupted, c.interrupted)
		})
	}
}

// TestCatchupAfterOutage: every 5 minutes, a 1-hour catch-up window; the
// schedule fires until 00:30, then no replica runs for 3 hours. At 03:30
// the ticks of the last hour (02:30 to 03:30, 13 of them) run, oldest
// first; the 23 before them (00:35 to 02:25) are recorded skipped.
func TestCatchupAfterOutage(t *testing.T) {
	r := newRig(t, day)
	r.runs.settle = true
	r.create(t, schedule.Definition{ID: "outage", Cron: "*/5 * * * *", Overlap: schedule.OverlapAllow, CatchupWindow: time.Hour})
	r.run(t, 5*time.Minute, day.Add(30*time.Minute))
	r.clk.Advance(3 * time.Hour)
	r.fire(t)
	var want, outcomes []string
	for tick := day.Add(5 * time.Minute); !tick.After(day.Add(210 * time.Minute)); tick = tick.Add(5 * time.Minute) {
		hhmm := tick.Format("15:04:05")
		switch {
		case tick.After(day.Add(30*time.Minute)) && tick.Before(day.Add(150*time.Minute)):
			outcomes = append(outcomes, hhmm+" SKIPPED_CATCHUP")
		default:
			want = append(want, hhmm)
			outcomes = append(outcomes, hhmm+" STARTED")
		}
	}
	equal(t, "ticks started", r.runs.ticks(), want)
	equal(t, "outcomes", r.outcomes(t, "outage"), outcomes)
	if len(want) != 6+13 || len(outcomes) != 6+23+13 {
		t.Fatalf("%d started, %d recorded", len(want), len(outcomes))
	}
}

// TestCatchupIsBounded: after 10 minutes of a tick a second, inside a
// 1-hour window, only the newest MaxCatchup ticks run.
func TestCatchupIsBounded(t *testing.T) {
	r := newRig(t, day)
	r.runs.settle = true
	r.create(t, schedule.Definition{ID: "bounded", Interval: time.Second, Overlap: schedule.OverlapAllow, CatchupWindow: time.Hour})
	r.clk.Advance(10 * time.Minute)
	r.fire(t)
	got := r.runs.ticks()
	if len(got) != schedule.MaxCatchup || got[0] != "00:08:21" || got[len(got)-1] != "00:10:00" {
		t.Fatalf("%d ticks started, %v ... %v", len(got), got[:1], got[len(got)-1:])
	}
	if n := len(r.outcomes(t, "bounded")); n != 600 {
		t.Fatalf("%d ticks recorded, want 600", n)
	}
}

// TestReplicasFireEachTickOnce: two replicas make their passes at the
// same time, every fake second for 200 seconds.
func TestReplicasFireEachTickOnce(t *testing.T) {
	r := newRig(t, day)
	r.runs.settle = true
	r.create(t, schedule.Definition{ID: "busy", Interval: time.Second, Overlap: schedule.OverlapAllow})
	b := r.replica("b")
	for i := 0; i < 200; i++ {
		r.clk.Advance(time.Second)
		var wg sync.WaitGroup
		for _, s := range []*schedule.Scheduler{r.sched, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := s.FireDue(context.Background()); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
	}
	r.fire(t)
	got := r.runs.ticks()
	if len(got) != 200 || got[0] != "00:00:01" || got[199] != "00:03:20" {
		t.Fatalf("%d ticks started: %v ... %v", len(got), got[:1], got[len(got)-1:])
	}
}

// TestCrashBetweenDecidingAndStarting: a tick recorded STARTING by a
// replica that died before its Run started gets its Run from the next
// pass, and one that died after starting it gets no second one.
func TestCrashBetweenDecidingAndStarting(t *testing.T) {
	for _, started := range []bool{false, true} {
		r := newRig(t, day)
		r.create(t, schedule.Definition{ID: "crash", Interval: time.Minute})
		tick := day.Add(time.Minute)
		if _, _, err := r.db.PutScheduleTick(context.Background(), store.ScheduleTick{Tenant: store.DefaultTenant, ScheduleID: "crash",
			Tick: tick, Outcome: schedule.OutcomeStarting, Time: tick}); err != nil {
			t.Fatal(err)
		}
		if started {
			r.runs.Start(context.Background(), (&schedule.Definition{Tenant: store.DefaultTenant, ID: "crash"}).StartRequestForTest(tick))
		}
		r.run(t, time.Minute, day.Add(time.Minute))
		equal(t, "ticks started", r.runs.ticks(), []string{"00:01:00"})
		equal(t, "outcomes", r.outcomes(t, "crash"), []string{"00:01:00 STARTED"})
	}
}

func TestPauseResumeTrigger(t *testing.T) {
	r := newRig(t, day)
	r.runs.settle = true
	ctx := context.Background()
	r.create(t, schedule.Definition{ID: "p", Interval: time.Minute})
	r.run(t, time.Minute, day.Add(2*time.Minute))
	if s, err := r.sched.Pause(ctx, store.DefaultTenant, "p"); err != nil || !s.Paused || len(s.NextTicks) != 0 {
		t.Fatalf("paused: %+v, %v", s, err)
	}
	r.run(t, time.Minute, day.Add(5*time.Minute))
	run, err := r.sched.Trigger(ctx, store.DefaultTenant, "p")
	if err != nil || run.ScheduleID != "p" {
		t.Fatalf("trigger: %+v, %v", run, err)
	}
	s, err := r.sched.Resume(ctx, store.DefaultTenant, "p")
	if err != nil || s.Paused || !s.NextTicks[0].Equal(day.Add(6*time.Minute)) {
		t.Fatalf("resumed: %+v, %v", s, err)
	}
	r.run(t, time.Minute, day.Add(7*time.Minute))
	equal(t, "outcomes", r.outcomes(t, "p"),
		[]string{"00:01:00 STARTED", "00:02:00 STARTED", "00:05:00 TRIGGERED", "00:06:00 STARTED", "00:07:00 STARTED"})
	if s, _ := r.sched.Get(ctx, store.DefaultTenant, "p"); len(s.Recent) != 5 || s.Recent[0].Outcome != schedule.OutcomeStarted {
		t.Fatalf("recent %+v", s.Recent)
	}
}

func TestEndTimeAndMaxCount(t *testing.T) {
	cases := []struct {
		name string
		def  schedule.Definition
		want []string
	}{
		{"end time", schedule.Definition{ID: "end", Interval: time.Minute, EndTime: day.Add(3 * time.Minute)},
			[]string{"00:01:00", "00:02:00", "00:03:00"}},
		{"max count", schedule.Definition{ID: "max", Interval: time.Minute, MaxCount: 2}, []string{"00:01:00", "00:02:00"}},
		{"at", schedule.Definition{ID: "at", At: day.Add(90 * time.Second)}, []string{"00:01:30"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRig(t, day)
			r.runs.settle = true
			r.create(t, c.def)
			r.run(t, 30*time.Second, day.Add(10*time.Minute))
			equal(t, "ticks started", r.runs.ticks(), c.want)
			if s, _ := r.sched.Get(context.Background(), store.DefaultTenant, c.def.ID); len(s.NextTicks) != 0 || !s.Progress.DueAt.IsZero() {
				t.Fatalf("done, yet %+v", s)
			}
		})
	}
}

// TestReplicaDiesHoldingASchedule: a replica that claimed the schedule and
// died holds it for the lease (5s); then another replica fires the ticks
// meanwhile as catch-up, each once.
func TestReplicaDiesHoldingASchedule(t *testing.T) {
	r := newRig(t, day)
	r.runs.settle = true
	r.create(t, schedule.Definition{ID: "orphan", Interval: time.Second, Overlap: schedule.OverlapAllow})
	r.clk.Advance(time.Second)
	if _, ok, err := r.db.ClaimSchedule(context.Background(), store.DefaultTenant, "orphan", "dead", r.clk.Now(), r.clk.Now().Add(5*time.Second)); err != nil || !ok {
		t.Fatalf("claim: %v, %v", ok, err)
	}
	for i := 0; i < 4; i++ {
		r.fire(t)
		if len(r.runs.ticks()) != 0 {
			t.Fatalf("fired under another replica's lease: %v", r.runs.ticks())
		}
		r.clk.Advance(time.Second)
	}
	r.clk.Advance(time.Second)
	r.fire(t)
	equal(t, "ticks started", r.runs.ticks(), []string{"00:00:01", "00:00:02", "00:00:03", "00:00:04", "00:00:05", "00:00:06"})
}
