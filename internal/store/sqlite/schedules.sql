-- Migration 7: schedules (issue 34). A Run remembers the schedule and tick
-- that started it; a schedule keeps its definition (opaque), its progress
-- and a short lease; each tick's outcome is recorded once.
ALTER TABLE runs ADD COLUMN schedule_id TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN schedule_tick INTEGER NOT NULL DEFAULT 0;
CREATE INDEX IF NOT EXISTS runs_schedule ON runs (tenant, schedule_id, create_time DESC, run_id DESC) WHERE schedule_id != '';

CREATE TABLE IF NOT EXISTS schedules (
  tenant        TEXT    NOT NULL,
  schedule_id   TEXT    NOT NULL,
  body          BLOB    NOT NULL,
  paused        INTEGER NOT NULL DEFAULT 0,
  next_tick     INTEGER NOT NULL DEFAULT 0,
  due_at        INTEGER NOT NULL DEFAULT 0,
  count         INTEGER NOT NULL DEFAULT 0,
  last_run_id   TEXT    NOT NULL DEFAULT '',
  buffered_tick INTEGER NOT NULL DEFAULT 0,
  lease_owner   TEXT    NOT NULL DEFAULT '',
  lease_expires INTEGER NOT NULL DEFAULT 0,
  create_time   INTEGER NOT NULL,
  update_time   INTEGER NOT NULL,
  PRIMARY KEY (tenant, schedule_id)
);
CREATE INDEX IF NOT EXISTS schedules_due ON schedules (due_at) WHERE due_at > 0 AND paused = 0;

CREATE TABLE IF NOT EXISTS schedule_ticks (
  tenant      TEXT    NOT NULL,
  schedule_id TEXT    NOT NULL,
  tick        INTEGER NOT NULL,
  outcome     TEXT    NOT NULL,
  run_id      TEXT    NOT NULL DEFAULT '',
  time        INTEGER NOT NULL,
  PRIMARY KEY (tenant, schedule_id, tick)
);
