package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/pagetoken"
)

var _ store.Schedules = (*DB)(nil)

const scheduleColumns = `tenant, schedule_id, body, paused, next_tick, due_at, count, last_run_id, buffered_tick,
	lease_owner, lease_expires, create_time, update_time`

func scanSchedule(row scanner) (store.Schedule, error) {
	var s store.Schedule
	var paused int
	var next, due, buffered, expires, created, updated int64
	err := row.Scan(&s.Tenant, &s.ScheduleID, &s.Body, &paused, &next, &due, &s.Progress.Count, &s.Progress.LastRunID, &buffered,
		&s.LeaseOwner, &expires, &created, &updated)
	if err != nil {
		return store.Schedule{}, err
	}
	s.Paused = paused == 1
	s.Progress.NextTick, s.Progress.DueAt, s.Progress.BufferedTick = store.FromNanos(next), store.FromNanos(due), store.FromNanos(buffered)
	s.LeaseExpires, s.CreateTime, s.UpdateTime = store.FromNanos(expires), store.FromNanos(created), store.FromNanos(updated)
	return s, nil
}

// CreateSchedule stores a schedule unless its id exists.
func (db *DB) CreateSchedule(ctx context.Context, s store.Schedule) (_ store.Schedule, _ bool, opErr error) {
	defer db.observe("CreateSchedule", time.Now(), &opErr)
	var existing store.Schedule
	created := false
	err := db.exec(ctx, "create schedule", func(tx *sql.Tx) error {
		found, err := scanSchedule(tx.QueryRow(`SELECT `+scheduleColumns+` FROM schedules WHERE tenant = ? AND schedule_id = ?`, s.Tenant, s.ScheduleID))
		if err == nil {
			existing = found
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return unavailable("create schedule", err)
		}
		p := s.Progress
		_, err = tx.Exec(`INSERT INTO schedules (`+scheduleColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, '', 0, ?, ?)`,
			s.Tenant, s.ScheduleID, s.Body, boolInt(s.Paused), store.Nanos(p.NextTick), store.Nanos(p.DueAt), p.Count, p.LastRunID,
			store.Nanos(p.BufferedTick), store.Nanos(s.CreateTime), store.Nanos(s.CreateTime))
		created = err == nil
		return unavailable("create schedule", err)
	})
	if err != nil {
		return store.Schedule{}, false, err
	}
	if !created {
		return existing, false, nil
	}
	s.UpdateTime = s.CreateTime
	return s, true, nil
}

// GetSchedule returns a schedule.
func (db *DB) GetSchedule(ctx context.Context, tenant, scheduleID string) (_ store.Schedule, opErr error) {
	defer db.observe("GetSchedule", time.Now(), &opErr)
	rows, err := db.query(ctx, `SELECT `+scheduleColumns+` FROM schedules WHERE tenant = ? AND schedule_id = ?`, tenant, scheduleID)
	if err != nil {
		return store.Schedule{}, unavailable("get schedule", err)
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return store.Schedule{}, unavailable("get schedule", err)
		}
		return store.Schedule{}, &errs.ScheduleNotFound{ScheduleID: scheduleID}
	}
	s, err := scanSchedule(rows)
	return s, unavailable("get schedule", err)
}

// ListSchedules lists a tenant's schedules by id.
func (db *DB) ListSchedules(ctx context.Context, tenant string, q store.ScheduleQuery) (_ []store.Schedule, _ string, opErr error) {
	defer db.observe("ListSchedules", time.Now(), &opErr)
	size := pagetoken.Size(q.PageSize)
	var after pagetoken.RunPosition
	if err := pagetoken.Decode(q.PageToken, &after); err != nil {
		return nil, "", err
	}
	out, err := db.schedules(ctx, `SELECT `+scheduleColumns+` FROM schedules WHERE tenant = ? AND schedule_id > ? ORDER BY schedule_id LIMIT ?`,
		tenant, after.RunID, size+1)
	if err != nil {
		return nil, "", unavailable("list schedules", err)
	}
	next := ""
	if len(out) > size {
		out = out[:size]
		next = pagetoken.Encode(pagetoken.RunPosition{RunID: out[size-1].ScheduleID})
	}
	return out, next, nil
}

func (db *DB) schedules(ctx context.Context, query string, args ...any) ([]store.Schedule, error) {
	rows, err := db.query(ctx, query, args...)
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
	return db.exec(ctx, "delete schedule", func(tx *sql.Tx) error {
		res, err := tx.Exec(`DELETE FROM schedules WHERE tenant = ? AND schedule_id = ?`, tenant, scheduleID)
		if err != nil {
			return unavailable("delete schedule", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return &errs.ScheduleNotFound{ScheduleID: scheduleID}
		}
		_, err = tx.Exec(`DELETE FROM schedule_ticks WHERE tenant = ? AND schedule_id = ?`, tenant, scheduleID)
		return unavailable("delete schedule", err)
	})
}

// SetSchedulePaused pauses or resumes a schedule.
func (db *DB) SetSchedulePaused(ctx context.Context, tenant, scheduleID string, paused bool, p *store.ScheduleProgress, now time.Time) (_ store.Schedule, opErr error) {
	defer db.observe("SetSchedulePaused", time.Now(), &opErr)
	var out store.Schedule
	err := db.exec(ctx, "pause schedule", func(tx *sql.Tx) error {
		var err error
		if p == nil {
			_, err = tx.Exec(`UPDATE schedules SET paused = ?, update_time = ? WHERE tenant = ? AND schedule_id = ?`,
				boolInt(paused), store.Nanos(now), tenant, scheduleID)
		} else {
			_, err = tx.Exec(`UPDATE schedules SET paused = ?, update_time = ?, next_tick = ?, due_at = ?, count = ?, last_run_id = ?, buffered_tick = ?
				WHERE tenant = ? AND schedule_id = ?`, boolInt(paused), store.Nanos(now), store.Nanos(p.NextTick), store.Nanos(p.DueAt), p.Count,
				p.LastRunID, store.Nanos(p.BufferedTick), tenant, scheduleID)
		}
		if err != nil {
			return unavailable("pause schedule", err)
		}
		out, err = scanSchedule(tx.QueryRow(`SELECT `+scheduleColumns+` FROM schedules WHERE tenant = ? AND schedule_id = ?`, tenant, scheduleID))
		if errors.Is(err, sql.ErrNoRows) {
			return &errs.ScheduleNotFound{ScheduleID: scheduleID}
		}
		return unavailable("pause schedule", err)
	})
	return out, err
}

// DueSchedules returns schedules due at now and not leased.
func (db *DB) DueSchedules(ctx context.Context, now time.Time, limit int) (_ []store.Schedule, opErr error) {
	defer db.observe("DueSchedules", time.Now(), &opErr)
	out, err := db.schedules(ctx, `SELECT `+scheduleColumns+` FROM schedules WHERE due_at > 0 AND paused = 0 AND due_at <= ? AND lease_expires <= ?
		ORDER BY due_at LIMIT ?`, store.Nanos(now), store.Nanos(now), limit)
	return out, unavailable("due schedules", err)
}

// NextScheduleDue returns the earliest due time.
func (db *DB) NextScheduleDue(ctx context.Context) (_ time.Time, _ bool, opErr error) {
	defer db.observe("NextScheduleDue", time.Now(), &opErr)
	var due sql.NullInt64
	rows, err := db.query(ctx, `SELECT MIN(due_at) FROM schedules WHERE due_at > 0 AND paused = 0`)
	if err != nil {
		return time.Time{}, false, unavailable("next schedule due", err)
	}
	defer rows.Close()
	if rows.Next() {
		if err := rows.Scan(&due); err != nil {
			return time.Time{}, false, unavailable("next schedule due", err)
		}
	}
	return store.FromNanos(due.Int64), due.Valid, unavailable("next schedule due", rows.Err())
}

// ClaimSchedule leases a schedule if its lease is free.
func (db *DB) ClaimSchedule(ctx context.Context, tenant, scheduleID, owner string, now, expires time.Time) (_ store.Schedule, _ bool, opErr error) {
	defer db.observe("ClaimSchedule", time.Now(), &opErr)
	var out store.Schedule
	claimed := false
	err := db.exec(ctx, "claim schedule", func(tx *sql.Tx) error {
		res, err := tx.Exec(`UPDATE schedules SET lease_owner = ?, lease_expires = ? WHERE tenant = ? AND schedule_id = ? AND paused = 0 AND lease_expires <= ?`,
			owner, store.Nanos(expires), tenant, scheduleID, store.Nanos(now))
		if err != nil {
			return unavailable("claim schedule", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		out, err = scanSchedule(tx.QueryRow(`SELECT `+scheduleColumns+` FROM schedules WHERE tenant = ? AND schedule_id = ?`, tenant, scheduleID))
		claimed = err == nil
		return unavailable("claim schedule", err)
	})
	return out, claimed, err
}

// SaveScheduleProgress stores progress and releases owner's lease.
func (db *DB) SaveScheduleProgress(ctx context.Context, tenant, scheduleID, owner string, p store.ScheduleProgress, now time.Time) (_ bool, opErr error) {
	defer db.observe("SaveScheduleProgress", time.Now(), &opErr)
	saved := false
	err := db.exec(ctx, "save schedule progress", func(tx *sql.Tx) error {
		res, err := tx.Exec(`UPDATE schedules SET next_tick = ?, due_at = ?, count = ?, last_run_id = ?, buffered_tick = ?, update_time = ?,
			lease_owner = '', lease_expires = 0 WHERE tenant = ? AND schedule_id = ? AND lease_owner = ?`,
			store.Nanos(p.NextTick), store.Nanos(p.DueAt), p.Count, p.LastRunID, store.Nanos(p.BufferedTick), store.Nanos(now), tenant, scheduleID, owner)
		if err != nil {
			return unavailable("save schedule progress", err)
		}
		n, _ := res.RowsAffected()
		saved = n == 1
		return nil
	})
	return saved, err
}

// PutScheduleTick records a tick's outcome once.
func (db *DB) PutScheduleTick(ctx context.Context, t store.ScheduleTick) (_ store.ScheduleTick, _ bool, opErr error) {
	defer db.observe("PutScheduleTick", time.Now(), &opErr)
	out, created := t, false
	err := db.exec(ctx, "put schedule tick", func(tx *sql.Tx) error {
		res, err := tx.Exec(`INSERT INTO schedule_ticks (tenant, schedule_id, tick, outcome, run_id, time) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
			t.Tenant, t.ScheduleID, store.Nanos(t.Tick), t.Outcome, t.RunID, store.Nanos(t.Time))
		if err != nil {
			return unavailable("put schedule tick", err)
		}
		if n, _ := res.RowsAffected(); n == 1 {
			created = true
			return EnqueueWebhooksTx(tx, t.Events)
		}
		var at int64
		err = tx.QueryRow(`SELECT outcome, run_id, time FROM schedule_ticks WHERE tenant = ? AND schedule_id = ? AND tick = ?`,
			t.Tenant, t.ScheduleID, store.Nanos(t.Tick)).Scan(&out.Outcome, &out.RunID, &at)
		out.Time = store.FromNanos(at)
		return unavailable("put schedule tick", err)
	})
	return out, created, err
}

