package schedule

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/ids"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/store"
)

// Runs is what schedules do to Runs: start one for a tick, read the
// previous one, interrupt it (runs.Manager).
type Runs interface {
	Start(ctx context.Context, req runs.StartRequest) (runs.Run, bool, error)
	Get(ctx context.Context, tenant, runID string) (runs.Run, error)
	Interrupt(ctx context.Context, tenant, runID, reason string) (runs.Run, error)
}

// Scheduler serves schedules (create, read, pause, resume, delete,
// trigger) and fires their ticks (Run).
type Scheduler struct {
	store store.Schedules
	runs  Runs
	clock clock.Clock
	log   *slog.Logger
	owner string
	lease time.Duration
	poll  time.Duration
	wake  chan struct{}
	// tickEvents raises schedule.tick_skipped; nil for none.
	tickEvents TickEvents
}

// Deps are what a Scheduler works with; Store and Runs are required.
type Deps struct {
	Store store.Schedules
	Runs  Runs
	Clock clock.Clock
	Log   *slog.Logger
	// Owner names this replica in its leases on schedules; empty makes
	// one.
	Owner string
	// Lease is how long a replica holds a schedule while it fires its due
	// ticks (default 5s): a replica killed holding one delays that
	// schedule's ticks by at most that, and they then run as catch-up.
	Lease time.Duration
	// Poll bounds how long the firing loop sleeps (default 1s): it wakes
	// then to see schedules another replica created and buffered ticks
	// whose previous Run settled.
	Poll time.Duration
	// TickEvents, when set, gives the webhook outbox rows of a tick
	// recorded as skipped (schedule.tick_skipped), written in the
	// transaction that records it.
	TickEvents TickEvents
}

// TickEvents returns the webhook events of a schedule's tick recorded
// with outcome at now; the webhook package's Events.ForSkippedTick.
type TickEvents func(tenant, scheduleID, spec string, tick time.Time, outcome string, now time.Time) []store.WebhookEvent

