-- A2A push-notification configs name their Run (issue 35's follow-up): a
-- config is deleted with its Run, and the subscriptions every replica
-- keeps in memory hold only configs of Runs not settled
-- (ListLiveSubscriptions). A tenant's own subscriptions have run_id ''.
-- IF NOT EXISTS: a test rolls a database back to schema 2 by deleting
-- schema_migrations rows, leaving the webhook tables in place.
ALTER TABLE webhook_subscriptions ADD COLUMN IF NOT EXISTS run_id TEXT COLLATE "C" NOT NULL DEFAULT '';
-- live is true until RetireSubscriptions sees the config's Run settled
-- (or gone): the copy's refresh reads only live configs (checking each
-- Run), so its cost follows the configs of Runs not long settled, neither
-- every config ever set nor every live Run.
ALTER TABLE webhook_subscriptions ADD COLUMN IF NOT EXISTS live BOOLEAN NOT NULL DEFAULT true;
-- A config's id is "a2a-<run>-<config>" and run ids ("run_" and a
-- base32 id) hold no '-'.
UPDATE webhook_subscriptions SET run_id = split_part(substr(id, 5), '-', 1)
  WHERE event_types = '["a2a.task"]' AND id LIKE 'a2a-%';
-- Configs whose Run is already gone go now, with their outbox rows and log.
DELETE FROM webhook_deliveries d USING webhook_subscriptions s
  WHERE d.tenant = s.tenant AND d.subscription_id = s.id AND s.run_id <> ''
  AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.tenant = s.tenant AND r.run_id = s.run_id);
DELETE FROM webhook_attempts a USING webhook_subscriptions s
  WHERE a.tenant = s.tenant AND a.subscription_id = s.id AND s.run_id <> ''
  AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.tenant = s.tenant AND r.run_id = s.run_id);
DELETE FROM webhook_subscriptions s WHERE s.run_id <> ''
  AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.tenant = s.tenant AND r.run_id = s.run_id);
UPDATE webhook_subscriptions s SET live = false WHERE s.run_id <> '' AND NOT EXISTS (SELECT 1 FROM runs r
  WHERE r.tenant = s.tenant AND r.run_id = s.run_id AND r.state IN ('QUEUED', 'RUNNING', 'SUSPENDED'));
-- Serves the tenant's own subscriptions (run_id = '') and a Run's configs.
CREATE INDEX IF NOT EXISTS webhook_subscriptions_run ON webhook_subscriptions (run_id, tenant);
-- Serves the live configs.
CREATE INDEX IF NOT EXISTS webhook_subscriptions_live ON webhook_subscriptions (tenant, run_id) WHERE live AND run_id <> '';
