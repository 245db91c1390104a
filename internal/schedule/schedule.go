// Package schedule starts Runs on a schedule: a cron expression in a time
// zone, an interval, or one time. Every replica runs a Firer; whichever
// fires a tick, and however often replicas restart, a tick starts at most
// one Run (the tick is the Run's request id and its pre-chosen run id) and
// its outcome is recorded once (a store row per schedule and tick).
package schedule

import (
	"encoding/json"
	"fmt"
	"regexp"
	"time"
	_ "time/tzdata" // time zones on hosts without a zoneinfo database

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/store"
)

// Overlap policies: what a tick does while the schedule's previous Run is
// still active (not settled).
const (
	// OverlapSkip records the tick skipped.
	OverlapSkip = "SKIP"
	// OverlapEnqueue buffers the tick (one at most: a later tick while one
	// is buffered is skipped) and starts it once the previous Run settles.
	OverlapEnqueue = "ENQUEUE"
	// OverlapAllow starts the Run anyway.
	OverlapAllow = "ALLOW"
	// OverlapInterrupt interrupts the previous Run and starts the new one.
	OverlapInterrupt = "INTERRUPT_PREVIOUS"
)

// Outcomes of a tick, as recorded.
const (
	// OutcomeStarting is recorded before the Run is started: a tick left
	// in it by a crash starts its Run (with the same ids) when replayed.
	OutcomeStarting = "STARTING"
	// OutcomeStarted: the tick's Run was started.
	OutcomeStarted = "STARTED"
	// OutcomeSkippedOverlap: the previous Run was active (SKIP, or
	// ENQUEUE with a tick buffered already).
	OutcomeSkippedOverlap = "SKIPPED_OVERLAP"
	// OutcomeSkippedCatchup: the tick was missed by more than the
	// catch-up window (or beyond MaxCatchup).
	OutcomeSkippedCatchup = "SKIPPED_CATCHUP"
	// OutcomeBuffered: waiting for the previous Run to settle (ENQUEUE).
	OutcomeBuffered = "BUFFERED"
	// OutcomeTriggered: a Run started by TriggerSchedule.
	OutcomeTriggered = "TRIGGERED"
	// OutcomeFailed: the Run could not be started (the Spec is gone, the
	// policy refused it, ...); the schedule goes on.
	OutcomeFailed = "FAILED"
)

// Limits of a definition.
const (
	// MinInterval is the smallest interval.
	MinInterval = time.Second
	// DefaultCatchupWindow is the catch-up window of a schedule that sets
	// none.
	DefaultCatchupWindow = time.Minute
	// MaxCatchup bounds the ticks one catch-up runs: of the ticks missed
	// inside the window, at most the newest MaxCatchup run; older ones are
	// recorded SKIPPED_CATCHUP.
	MaxCatchup = 100
)

// Definition is what a schedule's creator chose; it never changes.
type Definition struct {
	Tenant  string `json:"-"`
	ID      string `json:"-"`
	Spec    string `json:"spec"`
	Version string `json:"version,omitempty"`
	Input   string `json:"input,omitempty"`
	// Exactly one of Cron (with TimeZone, UTC when empty), Interval and
	// At is set.
	Cron     string        `json:"cron,omitempty"`
	TimeZone string        `json:"timeZone,omitempty"`
	Interval time.Duration `json:"interval,omitempty"`
	At       time.Time     `json:"at,omitempty"`
	// Jitter delays each tick's Run by a deterministic amount below it.
	Jitter time.Duration `json:"jitter,omitempty"`
	// EndTime: no tick after it; MaxCount: no tick once that many Runs
	// started. Zero for none.
	EndTime  time.Time `json:"endTime,omitempty"`
	MaxCount int64     `json:"maxCount,omitempty"`
	Overlap  string    `json:"overlap"`
	// CatchupWindow: a tick missed by more than it is skipped.
	CatchupWindow time.Duration `json:"catchupWindow"`
	// Anchor is the interval's phase: ticks are Anchor + k*Interval.
	Anchor time.Time `json:"anchor"`
	// Priority and FairnessKey are its Runs' (0 and empty: StartRun's
	// defaults).
	Priority    int    `json:"priority,omitempty"`
	FairnessKey string `json:"fairnessKey,omitempty"`
}

