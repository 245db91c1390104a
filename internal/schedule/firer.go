package schedule

import (
	"context"
	"errors"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
)

// batch bounds the ticks one pass decides for one schedule; a schedule
// with more due stays due and the next pass goes on.
const batch = 200

// minWait is the shortest sleep of the firing loop.
const minWait = 50 * time.Millisecond

// Run fires due ticks until ctx ends: it wakes at the earliest due time
// of any schedule (or after Poll, or when a schedule is created or
// resumed here), claims each due schedule with a short lease (a
// conditional update: of two replicas one gets it) and decides its due
// ticks, oldest first.
func (s *Scheduler) Run(ctx context.Context) {
	for ctx.Err() == nil {
		if err := s.FireDue(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("schedules: firing due ticks", "error", err)
		}
		wait := s.poll
		if next, ok, err := s.store.NextScheduleDue(ctx); err == nil && ok {
			// A schedule still due now is another replica's (leased) or
			// has more due ticks than a pass decides: look again soon,
			// without spinning.
			wait = min(max(next.Sub(s.clock.Now()), minWait), s.poll)
		}
		select {
		case <-ctx.Done():
		case <-s.wake:
		case <-s.clock.After(wait):
		}
	}
}

// poke wakes this replica's firing loop.
func (s *Scheduler) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// FireDue makes one pass: every schedule due now that no other replica
// holds has its due ticks decided.
func (s *Scheduler) FireDue(ctx context.Context) error {
	now := s.clock.Now().UTC()
	due, err := s.store.DueSchedules(ctx, now, 64)
	if err != nil {
		return err
	}
	var all []error
	for _, row := range due {
		claimed, ok, err := s.store.ClaimSchedule(ctx, row.Tenant, row.ScheduleID, s.owner, now, now.Add(s.lease))
		if err != nil {
			all = append(all, err)
			continue
		}
		if ok {
			all = append(all, s.fire(ctx, claimed, now))
		}
	}
	return errors.Join(all...)
}

// fire decides a claimed schedule's due ticks and stores how far it got,
// giving its lease up.
func (s *Scheduler) fire(ctx context.Context, row store.Schedule, now time.Time) error {
	d, err := decode(row.Tenant, row.ScheduleID, row.Body)
	if err != nil {
		return err
	}
	p := row.Progress
	err = s.advance(ctx, &d, &p, now)
	p.DueAt = s.dueAt(&d, p, now)
	if err != nil {
		// Retry soon rather than at the next tick.
		if retry := now.Add(s.poll); p.DueAt.IsZero() || retry.Before(p.DueAt) {
			p.DueAt = retry
		}
	}
	saved, serr := s.store.SaveScheduleProgress(context.WithoutCancel(ctx), row.Tenant, row.ScheduleID, s.owner, p, now)
	if serr == nil && !saved {
		s.log.Warn("schedules: lease lost while firing; another replica goes on", "schedule", row.ScheduleID)
	}
	return errors.Join(err, serr)
}

// advance starts a buffered tick whose previous Run settled, then decides
// each due tick in order.
func (s *Scheduler) advance(ctx context.Context, d *Definition, p *store.ScheduleProgress, now time.Time) error {
	if !p.BufferedTick.IsZero() {
		if err := s.startBuffered(ctx, d, p, now); err != nil {
			return err
		}
	}
	for i := 0; i < batch && !p.NextTick.IsZero() && !d.FireTime(p.NextTick).After(now); i++ {
		if err := s.decide(ctx, d, p, p.NextTick, now); err != nil {
			return err
		}
		p.NextTick = d.Next(p.NextTick)
		if d.MaxCount > 0 && p.Count >= d.MaxCount {
			p.NextTick = time.Time{}
		}
	}
	return nil
}

// dueAt is when the schedule needs a pass: its next tick's fire time, or
// after Poll while a tick is buffered; zero for never.
func (s *Scheduler) dueAt(d *Definition, p store.ScheduleProgress, now time.Time) time.Time {
	var due time.Time
	if !p.NextTick.IsZero() {
		due = d.FireTime(p.NextTick)
	}
	if !p.BufferedTick.IsZero() {
		if b := now.Add(s.poll); due.IsZero() || b.Before(due) {
			due = b
		}
	}
	return due
}

// decide records tick's outcome once, then acts on the outcome recorded
// (which is another pass's when that one recorded it first).
func (s *Scheduler) decide(ctx context.Context, d *Definition, p *store.ScheduleProgress, tick, now time.Time) error {
	rec := store.ScheduleTick{Tenant: d.Tenant, ScheduleID: d.ID, Tick: tick, Time: now}
	outcome, err := s.choose(ctx, d, *p, tick, now)
	if err != nil {
		return err
	}
	rec.Outcome = outcome
	if s.tickEvents != nil && (outcome == OutcomeSkippedOverlap || outcome == OutcomeSkippedCatchup) {
		rec.Events = s.tickEvents(d.Tenant, d.ID, d.Spec, tick, outcome, now)
	}
	got, _, err := s.store.PutScheduleTick(ctx, rec)
	if err != nil {
		return err
	}
	switch got.Outcome {
	case OutcomeStarting:
		return s.startTick(ctx, d, p, got)
	case OutcomeStarted:
		p.LastRunID = got.RunID
		p.Count++
	case OutcomeBuffered:
		if p.BufferedTick.IsZero() {
			p.BufferedTick = tick
			p.Count++
		}
	}
	return nil
}

