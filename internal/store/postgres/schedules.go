package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/pagetoken"
)

var _ store.Schedules = (*DB)(nil)

const scheduleColumns = `tenant, schedule_id, body, paused, next_tick, due_at, count, last_run_id, buffered_tick,
	lease_owner, lease_expires, create_time, update_time`

func scanSchedule(row pgx.Row) (store.Schedule, error) {
	var s store.Schedule
	var next, due, buffered, expires, created, updated int64
	err := row.Scan(&s.Tenant, &s.ScheduleID, &s.Body, &s.Paused, &next, &due, &s.Progress.Count, &s.Progress.LastRunID, &buffered,
		&s.LeaseOwner, &expires, &created, &updated)
	if err != nil {
		return store.Schedule{}, err
	}
	s.Progress.NextTick, s.Progress.DueAt, s.Progress.BufferedTick = store.FromNanos(next), store.FromNanos(due), store.FromNanos(buffered)
	s.LeaseExpires, s.CreateTime, s.UpdateTime = store.FromNanos(expires), store.FromNanos(created), store.FromNanos(updated)
	return s, nil
}

// CreateSchedule stores a schedule unless its id exists.
func (db *DB) CreateSchedule(ctx context.Context, s store.Schedule) (_ store.Schedule, _ bool, opErr error) {
	defer db.observe("CreateSchedule", time.Now(), &opErr)
	p := s.Progress
	tag, err := db.pool.Exec(ctx, `INSERT INTO schedules (`+scheduleColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, '', 0, $10, $10)
		ON CONFLICT DO NOTHING`,
		s.Tenant, s.ScheduleID, bytesOrEmpty(s.Body), s.Paused, store.Nanos(p.NextTick), store.Nanos(p.DueAt), p.Count, p.LastRunID,
		store.Nanos(p.BufferedTick), store.Nanos(s.CreateTime))
	if err != nil {
		return store.Schedule{}, false, unavailable(ctx, "create schedule", err)
	}
	if tag.RowsAffected() == 0 {
		existing, err := db.GetSchedule(ctx, s.Tenant, s.ScheduleID)
		return existing, false, err
	}
	s.UpdateTime = s.CreateTime
	return s, true, nil
}

// GetSchedule returns a schedule.
func (db *DB) GetSchedule(ctx context.Context, tenant, scheduleID string) (_ store.Schedule, opErr error) {
	defer db.observe("GetSchedule", time.Now(), &opErr)
	s, err := scanSchedule(db.pool.QueryRow(ctx, `SELECT `+scheduleColumns+` FROM schedules WHERE tenant = $1 AND schedule_id = $2`, tenant, scheduleID))
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Schedule{}, &errs.ScheduleNotFound{ScheduleID: scheduleID}
	}
	return s, unavailable(ctx, "get schedule", err)
}

// ListSchedules lists a tenant's schedules by id.
func (db *DB) ListSchedules(ctx context.Context, tenant string, q store.ScheduleQuery) (_ []store.Schedule, _ string, opErr error) {
	defer db.observe("ListSchedules", time.Now(), &opErr)
	size := pagetoken.Size(q.PageSize)
	var after pagetoken.RunPosition
	if err := pagetoken.Decode(q.PageToken, &after); err != nil {
		return nil, "", err
	}
	out, err := db.schedules(ctx, `SELECT `+scheduleColumns+` FROM schedules WHERE tenant = $1 AND schedule_id > $2 ORDER BY schedule_id LIMIT $3`,
		tenant, after.RunID, size+1)
	if err != nil {
		return nil, "", unavailable(ctx, "list schedules", err)
	}
	next := ""
	if len(out) > size {
		out = out[:size]
		next = pagetoken.Encode(pagetoken.RunPosition{RunID: out[size-1].ScheduleID})
	}
	return out, next, nil
}

func (db *DB) schedules(ctx context.Context, query string, args ...any) ([]store.Schedule, error) {
	rows, err := db.pool.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.Schedule
	for rows.Next() {
		s, err := scanSchedule(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// DeleteSchedule deletes a schedule and its ticks.
func (db *DB) DeleteSchedule(ctx context.Context, tenant, scheduleID string) (opErr error) {
	defer db.observe("DeleteSchedule", time.Now(), &opErr)
	return db.inTx(ctx, "delete schedule", func(tx *txn) error {
		tag, err := tx.Exec(ctx, `DELETE FROM schedules WHERE tenant = $1 AND schedule_id = $2`, tenant, scheduleID)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return &errs.ScheduleNotFound{ScheduleID: scheduleID}
		}
		_, err = tx.Exec(ctx, `DELETE FROM schedule_ticks WHERE tenant = $1 AND schedule_id = $2`, tenant, scheduleID)
		return err
	})
}

// SetSchedulePaused pauses or resumes a schedule.
func (db *DB) SetSchedulePaused(ctx context.Context, tenant, scheduleID string, paused bool, p *store.ScheduleProgress, now time.Time) (_ store.Schedule, opErr error) {
	defer db.observe("SetSchedulePaused", time.Now(), &opErr)
	var row pgx.Row
	if p == nil {
		row = db.pool.QueryRow(ctx, `UPDATE schedules SET paused = $3, update_time = $4 WHERE tenant = $1 AND schedule_id = $2 RETURNING `+scheduleColumns,
			tenant, scheduleID, paused, store.Nanos(now))
	} else {
		row = db.pool.QueryRow(ctx, `UPDATE schedules SET paused = $3, update_time = $4, next_tick = $5, due_at = $6, count = $7, last_run_id = $8,
			buffered_tick = $9 WHERE tenant = $1 AND schedule_id = $2 RETURNING `+scheduleColumns,
			tenant, scheduleID, paused, store.Nanos(now), store.Nanos(p.NextTick), store.Nanos(p.DueAt), p.Count, p.LastRunID, store.Nanos(p.BufferedTick))
	}
	s, err := scanSchedule(row)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Schedule{}, &errs.ScheduleNotFound{ScheduleID: scheduleID}
	}
	return s, unavailable(ctx, "pause schedule", err)
}

// DueSchedules returns schedules due at now and not leased.
func (db *DB) DueSchedules(ctx context.Context, now time.Time, limit int) (_ []store.Schedule, opErr error) {
	defer db.observe("DueSchedules", time.Now(), &opErr)
	out, err := db.schedules(ctx, `SELECT `+scheduleColumns+` FROM schedules WHERE due_at > 0 AND NOT paused AND due_at <= $1 AND lease_expires <= $1
		ORDER BY due_at LIMIT $2`, store.Nanos(now), limit)
	return out, unavailable(ctx, "due schedules", err)
}

// NextScheduleDue returns the earliest due time.
func (db *DB) NextScheduleDue(ctx context.Context) (_ time.Time, _ bool, opErr error) {
	defer db.observe("NextScheduleDue", time.Now(), &opErr)
	var due *int64
	err := db.pool.QueryRow(ctx, `SELECT MIN(due_at) FROM schedules WHERE due_at > 0 AND NOT paused`).Scan(&due)
	if err != nil || due == nil {
		return time.Time{}, false, unavailable(ctx, "next schedule due", err)
	}
	return store.FromNanos(*due), true, nil
}

// ClaimSchedule leases a schedule if its lease is free: a conditional
// update, so of two replicas racing for it one matches and the other,
// re-reading the row after the first commits, does not.
func (db *DB) ClaimSchedule(ctx context.Context, tenant, scheduleID, owner string, now, expires time.Time) (_ store.Schedule, _ bool, opErr error) {
	defer db.observe("ClaimSchedule", time.Now(), &opErr)
	s, err := scanSchedule(db.pool.QueryRow(ctx, `UPDATE schedules SET lease_owner = $3, lease_expires = $4
		WHERE tenant = $1 AND schedule_id = $2 AND NOT paused AND lease_expires <= $5 RETURNING `+scheduleColumns,
		tenant, scheduleID, owner, store.Nanos(expires), store.Nanos(now)))
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Schedule{}, false, nil
	}
	if err != nil {
		return store.Schedule{}, false, unavailable(ctx, "claim schedule", err)
	}
	return s, true, nil
}

// SaveScheduleProgress stores progress and releases owner's lease.
func (db *DB) SaveScheduleProgress(ctx context.Context, tenant, scheduleID, owner string, p store.ScheduleProgress, now time.Time) (_ bool, opErr error) {
	defer db.observe("SaveScheduleProgress", time.Now(), &opErr)
	tag, err := db.pool.Exec(ctx, `UPDATE schedules SET next_tick = $4, due_at = $5, count = $6, last_run_id = $7, buffered_tick = $8, update_time = $9,
		lease_owner = '', lease_expires = 0 WHERE tenant = $1 AND schedule_id = $2 AND lease_owner = $3`,
		tenant, scheduleID, owner, store.Nanos(p.NextTick), store.Nanos(p.DueAt), p.Count, p.LastRunID, store.Nanos(p.BufferedTick), store.Nanos(now))
	if err != nil {
		return false, unavailable(ctx, "save schedule progress", err)
	}
	return tag.RowsAffected() == 1, nil
}

// PutScheduleTick records a tick's outcome once.
func (db *DB) PutScheduleTick(ctx context.Context, t store.ScheduleTick) (_ store.ScheduleTick, _ bool, opErr error) {
	defer db.observe("PutScheduleTick", time.Now(), &opErr)
	created, err := db.insertScheduleTick(ctx, t)
	if err != nil {
		return store.ScheduleTick{}, false, err
	}
	if created {
		return t, true, nil
	}
	out := t
	var at int64
	err = db.pool.QueryRow(ctx, `SELECT outcome, run_id, time FROM schedule_ticks WHERE tenant = $1 AND schedule_id = $2 AND tick = $3`,
		t.Tenant, t.ScheduleID, store.Nanos(t.Tick)).Scan(&out.Outcome, &out.RunID, &at)
	out.Time = store.FromNanos(at)
	return out, false, unavailable(ctx, "put schedule tick", err)
}

// insertScheduleTick inserts a tick's row unless one exists, with its
// webhook events in the same transaction when it does insert it; a
// single statement when there are none.
func (db *DB) insertScheduleTick(ctx context.Context, t store.ScheduleTick) (bool, error) {
	const insert = `INSERT INTO schedule_ticks (tenant, schedule_id, tick, outcome, run_id, time) VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT DO NOTHING`
	args := []any{t.Tenant, t.ScheduleID, store.Nanos(t.Tick), t.Outcome, t.RunID, store.Nanos(t.Time)}
	if len(t.Events) == 0 {
		tag, err := db.pool.Exec(ctx, insert, args...)
		if err != nil {
			return false, unavailable(ctx, "put schedule tick", err)
		}
		return tag.RowsAffected() == 1, nil
	}
	created := false
	err := db.inTx(ctx, "put schedule tick", func(tx *txn) error {
		tag, err := tx.Exec(ctx, insert, args...)
		if err != nil || tag.RowsAffected() != 1 {
			return err
		}
		created = true
		return EnqueueWebhooksTx(ctx, tx, t.Events)
	})
	return created, err
}

// SetScheduleTickOutcome changes a recorded tick's outcome.
func (db *DB) SetScheduleTickOutcome(ctx context.Context, t store.ScheduleTick) (opErr error) {
	defer db.observe("SetScheduleTickOutcome", time.Now(), &opErr)
	_, err := db.pool.Exec(ctx, `UPDATE schedule_ticks SET outcome = $4, run_id = $5, time = $6 WHERE tenant = $1 AND schedule_id = $2 AND tick = $3`,
		t.Tenant, t.ScheduleID, store.Nanos(t.Tick), t.Outcome, t.RunID, store.Nanos(t.Time))
	return unavailable(ctx, "set schedule tick", err)
}

// ScheduleTicks returns a schedule's latest ticks, newest first.
func (db *DB) ScheduleTicks(ctx context.Context, tenant, scheduleID string, limit int) (_ []store.ScheduleTick, opErr error) {
	defer db.observe("ScheduleTicks", time.Now(), &opErr)
	rows, err := db.pool.Query(ctx, `SELECT tick, outcome, run_id, time FROM schedule_ticks WHERE tenant = $1 AND schedule_id = $2 ORDER BY tick DESC LIMIT $3`,
		tenant, scheduleID, limit)
	if err != nil {
		return nil, unavailable(ctx, "schedule ticks", err)
	}
	defer rows.Close()
	var out []store.ScheduleTick
	for rows.Next() {
		var tick, at int64
		t := store.ScheduleTick{Tenant: tenant, ScheduleID: scheduleID}
		if err := rows.Scan(&tick, &t.Outcome, &t.RunID, &at); err != nil {
			return nil, unavailable(ctx, "schedule ticks", err)
		}
		t.Tick, t.Time = store.FromNanos(tick), store.FromNanos(at)
		out = append(out, t)
	}
	return out, unavailable(ctx, "schedule ticks", rows.Err())
}
