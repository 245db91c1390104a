-- Webhooks: subscriptions, the outbox (one row per event and
-- subscription, written in the transaction of the Record that causes it)
-- and the delivery log.
-- IF NOT EXISTS: a test rolls a database back to schema 2 by deleting
-- schema_migrations rows, leaving these tables in place.
CREATE TABLE IF NOT EXISTS webhook_subscriptions (
	tenant          TEXT NOT NULL,
	id              TEXT NOT NULL,
	url             TEXT NOT NULL,
	event_types     TEXT NOT NULL,
	spec_filter     TEXT NOT NULL DEFAULT '',
	enabled         BOOLEAN NOT NULL,
	disabled_reason TEXT NOT NULL DEFAULT '',
	secrets         BYTEA NOT NULL,
	create_time     BIGINT NOT NULL,
	update_time     BIGINT NOT NULL,
	PRIMARY KEY (tenant, id)
);

CREATE TABLE IF NOT EXISTS webhook_deliveries (
	tenant          TEXT NOT NULL,
	id              TEXT NOT NULL,
	subscription_id TEXT NOT NULL,
	type            TEXT NOT NULL,
	run_id          TEXT NOT NULL DEFAULT '',
	body            BYTEA NOT NULL,
	create_time     BIGINT NOT NULL,
	state           TEXT NOT NULL DEFAULT 'PENDING',
	attempts        INTEGER NOT NULL DEFAULT 0,
	period_start    BIGINT NOT NULL,
	next_time       BIGINT NOT NULL,
	lease_owner     TEXT NOT NULL DEFAULT '',
	lease_expires   BIGINT NOT NULL DEFAULT 0,
	last_status     INTEGER NOT NULL DEFAULT 0,
	last_error      TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (tenant, id)
);

CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (next_time) WHERE state = 'PENDING';
CREATE INDEX IF NOT EXISTS webhook_deliveries_by_subscription ON webhook_deliveries (tenant, subscription_id, create_time);

CREATE TABLE IF NOT EXISTS webhook_attempts (
	ord             BIGSERIAL PRIMARY KEY,
	tenant          TEXT NOT NULL,
	subscription_id TEXT NOT NULL,
	delivery_id     TEXT NOT NULL,
	type            TEXT NOT NULL,
	attempt         INTEGER NOT NULL,
	status          INTEGER NOT NULL,
	latency_ns      BIGINT NOT NULL,
	error           TEXT NOT NULL,
	time            BIGINT NOT NULL
);

CREATE INDEX IF NOT EXISTS webhook_attempts_by_subscription ON webhook_attempts (tenant, subscription_id, ord);