// choose is what tick does: skipped when missed beyond the catch-up
// rules, else as the overlap policy says when the previous Run is active.
func (s *Scheduler) choose(ctx context.Context, d *Definition, p store.ScheduleProgress, tick, now time.Time) (string, error) {
	if now.Sub(tick) > d.CatchupWindow || beyondCatchup(d, tick, now) {
		return OutcomeSkippedCatchup, nil
	}
	if d.Overlap == OverlapAllow || d.Overlap == OverlapInterrupt {
		return OutcomeStarting, nil
	}
	busy, err := s.active(ctx, d.Tenant, p.LastRunID)
	switch {
	case err != nil:
		return "", err
	case !busy && p.BufferedTick.IsZero():
		return OutcomeStarting, nil
	case d.Overlap == OverlapEnqueue && p.BufferedTick.IsZero():
		return OutcomeBuffered, nil
	default:
		return OutcomeSkippedOverlap, nil
	}
}

// beyondCatchup says MaxCatchup newer ticks are due at now too: tick is
// older than the catch-up bound.
func beyondCatchup(d *Definition, tick, now time.Time) bool {
	t := tick
	for i := 0; i < MaxCatchup; i++ {
		if t = d.Next(t); t.IsZero() || t.After(now) {
			return false
		}
	}
	return true
}

// active says the Run is not settled yet (a deleted Run is not active).
func (s *Scheduler) active(ctx context.Context, tenant, runID string) (bool, error) {
	if runID == "" {
		return false, nil
	}
	run, err := s.runs.Get(ctx, tenant, runID)
	var gone *errs.RunNotFound
	if errors.As(err, &gone) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return !run.Settled(), nil
}

// startTick starts the Run of a tick recorded STARTING (interrupting the
// previous one first under INTERRUPT_PREVIOUS) and records it STARTED, or
// FAILED when the start cannot succeed; a transient failure leaves it
// STARTING for the next pass.
func (s *Scheduler) startTick(ctx context.Context, d *Definition, p *store.ScheduleProgress, rec store.ScheduleTick) error {
	if d.Overlap == OverlapInterrupt && p.LastRunID != "" {
		if busy, err := s.active(ctx, d.Tenant, p.LastRunID); err != nil {
			return err
		} else if busy {
			reason := "schedule " + d.ID + ": the tick of " + rec.Tick.Format(time.RFC3339) + " interrupts the previous Run"
			if _, err := s.runs.Interrupt(ctx, d.Tenant, p.LastRunID, reason); err != nil && transient(err) {
				return err
			}
		}
	}
	run, _, err := s.runs.Start(ctx, d.startRequest(rec.Tick, d.RequestID(rec.Tick)))
	if err != nil && transient(err) {
		return err
	}
	rec.Time = s.clock.Now().UTC()
	if err != nil {
		s.log.Warn("schedules: a tick's Run could not start", "schedule", d.ID, "tick", rec.Tick, "error", err)
		rec.Outcome = OutcomeFailed
		return s.store.SetScheduleTickOutcome(ctx, rec)
	}
	rec.Outcome, rec.RunID = OutcomeStarted, run.RunID
	if err := s.store.SetScheduleTickOutcome(ctx, rec); err != nil {
		return err
	}
	p.LastRunID = run.RunID
	p.Count++
	return nil
}

// startBuffered starts the buffered tick's Run once the previous Run
// settled.
func (s *Scheduler) startBuffered(ctx context.Context, d *Definition, p *store.ScheduleProgress, now time.Time) error {
	busy, err := s.active(ctx, d.Tenant, p.LastRunID)
	if err != nil || busy {
		return err
	}
	tick := p.BufferedTick
	run, _, err := s.runs.Start(ctx, d.startRequest(tick, d.RequestID(tick)))
	if err != nil && transient(err) {
		return err
	}
	rec := store.ScheduleTick{Tenant: d.Tenant, ScheduleID: d.ID, Tick: tick, Outcome: OutcomeStarted, RunID: run.RunID, Time: now}
	if err != nil {
		rec.Outcome, rec.RunID = OutcomeFailed, ""
	}
	if err := s.store.SetScheduleTickOutcome(ctx, rec); err != nil {
		return err
	}
	p.BufferedTick = time.Time{}
	if rec.RunID != "" {
		p.LastRunID = rec.RunID
	}
	return nil
}