// SetScheduleTickOutcome changes a recorded tick's outcome.
func (db *DB) SetScheduleTickOutcome(ctx context.Context, t store.ScheduleTick) (opErr error) {
	defer db.observe("SetScheduleTickOutcome", time.Now(), &opErr)
	return db.exec(ctx, "set schedule tick", func(tx *sql.Tx) error {
		_, err := tx.Exec(`UPDATE schedule_ticks SET outcome = ?, run_id = ?, time = ? WHERE tenant = ? AND schedule_id = ? AND tick = ?`,
			t.Outcome, t.RunID, store.Nanos(t.Time), t.Tenant, t.ScheduleID, store.Nanos(t.Tick))
		return unavailable("set schedule tick", err)
	})
}

// ScheduleTicks returns a schedule's latest ticks, newest first.
func (db *DB) ScheduleTicks(ctx context.Context, tenant, scheduleID string, limit int) (_ []store.ScheduleTick, opErr error) {
	defer db.observe("ScheduleTicks", time.Now(), &opErr)
	rows, err := db.query(ctx, `SELECT tick, outcome, run_id, time FROM schedule_ticks WHERE tenant = ? AND schedule_id = ? ORDER BY tick DESC LIMIT ?`,
		tenant, scheduleID, limit)
	if err != nil {
		return nil, unavailable("schedule ticks", err)
	}
	defer rows.Close()
	var out []store.ScheduleTick
	for rows.Next() {
		var tick, at int64
		t := store.ScheduleTick{Tenant: tenant, ScheduleID: scheduleID}
		if err := rows.Scan(&tick, &t.Outcome, &t.RunID, &at); err != nil {
			return nil, unavailable("schedule ticks", err)
		}
		t.Tick, t.Time = store.FromNanos(tick), store.FromNanos(at)
		out = append(out, t)
	}
	return out, unavailable("schedule ticks", rows.Err())
}
