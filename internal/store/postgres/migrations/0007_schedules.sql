-- Migration 0007: schedules (issue 34). A Run remembers the schedule and tick
-- that started it; a schedule keeps its definition (opaque), its progress
-- and a short lease; each tick's outcome is recorded once.
ALTER TABLE runs ADD COLUMN schedule_id TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN schedule_tick BIGINT  NOT NULL DEFAULT 0;
CREATE INDEX runs_schedule ON runs (tenant, schedule_id, create_time DESC, run_id DESC) WHERE schedule_id <> '';

CREATE TABLE schedules (
  tenant        TEXT    NOT NULL,
  schedule_id   TEXT    COLLATE "C" NOT NULL,
  body          BYTEA   NOT NULL,
  paused        BOOLEAN NOT NULL DEFAULT false,
  next_tick     BIGINT  NOT NULL DEFAULT 0,
  due_at        BIGINT  NOT NULL DEFAULT 0,
  count         BIGINT  NOT NULL DEFAULT 0,
  last_run_id   TEXT    NOT NULL DEFAULT '',
  buffered_tick BIGINT  NOT NULL DEFAULT 0,
  lease_owner   TEXT    NOT NULL DEFAULT '',
  lease_expires BIGINT  NOT NULL DEFAULT 0,
  create_time   BIGINT  NOT NULL,
  update_time   BIGINT  NOT NULL,
  PRIMARY KEY (tenant, schedule_id)
);
CREATE INDEX schedules_due ON schedules (due_at) WHERE due_at > 0 AND NOT paused;

CREATE TABLE schedule_ticks (
  tenant      TEXT    NOT NULL,
  schedule_id TEXT    NOT NULL,
  tick        BIGINT  NOT NULL,
  outcome     TEXT    NOT NULL,
  run_id      TEXT    NOT NULL DEFAULT '',
  time        BIGINT  NOT NULL,
  PRIMARY KEY (tenant, schedule_id, tick)
);
