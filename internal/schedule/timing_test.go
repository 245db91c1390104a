package schedule

import (
	"testing"
	"time"
)

func berlin(t *testing.T) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// utcTicks returns n ticks of next after from, as UTC "01-02 15:04".
func utcTicks(next func(time.Time) time.Time, from time.Time, n int) []string {
	var out []string
	for i := 0; i < n; i++ {
		from = next(from)
		if from.IsZero() {
			break
		}
		out = append(out, from.UTC().Format("01-02 15:04"))
	}
	return out
}

// TestRobfigOnItsOwn records what robfig/cron does across DST in a zone,
// which is why cronTiming walks wall-clock time itself: it fires a
// repeated local time twice and a skipped one not at all.
func TestRobfigOnItsOwn(t *testing.T) {
	loc := berlin(t)
	cases := []struct {
		name, expr string
		from       time.Time
		want       []string
	}{
		{"fall-back fires the repeated 02:30 twice", "30 2 * * *", time.Date(2026, 10, 25, 0, 0, 0, 0, loc),
			[]string{"10-25 00:30", "10-25 01:30"}},
		{"spring-forward never fires the skipped time", "30 2 * * *", time.Date(2026, 3, 28, 12, 0, 0, 0, loc),
			[]string{"03-30 00:30"}},
		{"*/30 in the repeated hour twice", "*/30 * * * *", time.Date(2026, 10, 25, 1, 45, 0, 0, loc),
			[]string{"10-25 00:00", "10-25 00:30", "10-25 01:00", "10-25 01:30", "10-25 02:00"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := cronParser.Parse(c.expr)
			if err != nil {
				t.Fatal(err)
			}
			got := utcTicks(func(at time.Time) time.Time { return s.Next(at.In(loc)) }, c.from, len(c.want))
			assertTicks(t, got, c.want)
		})
	}
}

func assertTicks(t *testing.T, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("ticks %v, want %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("ticks %v, want %v", got, want)
		}
	}
}

// TestCronAcrossDST is the rule of Schedule.cron on a fake clock's
// calendar: Europe/Berlin springs forward at 01:00 UTC on 2026-03-29
// (02:00 CET becomes 03:00 CEST) and falls back at 01:00 UTC on
// 2026-10-25 (03:00 CEST becomes 02:00 CET). A skipped local time fires
// once at the end of the gap; a repeated one once, at its first
// occurrence.
func TestCronAcrossDST(t *testing.T) {
	loc := berlin(t)
	cases := []struct {
		name, expr string
		from       time.Time
		want       []string
	}{
		{"*/5 across spring-forward: the gap's twelve times fire once, at 03:00 CEST", "*/5 * * * *",
			time.Date(2026, 3, 29, 0, 50, 0, 0, time.UTC),
			[]string{"03-29 00:55", "03-29 01:00", "03-29 01:05", "03-29 01:10"}},
		{"*/5 across fall-back: the repeated hour fires once", "*/5 * * * *",
			time.Date(2026, 10, 25, 0, 45, 0, 0, time.UTC),
			[]string{"10-25 00:50", "10-25 00:55", "10-25 02:00", "10-25 02:05"}},
		{"a daily 02:30 on the spring-forward day fires at 03:00 CEST", "30 2 * * *",
			time.Date(2026, 3, 28, 12, 0, 0, 0, time.UTC),
			[]string{"03-29 01:00", "03-30 00:30"}},
		{"a daily 02:30 on the fall-back day fires once", "30 2 * * *",
			time.Date(2026, 10, 24, 12, 0, 0, 0, time.UTC),
			[]string{"10-25 00:30", "10-26 01:30"}},
		{"a daily 03:00 on the spring-forward day", "0 3 * * *",
			time.Date(2026, 3, 28, 12, 0, 0, 0, time.UTC),
			[]string{"03-29 01:00", "03-30 01:00"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := cronParser.Parse(c.expr)
			if err != nil {
				t.Fatal(err)
			}
			ct := cronTiming{sched: s, loc: loc}
			assertTicks(t, utcTicks(ct.next, c.from, len(c.want)), c.want)
		})
	}
}

// TestCronAcrossDSTAllDay walks */5 through both change days: every tick
// is five minutes after the last in UTC, except the hour the fall-back
// repeats, and no instant fires twice.
func TestCronAcrossDSTAllDay(t *testing.T) {
	loc := berlin(t)
	s, _ := cronParser.Parse("*/5 * * * *")
	ct := cronTiming{sched: s, loc: loc}
	for _, day := range []time.Time{time.Date(2026, 3, 28, 12, 0, 0, 0, time.UTC), time.Date(2026, 10, 24, 12, 0, 0, 0, time.UTC)} {
		at, gaps := day, 0
		for i := 0; i < 24*12; i++ {
			n := ct.next(at)
			if d := n.Sub(at); i > 0 && d != 5*time.Minute {
				gaps++
				if d != 65*time.Minute || day.Month() != 10 {
					t.Fatalf("tick %s follows %s", n, at)
				}
			}
			at = n
		}
		if want := map[time.Month]int{3: 0, 10: 1}[day.Month()]; gaps != want {
			t.Fatalf("%s: %d gaps, want %d", day, gaps, want)
		}
	}
}

func TestIntervalAndAt(t *testing.T) {
	anchor := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	iv := intervalTiming{anchor: anchor, interval: time.Minute}
	assertTicks(t, utcTicks(iv.next, anchor, 2), []string{"01-01 00:01", "01-01 00:02"})
	assertTicks(t, utcTicks(iv.next, anchor.Add(90*time.Second), 1), []string{"01-01 00:02"})
	at := atTiming{at: anchor.Add(time.Hour)}
	assertTicks(t, utcTicks(at.next, anchor, 3), []string{"01-01 01:00"})
}

func TestJitterIsDeterministic(t *testing.T) {
	tick := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	a := jitterOf("t", "s", tick, time.Minute)
	if a != jitterOf("t", "s", tick, time.Minute) || a < 0 || a >= time.Minute {
		t.Fatalf("jitter %s", a)
	}
	if jitterOf("t", "s", tick, 0) != 0 {
		t.Fatal("no jitter asked, some given")
	}
}
