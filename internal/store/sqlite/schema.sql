CREATE TABLE IF NOT EXISTS specs (
  tenant      TEXT    NOT NULL,
  name        TEXT    NOT NULL,
  version     TEXT    NOT NULL,
  body        BLOB    NOT NULL,
  create_time INTEGER NOT NULL,
  ord         INTEGER NOT NULL,
  PRIMARY KEY (tenant, name, version)
);
CREATE INDEX IF NOT EXISTS specs_newest ON specs (tenant, name, ord);

CREATE TABLE IF NOT EXISTS runs (
  tenant        TEXT    NOT NULL,
  run_id        TEXT    NOT NULL,
  spec          TEXT    NOT NULL,
  version       TEXT    NOT NULL,
  request_id    TEXT    NOT NULL DEFAULT '',
  request_hash  TEXT    NOT NULL DEFAULT '',
  parent_run_id TEXT    NOT NULL DEFAULT '',
  root_run_id   TEXT    NOT NULL DEFAULT '',
  delegation_id TEXT    NOT NULL DEFAULT '',
  state         TEXT    NOT NULL,
  runnable      INTEGER NOT NULL,
  wake_at       INTEGER NOT NULL DEFAULT 0,
  summary       BLOB,
  last_seq      INTEGER NOT NULL,
  create_time   INTEGER NOT NULL,
  update_time   INTEGER NOT NULL,
  lease_owner   TEXT    NOT NULL DEFAULT '',
  lease_token   INTEGER NOT NULL DEFAULT 0,
  lease_expires INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant, run_id)
);
CREATE UNIQUE INDEX IF NOT EXISTS runs_request ON runs (tenant, request_id) WHERE request_id != '';
CREATE INDEX IF NOT EXISTS runs_runnable ON runs (update_time) WHERE runnable = 1;
CREATE INDEX IF NOT EXISTS runs_wake ON runs (wake_at) WHERE wake_at > 0;
CREATE INDEX IF NOT EXISTS runs_newest ON runs (tenant, create_time DESC, run_id DESC);
CREATE INDEX IF NOT EXISTS runs_parent ON runs (tenant, parent_run_id) WHERE parent_run_id != '';
CREATE INDEX IF NOT EXISTS runs_delegation ON runs (tenant, delegation_id) WHERE delegation_id != '';

CREATE TABLE IF NOT EXISTS records (
  tenant  TEXT    NOT NULL,
  run_id  TEXT    NOT NULL,
  seq     INTEGER NOT NULL,
  time    INTEGER NOT NULL,
  attempt INTEGER NOT NULL,
  kind    TEXT    NOT NULL,
  body    BLOB    NOT NULL,
  PRIMARY KEY (tenant, run_id, seq)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS memory (
  tenant      TEXT    NOT NULL,
  namespace   TEXT    NOT NULL,
  key         TEXT    NOT NULL,
  value       BLOB    NOT NULL,
  version     INTEGER NOT NULL,
  update_time INTEGER NOT NULL,
  PRIMARY KEY (tenant, namespace, key)
);
CREATE INDEX IF NOT EXISTS memory_versions ON memory (tenant, namespace, version);

CREATE TABLE IF NOT EXISTS bus_channels (
  tenant  TEXT NOT NULL,
  channel TEXT NOT NULL,
  owner   TEXT NOT NULL,
  PRIMARY KEY (tenant, channel, owner)
);

CREATE TABLE IF NOT EXISTS bus_messages (
  ord             INTEGER PRIMARY KEY AUTOINCREMENT,
  tenant          TEXT    NOT NULL,
  message_id      TEXT    NOT NULL,
  channel         TEXT    NOT NULL,
  sender          TEXT    NOT NULL,
  content         BLOB    NOT NULL,
  in_reply_to     TEXT    NOT NULL DEFAULT '',
  send_time       INTEGER NOT NULL,
  out_until       INTEGER NOT NULL DEFAULT 0,
  delivery_count  INTEGER NOT NULL DEFAULT 0,
  acked           INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX IF NOT EXISTS bus_messages_id ON bus_messages (tenant, message_id);
CREATE INDEX IF NOT EXISTS bus_pending ON bus_messages (tenant, channel, ord) WHERE acked = 0;