// New returns a Scheduler.
func New(d Deps) *Scheduler {
	if d.Clock == nil {
		d.Clock = clock.Real{}
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	if d.Owner == "" {
		d.Owner = ids.New("scheduler", d.Clock.Now())
	}
	if d.Lease <= 0 {
		d.Lease = 5 * time.Second
	}
	if d.Poll <= 0 {
		d.Poll = time.Second
	}
	return &Scheduler{store: d.Store, runs: d.Runs, clock: d.Clock, log: d.Log, owner: d.Owner, lease: d.Lease, poll: d.Poll, wake: make(chan struct{}, 1), tickEvents: d.TickEvents}
}

// Schedule is a schedule as its readers see it.
type Schedule struct {
	Definition
	Paused   bool
	Progress store.ScheduleProgress
	// NextTicks are the next few ticks (none when paused or done).
	NextTicks []time.Time
	// Recent are the latest ticks' outcomes, newest first.
	Recent     []store.ScheduleTick
	CreateTime time.Time
	UpdateTime time.Time
}

// How many next ticks and recent outcomes a read shows.
const (
	shownNext   = 5
	shownRecent = 10
)

// Create creates a schedule. Creating one with the id of an existing one
// returns that one when the definitions are the same (a retry), and
// *errs.ScheduleInvalid when they differ. d.ID empty makes an id.
func (s *Scheduler) Create(ctx context.Context, d Definition) (Schedule, error) {
	now := s.clock.Now().UTC()
	if d.ID == "" {
		d.ID = ids.New("sch", now)
	}
	if err := d.Validate(); err != nil {
		return Schedule{}, err
	}
	d.Anchor = now.Truncate(time.Second)
	d.At = d.At.Truncate(time.Second).UTC()
	p := store.ScheduleProgress{NextTick: d.Next(now)}
	if !d.At.IsZero() && !d.At.After(now) {
		p.NextTick = d.At
	}
	p.DueAt = s.dueAt(&d, p, now)
	row, created, err := s.store.CreateSchedule(ctx, store.Schedule{Tenant: d.Tenant, ScheduleID: d.ID, Body: d.encode(), Progress: p, CreateTime: now})
	if err != nil {
		return Schedule{}, err
	}
	if !created {
		old, err := decode(row.Tenant, row.ScheduleID, row.Body)
		if err != nil {
			return Schedule{}, err
		}
		d.Anchor = old.Anchor
		if string(d.encode()) != string(old.encode()) {
			return Schedule{}, &errs.ScheduleInvalid{ScheduleID: d.ID, Violations: []errs.FieldViolation{
				{Field: "schedule.id", Description: "names an existing schedule with another definition"}}}
		}
	}
	s.poke()
	return s.view(ctx, row)
}

// Get returns a schedule or *errs.ScheduleNotFound.
func (s *Scheduler) Get(ctx context.Context, tenant, id string) (Schedule, error) {
	row, err := s.store.GetSchedule(ctx, tenant, id)
	if err != nil {
		return Schedule{}, err
	}
	return s.view(ctx, row)
}

// List lists a tenant's schedules by id.
func (s *Scheduler) List(ctx context.Context, tenant string, q store.ScheduleQuery) ([]Schedule, string, error) {
	rows, next, err := s.store.ListSchedules(ctx, tenant, q)
	if err != nil {
		return nil, "", err
	}
	out := make([]Schedule, 0, len(rows))
	for _, row := range rows {
		v, err := s.view(ctx, row)
		if err != nil {
			return nil, "", err
		}
		out = append(out, v)
	}
	return out, next, nil
}

// Pause stops a schedule's ticks: ticks that fall while it is paused are
// neither run nor recorded.
func (s *Scheduler) Pause(ctx context.Context, tenant, id string) (Schedule, error) {
	row, err := s.store.SetSchedulePaused(ctx, tenant, id, true, nil, s.clock.Now().UTC())
	if err != nil {
		return Schedule{}, err
	}
	return s.view(ctx, row)
}

// Resume restarts a paused schedule from its first tick after now.
func (s *Scheduler) Resume(ctx context.Context, tenant, id string) (Schedule, error) {
	row, err := s.store.GetSchedule(ctx, tenant, id)
	if err != nil || !row.Paused {
		return s.viewOr(ctx, row, err)
	}
	d, err := decode(row.Tenant, row.ScheduleID, row.Body)
	if err != nil {
		return Schedule{}, err
	}
	now := s.clock.Now().UTC()
	p := row.Progress
	p.NextTick = d.Next(now)
	if d.MaxCount > 0 && p.Count >= d.MaxCount {
		p.NextTick = time.Time{}
	}
	p.DueAt = s.dueAt(&d, p, now)
	row, err = s.store.SetSchedulePaused(ctx, tenant, id, false, &p, now)
	s.poke()
	return s.viewOr(ctx, row, err)
}

// Delete deletes a schedule and its ticks' outcomes; its Runs stay.
func (s *Scheduler) Delete(ctx context.Context, tenant, id string) error {
	return s.store.DeleteSchedule(ctx, tenant, id)
}

// Trigger starts one Run of the schedule now, whatever its overlap
// policy, pause or limits, with its own tick (now) and request id.
func (s *Scheduler) Trigger(ctx context.Context, tenant, id string) (runs.Run, error) {
	row, err := s.store.GetSchedule(ctx, tenant, id)
	if err != nil {
		return runs.Run{}, err
	}
	d, err := decode(row.Tenant, row.ScheduleID, row.Body)
	if err != nil {
		return runs.Run{}, err
	}
	now := s.clock.Now().UTC()
	run, _, err := s.runs.Start(ctx, d.startRequest(now, "schedule/"+d.ID+"/trigger/"+now.Format("20060102T150405.000000000")))
	if err != nil {
		return runs.Run{}, err
	}
	_, _, err = s.store.PutScheduleTick(ctx, store.ScheduleTick{Tenant: tenant, ScheduleID: id, Tick: now, Outcome: OutcomeTriggered, RunID: run.RunID, Time: now})
	return run, err
}

func (s *Scheduler) viewOr(ctx context.Context, row store.Schedule, err error) (Schedule, error) {
	if err != nil {
		return Schedule{}, err
	}
	return s.view(ctx, row)
}

// view is a stored schedule with its next ticks and recent outcomes.
func (s *Scheduler) view(ctx context.Context, row store.Schedule) (Schedule, error) {
	d, err := decode(row.Tenant, row.ScheduleID, row.Body)
	if err != nil {
		return Schedule{}, err
	}
	v := Schedule{Definition: d, Paused: row.Paused, Progress: row.Progress, CreateTime: row.CreateTime, UpdateTime: row.UpdateTime}
	if !row.Paused {
		left := int64(shownNext)
		if d.MaxCount > 0 && d.MaxCount-row.Progress.Count < left {
			left = d.MaxCount - row.Progress.Count
		}
		for t := row.Progress.NextTick; !t.IsZero() && int64(len(v.NextTicks)) < left; t = d.Next(t) {
			v.NextTicks = append(v.NextTicks, t)
		}
	}
	v.Recent, err = s.store.ScheduleTicks(ctx, row.Tenant, row.ScheduleID, shownRecent)
	return v, err
}

// startRequest asks for tick's Run.
func (d *Definition) startRequest(tick time.Time, requestID string) runs.StartRequest {
	return runs.StartRequest{
		Tenant: d.Tenant, Spec: d.Spec, Version: d.Version, Input: d.Input, RequestID: requestID,
		Scheduled: runs.Scheduled{ScheduleID: d.ID, Tick: tick},
		Priority:  d.Priority, FairnessKey: d.FairnessKey,
	}
}

// transient says a start may succeed if tried again: the tick stays
// undecided (or STARTING) and the next pass tries it again.
func transient(err error) bool {
	var unavailable *errs.StoreUnavailable
	var overloaded *errs.Overloaded
	var quota *errs.QuotaExceeded
	var failure *errs.TransientFailure
	return errors.As(err, &unavailable) || errors.As(err, &overloaded) || errors.As(err, &quota) || errors.As(err, &failure) ||
		errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}
