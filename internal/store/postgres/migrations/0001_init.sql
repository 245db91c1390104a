-- The first schema. Every table is keyed by tenant first; times are unix
-- nanoseconds (0 for none) so that they round-trip exactly. Columns that
-- lists page through are COLLATE "C": byte order, whatever the database's
-- locale, as in the SQLite store.

CREATE TABLE specs (
  tenant      TEXT   NOT NULL,
  name        TEXT   COLLATE "C" NOT NULL,
  version     TEXT   NOT NULL,
  body        BYTEA  NOT NULL,
  create_time BIGINT NOT NULL,
  ord         BIGINT GENERATED ALWAYS AS IDENTITY,
  PRIMARY KEY (tenant, name, version)
);
CREATE INDEX specs_newest ON specs (tenant, name, ord);

CREATE TABLE runs (
  tenant        TEXT    NOT NULL,
  run_id        TEXT    COLLATE "C" NOT NULL,
  spec          TEXT    NOT NULL,
  version       TEXT    NOT NULL,
  request_id    TEXT    NOT NULL DEFAULT '',
  request_hash  TEXT    NOT NULL DEFAULT '',
  parent_run_id TEXT    NOT NULL DEFAULT '',
  root_run_id   TEXT    NOT NULL DEFAULT '',
  delegation_id TEXT    NOT NULL DEFAULT '',
  state         TEXT    NOT NULL,
  runnable      BOOLEAN NOT NULL,
  wake_at       BIGINT  NOT NULL DEFAULT 0,
  summary       BYTEA,
  last_seq      BIGINT  NOT NULL,
  create_time   BIGINT  NOT NULL,
  update_time   BIGINT  NOT NULL,
  lease_owner   TEXT    NOT NULL DEFAULT '',
  lease_token   BIGINT  NOT NULL DEFAULT 0,
  lease_expires BIGINT  NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant, run_id)
);
CREATE UNIQUE INDEX runs_request ON runs (tenant, request_id) WHERE request_id <> '';
-- Claims look across tenants: these two serve Claim and NextWake.
CREATE INDEX runs_runnable ON runs (update_time) WHERE runnable;
CREATE INDEX runs_wake ON runs (wake_at) WHERE wake_at > 0;
CREATE INDEX runs_newest ON runs (tenant, create_time DESC, run_id DESC);
CREATE INDEX runs_parent ON runs (tenant, parent_run_id) WHERE parent_run_id <> '';
CREATE INDEX runs_delegation ON runs (tenant, delegation_id) WHERE delegation_id <> '';

CREATE TABLE records (
  tenant  TEXT    NOT NULL,
  run_id  TEXT    NOT NULL,
  seq     BIGINT  NOT NULL,
  time    BIGINT  NOT NULL,
  attempt INTEGER NOT NULL,
  kind    TEXT    NOT NULL,
  body    BYTEA   NOT NULL,
  -- The unique key that makes every append conditional on seq.
  PRIMARY KEY (tenant, run_id, seq)
);

-- One row per memory, holding its last version: writers of a memory take
-- its row lock, so versions increase in commit order.
CREATE TABLE memory_namespaces (
  tenant       TEXT   NOT NULL,
  namespace    TEXT   NOT NULL,
  last_version BIGINT NOT NULL,
  PRIMARY KEY (tenant, namespace)
);

CREATE TABLE memory (
  tenant      TEXT   NOT NULL,
  namespace   TEXT   NOT NULL,
  key         TEXT   NOT NULL,
  value       BYTEA  NOT NULL,
  version     BIGINT NOT NULL,
  update_time BIGINT NOT NULL,
  PRIMARY KEY (tenant, namespace, key)
);
CREATE INDEX memory_versions ON memory (tenant, namespace, version);

CREATE TABLE bus_channels (
  tenant  TEXT NOT NULL,
  channel TEXT NOT NULL,
  owner   TEXT NOT NULL,
  PRIMARY KEY (tenant, channel, owner)
);

CREATE TABLE bus_messages (
  tenant         TEXT    NOT NULL,
  message_id     TEXT    NOT NULL,
  ord            BIGINT  GENERATED ALWAYS AS IDENTITY,
  channel        TEXT    NOT NULL,
  sender         TEXT    NOT NULL,
  content        BYTEA   NOT NULL,
  in_reply_to    TEXT    NOT NULL DEFAULT '',
  send_time      BIGINT  NOT NULL,
  out_until      BIGINT  NOT NULL DEFAULT 0,
  delivery_count INTEGER NOT NULL DEFAULT 0,
  acked          BOOLEAN NOT NULL DEFAULT false,
  PRIMARY KEY (tenant, message_id)
);
CREATE INDEX bus_pending ON bus_messages (tenant, channel, ord) WHERE NOT acked;
