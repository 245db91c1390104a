-- Threads (issue 15): a Run may continue a thread; one Run per thread is
-- active at a time, the others wait in thread_seq order.
ALTER TABLE runs ADD COLUMN thread_id        TEXT    NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN thread_seq       INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN continues_run_id TEXT    NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN waiting          INTEGER NOT NULL DEFAULT 0;
CREATE INDEX IF NOT EXISTS runs_thread ON runs (tenant, thread_id, thread_seq) WHERE thread_id != '';
-- Never two active Runs on one thread, whatever the writers do.
CREATE UNIQUE INDEX IF NOT EXISTS runs_thread_active ON runs (tenant, thread_id)
  WHERE thread_id != '' AND waiting = 0 AND state NOT IN ('COMPLETED', 'FAILED', 'ABORTED', 'ABANDONED');

CREATE TABLE IF NOT EXISTS threads (
  tenant        TEXT    NOT NULL,
  thread_id     TEXT    NOT NULL,
  create_time   INTEGER NOT NULL,
  update_time   INTEGER NOT NULL,
  active_run_id TEXT    NOT NULL DEFAULT '',
  last_run_id   TEXT    NOT NULL DEFAULT '',
  runs          INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant, thread_id)
);
CREATE INDEX IF NOT EXISTS threads_newest ON threads (tenant, create_time DESC, thread_id DESC);
