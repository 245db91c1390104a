-- Migration 3: what observability needs.

-- What a SUSPENDED Run waits for, so Runs can be counted by it (the
-- metrics) without reading summaries; filled in for Runs suspended before.
ALTER TABLE runs ADD COLUMN suspension TEXT NOT NULL DEFAULT '';
UPDATE runs SET suspension = CASE
    WHEN (convert_from(summary, 'UTF8')::jsonb #>> '{suspension,inDoubt}') = 'true' THEN 'IN_DOUBT'
    ELSE COALESCE(convert_from(summary, 'UTF8')::jsonb #>> '{suspension,reason}', '') END
  WHERE state = 'SUSPENDED' AND summary IS NOT NULL;
CREATE INDEX runs_state ON runs (state, suspension);

-- The W3C trace context of a routed worker tool call, so the worker that
-- a serving replica hands it to continues the caller's trace.
ALTER TABLE tool_calls ADD COLUMN traceparent TEXT NOT NULL DEFAULT '';