var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,62}$`)

// Validate returns *errs.ScheduleInvalid naming every field that is wrong,
// or nil; it fills defaults (the overlap policy, the catch-up window).
func (d *Definition) Validate() error {
	var bad []errs.FieldViolation
	add := func(field, desc string) { bad = append(bad, errs.FieldViolation{Field: field, Description: desc}) }
	if !idPattern.MatchString(d.ID) {
		add("schedule.id", "must be 1 to 63 of a-z, 0-9, '.', '_', '-', starting with a letter or digit")
	}
	if d.Spec == "" {
		add("schedule.spec", "is required: the name of a published Spec")
	}
	if len(d.Input) > 1<<20 {
		add("schedule.input", "is larger than 1 MiB")
	}
	bad = append(bad, d.whenViolations()...)
	if d.Overlap == "" {
		d.Overlap = OverlapSkip
	}
	switch d.Overlap {
	case OverlapSkip, OverlapEnqueue, OverlapAllow, OverlapInterrupt:
	default:
		add("schedule.overlap", "must be SKIP, ENQUEUE, ALLOW or INTERRUPT_PREVIOUS")
	}
	if d.CatchupWindow == 0 {
		d.CatchupWindow = DefaultCatchupWindow
	}
	if d.Priority != 0 && (d.Priority < store.MinPriority || d.Priority > store.MaxPriority) {
		add("schedule.priority", fmt.Sprintf("is %d; it must be between %d and %d, or 0 for the default %d",
			d.Priority, store.MinPriority, store.MaxPriority, store.DefaultPriority))
	}
	if len(d.FairnessKey) > runs.MaxFairnessKeyBytes {
		add("schedule.fairness_key", fmt.Sprintf("is %d bytes; at most %d are allowed", len(d.FairnessKey), runs.MaxFairnessKeyBytes))
	}
	if d.CatchupWindow < 0 || d.Jitter < 0 || d.MaxCount < 0 {
		add("schedule", "catchup_window, jitter and max_count must not be negative")
	}
	if len(bad) > 0 {
		return &errs.ScheduleInvalid{ScheduleID: d.ID, Violations: bad}
	}
	return nil
}

// whenViolations checks that exactly one of cron, interval and at is set,
// and that the one set is valid.
func (d *Definition) whenViolations() []errs.FieldViolation {
	set := 0
	for _, on := range []bool{d.Cron != "", d.Interval != 0, !d.At.IsZero()} {
		if on {
			set++
		}
	}
	if set != 1 {
		return []errs.FieldViolation{{Field: "schedule.cron", Description: fmt.Sprintf("exactly one of cron, interval and at must be set; %d are", set)}}
	}
	var bad []errs.FieldViolation
	if d.Cron != "" {
		if _, err := cronParser.Parse(d.Cron); err != nil {
			bad = append(bad, errs.FieldViolation{Field: "schedule.cron", Description: "is not a cron expression: " + err.Error()})
		}
	}
	if d.TimeZone != "" {
		if d.Cron == "" {
			bad = append(bad, errs.FieldViolation{Field: "schedule.time_zone", Description: "is only for a cron expression"})
		} else if _, err := time.LoadLocation(d.TimeZone); err != nil {
			bad = append(bad, errs.FieldViolation{Field: "schedule.time_zone", Description: "is not an IANA time zone: " + d.TimeZone})
		}
	}
	if d.Interval != 0 && d.Interval < MinInterval {
		bad = append(bad, errs.FieldViolation{Field: "schedule.interval", Description: fmt.Sprintf("must be at least %s", MinInterval)})
	}
	return bad
}

// timing returns when the definition's ticks are; Validate passed.
func (d *Definition) timing() timing {
	switch {
	case d.Cron != "":
		s, _ := cronParser.Parse(d.Cron)
		loc := time.UTC
		if d.TimeZone != "" {
			loc, _ = time.LoadLocation(d.TimeZone)
		}
		return cronTiming{sched: s, loc: loc}
	case d.Interval > 0:
		return intervalTiming{anchor: d.Anchor, interval: d.Interval}
	default:
		return atTiming{at: d.At}
	}
}

// Next returns the first tick strictly after t that the definition
// allows (before its end time), or zero.
func (d *Definition) Next(t time.Time) time.Time {
	n := d.timing().next(t)
	if n.IsZero() || (!d.EndTime.IsZero() && n.After(d.EndTime)) {
		return time.Time{}
	}
	return n.UTC()
}

// FireTime is when tick's Run starts: the tick plus its jitter.
func (d *Definition) FireTime(tick time.Time) time.Time {
	return tick.Add(jitterOf(d.Tenant, d.ID, tick, d.Jitter))
}

// RequestID is the request id of tick's Run: the same on every replica
// and every retry, so CreateRun's request-id uniqueness makes one Run.
func (d *Definition) RequestID(tick time.Time) string {
	return fmt.Sprintf("schedule/%s/%d", d.ID, tick.Unix())
}

// encode returns the definition as stored.
func (d *Definition) encode() []byte {
	b, _ := json.Marshal(d)
	return b
}

// decode reads a stored definition.
func decode(tenant, id string, body []byte) (Definition, error) {
	var d Definition
	if err := json.Unmarshal(body, &d); err != nil {
		return Definition{}, fmt.Errorf("schedule %s: definition does not decode: %w", id, err)
	}
	d.Tenant, d.ID = tenant, id
	return d, nil
}
