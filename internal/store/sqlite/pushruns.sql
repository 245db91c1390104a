-- A2A push-notification configs name their Run (issue 35's follow-up): a
-- config is deleted with its Run, and the subscriptions every replica
-- keeps in memory hold only configs of Runs not settled
-- (ListLiveSubscriptions). A tenant's own subscriptions have run_id ''.
-- live is 1 until RetireSubscriptions sees the config's Run settled (or
-- gone): the copy's refresh reads only live configs (checking each Run),
-- so its cost follows the configs of Runs not long settled, neither every
-- config ever set nor every live Run.
ALTER TABLE webhook_subscriptions ADD COLUMN run_id TEXT NOT NULL DEFAULT '';
ALTER TABLE webhook_subscriptions ADD COLUMN live INTEGER NOT NULL DEFAULT 1;
-- A config's id is "a2a-<run>-<config>" and run ids ("run_" and a
-- base32 id) hold no '-'.
UPDATE webhook_subscriptions SET run_id = substr(id, 5, instr(substr(id, 5) || '-', '-') - 1)
  WHERE event_types = '["a2a.task"]' AND id LIKE 'a2a-%';
-- Configs whose Run is already gone go now, with their outbox rows and log.
DELETE FROM webhook_deliveries WHERE EXISTS (SELECT 1 FROM webhook_subscriptions s
  WHERE s.tenant = webhook_deliveries.tenant AND s.id = webhook_deliveries.subscription_id AND s.run_id != ''
  AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.tenant = s.tenant AND r.run_id = s.run_id));
DELETE FROM webhook_attempts WHERE EXISTS (SELECT 1 FROM webhook_subscriptions s
  WHERE s.tenant = webhook_attempts.tenant AND s.id = webhook_attempts.subscription_id AND s.run_id != ''
  AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.tenant = s.tenant AND r.run_id = s.run_id));
DELETE FROM webhook_subscriptions WHERE run_id != ''
  AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.tenant = webhook_subscriptions.tenant AND r.run_id = webhook_subscriptions.run_id);
UPDATE webhook_subscriptions SET live = 0 WHERE run_id != '' AND NOT EXISTS (SELECT 1 FROM runs r
  WHERE r.tenant = webhook_subscriptions.tenant AND r.run_id = webhook_subscriptions.run_id AND r.state IN ('QUEUED', 'RUNNING', 'SUSPENDED'));
-- Serves the tenant's own subscriptions (run_id = '') and a Run's configs.
CREATE INDEX IF NOT EXISTS webhook_subscriptions_run ON webhook_subscriptions (run_id, tenant);
-- Serves the live configs.
CREATE INDEX IF NOT EXISTS webhook_subscriptions_live ON webhook_subscriptions (tenant, run_id) WHERE live = 1 AND run_id != '';
