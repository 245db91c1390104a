-- A thread's history in one place (issue 30): each settled Run's part of
-- its thread's conversation, so that a Run on a thread reads the history
-- before it with one query instead of one log per earlier Run. A part is
-- deleted with its Run, and the thread counts its deleted Runs.
ALTER TABLE threads ADD COLUMN deletions INTEGER NOT NULL DEFAULT 0;

CREATE TABLE IF NOT EXISTS thread_history (
  tenant           TEXT    NOT NULL,
  run_id           TEXT    NOT NULL,
  thread_id        TEXT    NOT NULL,
  thread_seq       INTEGER NOT NULL,
  continues_run_id TEXT    NOT NULL,
  body             BLOB    NOT NULL,
  PRIMARY KEY (tenant, run_id)
);
CREATE INDEX IF NOT EXISTS thread_history_thread ON thread_history (tenant, thread_id, thread_seq);
