-- Migration 5: what sleeping Runs and lists cost grows with what they
-- return, not with what the store holds.

-- NextWake is the smallest key of this index: a Run with a wake time may
-- be claimed once that time passed and no lease holds it.
CREATE INDEX runs_due ON runs (GREATEST(wake_at, lease_expires)) WHERE wake_at > 0;

-- ListRuns' filters, each in the list's order so that a page is a range.
CREATE INDEX runs_spec ON runs (tenant, spec, create_time DESC, run_id DESC);
CREATE INDEX runs_state_newest ON runs (tenant, state, create_time DESC, run_id DESC);
DROP INDEX runs_parent;
CREATE INDEX runs_parent ON runs (tenant, parent_run_id, create_time DESC, run_id DESC) WHERE parent_run_id <> '';
