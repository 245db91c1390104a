-- Replay evaluations (issue 37): an evaluation and the namespace of its
-- replay Runs, which production lists never show.
ALTER TABLE runs ADD COLUMN evaluation_id TEXT NOT NULL DEFAULT '';
CREATE INDEX IF NOT EXISTS runs_evaluation ON runs (tenant, evaluation_id) WHERE evaluation_id != '';

CREATE TABLE IF NOT EXISTS evaluations (
  tenant        TEXT    NOT NULL,
  evaluation_id TEXT    NOT NULL,
  spec          TEXT    NOT NULL,
  version       TEXT    NOT NULL,
  body          BLOB    NOT NULL,
  create_time   INTEGER NOT NULL,
  PRIMARY KEY (tenant, evaluation_id)
);
CREATE INDEX IF NOT EXISTS evaluations_newest ON evaluations (tenant, create_time DESC, evaluation_id DESC);
