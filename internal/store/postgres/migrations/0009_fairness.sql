-- Priority and fairness (issue 35): a claim takes the highest priority
-- first and, within a priority, the lowest place in the fairness keys'
-- turns (fair_pass), so one key's thousands of waiting Runs do not hold
-- back another key's few. fair_keys holds each key's latest place.
ALTER TABLE runs ADD COLUMN priority     SMALLINT NOT NULL DEFAULT 3;
ALTER TABLE runs ADD COLUMN fairness_key TEXT     NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN fair_pass    BIGINT   NOT NULL DEFAULT 0;
DROP INDEX runs_runnable;
CREATE INDEX runs_claim ON runs (priority DESC, fair_pass, update_time) WHERE runnable;

CREATE TABLE fair_keys (
  fairness_key TEXT   COLLATE "C" PRIMARY KEY,
  pass         BIGINT NOT NULL
);
CREATE INDEX fair_keys_pass ON fair_keys (pass);
