-- Webhooks: subscriptions, the outbox (one row per event and
-- subscription, written in the transaction of the Record that causes it)
-- and the delivery log.
CREATE TABLE webhook_subscriptions (
	tenant          TEXT NOT NULL,
	id              TEXT NOT NULL,
	url             TEXT NOT NULL,
	event_types     TEXT NOT NULL,
	spec_filter     TEXT NOT NULL DEFAULT '',
	enabled         INTEGER NOT NULL,
	disabled_reason TEXT NOT NULL DEFAULT '',
	secrets         BLOB NOT NULL,
	create_time     INTEGER NOT NULL,
	update_time     INTEGER NOT NULL,
	PRIMARY KEY (tenant, id)
) WITHOUT ROWID;

CREATE TABLE webhook_deliveries (
	tenant          TEXT NOT NULL,
	id              TEXT NOT NULL,
	subscription_id TEXT NOT NULL,
	type            TEXT NOT NULL,
	run_id          TEXT NOT NULL DEFAULT '',
	body            BLOB NOT NULL,
	create_time     INTEGER NOT NULL,
	state           TEXT NOT NULL DEFAULT 'PENDING',
	attempts        INTEGER NOT NULL DEFAULT 0,
	period_start    INTEGER NOT NULL,
	next_time       INTEGER NOT NULL,
	lease_owner     TEXT NOT NULL DEFAULT '',
	lease_expires   INTEGER NOT NULL DEFAULT 0,
	last_status     INTEGER NOT NULL DEFAULT 0,
	last_error      TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (tenant, id)
) WITHOUT ROWID;

CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_time) WHERE state = 'PENDING';
CREATE INDEX webhook_deliveries_by_subscription ON webhook_deliveries (tenant, subscription_id, create_time);

CREATE TABLE webhook_attempts (
	ord             INTEGER PRIMARY KEY,
	tenant          TEXT NOT NULL,
	subscription_id TEXT NOT NULL,
	delivery_id     TEXT NOT NULL,
	type            TEXT NOT NULL,
	attempt         INTEGER NOT NULL,
	status          INTEGER NOT NULL,
	latency_ns      INTEGER NOT NULL,
	error           TEXT NOT NULL,
	time            INTEGER NOT NULL
);

CREATE INDEX webhook_attempts_by_subscription ON webhook_attempts (tenant, subscription_id, ord);
