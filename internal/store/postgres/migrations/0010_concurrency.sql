-- Concurrency keys (issue 35): at most a key's limit of Runs hold a slot
-- (key_state 1) at once; the others wait (key_state 2, not runnable) in
-- key_seq order, and the settle of a holder hands its slot on in the same
-- transaction, which locks the key's row (internal/store/keyqueue).
-- Written to apply again over itself (a test rewinds the schema).
ALTER TABLE runs ADD COLUMN IF NOT EXISTS concurrency_key TEXT     NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN IF NOT EXISTS key_seq         INTEGER  NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN IF NOT EXISTS key_state       SMALLINT NOT NULL DEFAULT 0;
CREATE INDEX IF NOT EXISTS runs_key ON runs (tenant, concurrency_key, key_seq) WHERE key_state <> 0;

CREATE TABLE IF NOT EXISTS concurrency_keys (
  tenant          TEXT    NOT NULL,
  concurrency_key TEXT    COLLATE "C" NOT NULL,
  key_limit       INTEGER NOT NULL DEFAULT 1,
  held            INTEGER NOT NULL DEFAULT 0,
  runs            INTEGER NOT NULL DEFAULT 0,
  update_time     BIGINT  NOT NULL,
  PRIMARY KEY (tenant, concurrency_key)
);
