package store

import (
	"context"
	"time"
)

// Schedule is a stored schedule: its definition (Body, opaque to the
// store), whether it is paused, the firing loop's progress and the lease a
// replica holds on it while it fires its due ticks.
type Schedule struct {
	Tenant     string
	ScheduleID string
	Body       []byte
	Paused     bool
	Progress   ScheduleProgress
	CreateTime time.Time
	UpdateTime time.Time
	// LeaseOwner holds the schedule until LeaseExpires; empty for none.
	LeaseOwner   string
	LeaseExpires time.Time
}

// ScheduleProgress is how far a schedule has fired.
type ScheduleProgress struct {
	// NextTick is the next tick to decide; zero when none is left.
	NextTick time.Time
	// DueAt is when a replica should look at the schedule next (the next
	// tick's fire time, or sooner while a tick is buffered); zero for never.
	DueAt time.Time
	// Count is how many Runs its ticks started.
	Count int64
	// LastRunID is the Run its latest started tick started.
	LastRunID string
	// BufferedTick is the tick waiting for LastRunID to settle; zero for
	// none.
	BufferedTick time.Time
}

// ScheduleTick is one tick's outcome, recorded once per (schedule, tick).
type ScheduleTick struct {
	Tenant     string
	ScheduleID string
	Tick       time.Time
	// Outcome is one of the schedule package's outcome words.
	Outcome string
	// RunID is the Run the tick starts or started; empty for none.
	RunID string
	// Time is when the outcome was recorded.
	Time time.Time
	// Events are webhook outbox rows (a schedule.tick_skipped) written in
	// the transaction that records the tick, and only when this call
	// records it: a tick another pass recorded first raised its own.
	Events []WebhookEvent
}

// ScheduleQuery selects schedules to list, by id.
type ScheduleQuery struct {
	PageSize  int
	PageToken string
}

// Schedules keeps schedules and their ticks. It is a port of its own, not
// part of Store: only the schedule package uses it.
type Schedules interface {
	// CreateSchedule stores a schedule unless (tenant, id) exists: then
	// the stored one is returned with created false.
	CreateSchedule(ctx context.Context, s Schedule) (Schedule, bool, error)
	// GetSchedule returns a schedule or *errs.ScheduleNotFound.
	GetSchedule(ctx context.Context, tenant, scheduleID string) (Schedule, error)
	// ListSchedules lists a tenant's schedules by id.
	ListSchedules(ctx context.Context, tenant string, q ScheduleQuery) ([]Schedule, string, error)
	// DeleteSchedule deletes a schedule and its ticks, or returns
	// *errs.ScheduleNotFound. Runs it started stay.
	DeleteSchedule(ctx context.Context, tenant, scheduleID string) error
	// SetSchedulePaused pauses or resumes a schedule, replacing its
	// progress when p is set, or returns *errs.ScheduleNotFound.
	SetSchedulePaused(ctx context.Context, tenant, scheduleID string, paused bool, p *ScheduleProgress, now time.Time) (Schedule, error)
	// DueSchedules returns up to limit schedules not paused whose DueAt
	// is set and not after now and whose lease is free or expired.
	DueSchedules(ctx context.Context, now time.Time, limit int) ([]Schedule, error)
	// NextScheduleDue returns the earliest DueAt of a schedule not paused.
	NextScheduleDue(ctx context.Context) (time.Time, bool, error)
	// ClaimSchedule leases a schedule to owner until expires if its lease
	// is free or expired at now, and returns it as claimed; false when
	// someone else holds it or it is gone or paused.
	ClaimSchedule(ctx context.Context, tenant, scheduleID, owner string, now, expires time.Time) (Schedule, bool, error)
	// SaveScheduleProgress stores p and gives the lease up if owner still
	// holds it; false (nothing written) when it does not.
	SaveScheduleProgress(ctx context.Context, tenant, scheduleID, owner string, p ScheduleProgress, now time.Time) (bool, error)
	// PutScheduleTick records a tick's outcome unless one is recorded for
	// (tenant, schedule, tick): then the recorded one is returned with
	// created false. It is one transaction.
	PutScheduleTick(ctx context.Context, t ScheduleTick) (ScheduleTick, bool, error)
	// SetScheduleTickOutcome changes a recorded tick's outcome and Run.
	SetScheduleTickOutcome(ctx context.Context, t ScheduleTick) error
	// ScheduleTicks returns a schedule's latest limit ticks, newest first.
	ScheduleTicks(ctx context.Context, tenant, scheduleID string, limit int) ([]ScheduleTick, error)
}
