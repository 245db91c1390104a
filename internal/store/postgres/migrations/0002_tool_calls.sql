-- Worker tool calls routed between replicas: a replica whose Run calls a
-- tool that only another replica's workers serve enqueues the call here,
-- and a serving replica claims it and records the result.

-- What each replica's connected workers serve, live until expires; each
-- replica pushes expires back while it lives.
CREATE TABLE tool_adverts (
  tenant      TEXT    NOT NULL,
  tool        TEXT    COLLATE "C" NOT NULL,
  replica     TEXT    COLLATE "C" NOT NULL,
  description TEXT    NOT NULL DEFAULT '',
  parameters  BYTEA,
  workers     INTEGER NOT NULL,
  expires     BIGINT  NOT NULL,
  PRIMARY KEY (tenant, tool, replica)
);
CREATE INDEX tool_adverts_replica ON tool_adverts (replica);

-- Calls waiting for, held by, or answered by a serving replica. A claim
-- is a lease: claim_token tells one claim from the next, and a claim past
-- claim_expires may be taken by another replica.
CREATE TABLE tool_calls (
  tenant          TEXT    NOT NULL,
  call_id         TEXT    NOT NULL,
  ord             BIGINT  GENERATED ALWAYS AS IDENTITY,
  run_id          TEXT    NOT NULL DEFAULT '',
  tool            TEXT    NOT NULL,
  arguments       BYTEA   NOT NULL,
  deadline        BIGINT  NOT NULL DEFAULT 0,
  create_time     BIGINT  NOT NULL,
  claim_owner     TEXT    NOT NULL DEFAULT '',
  claim_token     BIGINT  NOT NULL DEFAULT 0,
  claim_expires   BIGINT  NOT NULL DEFAULT 0,
  claims          INTEGER NOT NULL DEFAULT 0,
  done            BOOLEAN NOT NULL DEFAULT false,
  output          BYTEA,
  failed          BOOLEAN NOT NULL DEFAULT false,
  failure_message TEXT    NOT NULL DEFAULT '',
  retryable       BOOLEAN NOT NULL DEFAULT false,
  complete_time   BIGINT  NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant, call_id)
);
CREATE INDEX tool_calls_open ON tool_calls (tenant, tool, ord) WHERE NOT done;
