-- Migration 2: worker tool calls routed between replicas. Times are unix
-- nanoseconds (0 for none), as in the first schema.

-- What each replica's connected workers serve, live until expires.
CREATE TABLE IF NOT EXISTS tool_adverts (
  tenant      TEXT    NOT NULL,
  tool        TEXT    NOT NULL,
  replica     TEXT    NOT NULL,
  description TEXT    NOT NULL DEFAULT '',
  parameters  BLOB,
  workers     INTEGER NOT NULL,
  expires     INTEGER NOT NULL,
  PRIMARY KEY (tenant, tool, replica)
);
CREATE INDEX IF NOT EXISTS tool_adverts_replica ON tool_adverts (replica);

-- Calls waiting for, held by, or answered by a serving replica.
CREATE TABLE IF NOT EXISTS tool_calls (
  ord             INTEGER PRIMARY KEY AUTOINCREMENT,
  tenant          TEXT    NOT NULL,
  call_id         TEXT    NOT NULL,
  run_id          TEXT    NOT NULL DEFAULT '',
  tool            TEXT    NOT NULL,
  arguments       BLOB    NOT NULL,
  deadline        INTEGER NOT NULL DEFAULT 0,
  create_time     INTEGER NOT NULL,
  claim_owner     TEXT    NOT NULL DEFAULT '',
  claim_token     INTEGER NOT NULL DEFAULT 0,
  claim_expires   INTEGER NOT NULL DEFAULT 0,
  claims          INTEGER NOT NULL DEFAULT 0,
  done            INTEGER NOT NULL DEFAULT 0,
  output          BLOB,
  failed          INTEGER NOT NULL DEFAULT 0,
  failure_message TEXT    NOT NULL DEFAULT '',
  retryable       INTEGER NOT NULL DEFAULT 0,
  complete_time   INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX IF NOT EXISTS tool_calls_id ON tool_calls (tenant, call_id);
CREATE INDEX IF NOT EXISTS tool_calls_open ON tool_calls (tenant, tool, ord) WHERE done = 0;
