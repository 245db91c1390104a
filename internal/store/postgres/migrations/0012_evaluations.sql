-- Replay evaluations (issue 37): an evaluation and the namespace of its
-- replay Runs, which production lists never show.
ALTER TABLE runs ADD COLUMN evaluation_id TEXT COLLATE "C" NOT NULL DEFAULT '';
CREATE INDEX runs_evaluation ON runs (tenant, evaluation_id) WHERE evaluation_id <> '';

CREATE TABLE evaluations (
  tenant        TEXT   COLLATE "C" NOT NULL,
  evaluation_id TEXT   COLLATE "C" NOT NULL,
  spec          TEXT   NOT NULL,
  version       TEXT   NOT NULL,
  body          BYTEA  NOT NULL,
  create_time   BIGINT NOT NULL,
  PRIMARY KEY (tenant, evaluation_id)
);
CREATE INDEX evaluations_newest ON evaluations (tenant, create_time DESC, evaluation_id DESC);
