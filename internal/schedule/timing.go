package schedule

import (
	"hash/fnv"
	"strconv"
	"time"

	"github.com/robfig/cron/v3"
)

// timing says when a schedule's ticks are: next returns the first tick
// strictly after t, zero when there is none.
type timing interface {
	next(t time.Time) time.Time
}

// cronParser reads the standard five fields (minute, hour, day of month,
// month, day of week) and the descriptors (@daily, @hourly, ...).
var cronParser = cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// cronTiming is a cron expression in a time zone. robfig/cron computes the
// next matching local wall-clock time, in a zone without DST (UTC as a
// "floating" local clock); cronTiming turns each wall-clock time into an
// instant itself, by the rule documented on Schedule.cron:
//
//   - a local time that a spring-forward skips fires once, at the first
//     instant after the gap (02:30 in Europe/Berlin on the last Sunday of
//     March fires at 03:00 CEST), and never twice for one instant (every
//     skipped time of "*/5" maps to 03:00, which fires once);
//   - a local time that a fall-back repeats fires once, at its first
//     occurrence (02:30 CEST, not 02:30 CET).
//
// robfig/cron's own Schedule.Next in a zone with DST differs on both: it
// fires a repeated local time twice (both occurrences) and a skipped one
// not at all, so a daily 02:30 misses the spring-forward day (see
// TestRobfigOnItsOwn).
type cronTiming struct {
	sched cron.Schedule
	loc   *time.Location
}

func (c cronTiming) next(t time.Time) time.Time {
	w := floating(t.In(c.loc))
	// Each round moves the wall clock forward; a tick found at or before
	// t (the times of a gap or of a repeated hour) is passed over. A
	// year of minutes bounds the walk for an expression that matches
	// nothing more (robfig gives zero then anyway).
	for i := 0; i < 600000; i++ {
		w = c.sched.Next(w)
		if w.IsZero() {
			return time.Time{}
		}
		if at := instant(w, c.loc); at.After(t) {
			return at
		}
	}
	return time.Time{}
}

// floating is t's wall clock read as if it were UTC.
func floating(t time.Time) time.Time {
	y, mo, d := t.Date()
	h, mi, s := t.Clock()
	return time.Date(y, mo, d, h, mi, s, t.Nanosecond(), time.UTC)
}

// instant is the first instant whose wall clock in loc is w (read as
// UTC), or, when none has it (a spring-forward gap), the first instant
// after the gap.
func instant(w time.Time, loc *time.Location) time.Time {
	var best time.Time
	var latest time.Time
	for _, probe := range []time.Duration{-26 * time.Hour, 0, 26 * time.Hour} {
		_, off := w.Add(probe).In(loc).Zone()
		c := w.Add(-time.Duration(off) * time.Second).In(loc)
		if latest.IsZero() || c.After(latest) {
			latest = c
		}
		if floating(c).Equal(w) && (best.IsZero() || c.Before(best)) {
			best = c
		}
	}
	if !best.IsZero() {
		return best.UTC()
	}
	start, _ := latest.ZoneBounds()
	return start.UTC()
}

// intervalTiming is every interval from anchor.
type intervalTiming struct {
	anchor   time.Time
	interval time.Duration
}

func (iv intervalTiming) next(t time.Time) time.Time {
	if t.Before(iv.anchor) {
		return iv.anchor
	}
	n := t.Sub(iv.anchor)/iv.interval + 1
	return iv.anchor.Add(n * iv.interval)
}

// atTiming is one tick.
type atTiming struct{ at time.Time }

func (a atTiming) next(t time.Time) time.Time {
	if a.at.After(t) {
		return a.at
	}
	return time.Time{}
}

// jitterOf is how long after tick the schedule's Run starts: the same
// on every replica, from the schedule and the tick, below jitter.
func jitterOf(tenant, scheduleID string, tick time.Time, jitter time.Duration) time.Duration {
	if jitter <= 0 {
		return 0
	}
	h := fnv.New64a()
	_, _ = h.Write([]byte(tenant + "/" + scheduleID + "/" + strconv.FormatInt(tick.UnixNano(), 10)))
	return time.Duration(h.Sum64() % uint64(jitter))
}
