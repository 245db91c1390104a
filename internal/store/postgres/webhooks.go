package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/runsvc/runsvc/internal/store"
)

var _ store.Webhooks = (*DB)(nil)

const subscriptionColumns = `tenant, id, url, event_types, spec_filter, enabled, disabled_reason, secrets, create_time, update_time, run_id`

const deliveryColumns = `tenant, id, subscription_id, type, run_id, body, create_time, state, attempts, period_start, next_time, lease_owner, lease_expires, last_status, last_error`

// PutSubscription creates or replaces a subscription.
func (db *DB) PutSubscription(ctx context.Context, s store.WebhookSubscription) (opErr error) {
	defer db.observe("PutSubscription", time.Now(), &opErr)
	types, err := json.Marshal(s.EventTypes)
	if err != nil {
		return err
	}
	return db.inTx(ctx, "put subscription", func(tx *txn) error {
		_, err := tx.Exec(ctx, `INSERT INTO webhook_subscriptions (`+subscriptionColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
			ON CONFLICT (tenant, id) DO UPDATE SET url = excluded.url, event_types = excluded.event_types, spec_filter = excluded.spec_filter,
			enabled = excluded.enabled, disabled_reason = excluded.disabled_reason, secrets = excluded.secrets, update_time = excluded.update_time, run_id = excluded.run_id`,
			s.Tenant, s.ID, s.URL, string(types), s.SpecFilter, s.Enabled, s.DisabledReason, bytesOrEmpty(s.Secrets), store.Nanos(s.CreateTime), store.Nanos(s.UpdateTime), s.RunID)
		if err == nil {
			tx.notify(store.WebhooksTopic)
		}
		return err
	})
}

func scanSubscription(row pgx.Row) (store.WebhookSubscription, error) {
	var s store.WebhookSubscription
	var types string
	var created, updated int64
	if err := row.Scan(&s.Tenant, &s.ID, &s.URL, &types, &s.SpecFilter, &s.Enabled, &s.DisabledReason, &s.Secrets, &created, &updated, &s.RunID); err != nil {
		return s, err
	}
	s.CreateTime, s.UpdateTime = store.FromNanos(created), store.FromNanos(updated)
	return s, json.Unmarshal([]byte(types), &s.EventTypes)
}

// GetSubscription returns a subscription.
func (db *DB) GetSubscription(ctx context.Context, tenant, id string) (_ store.WebhookSubscription, _ bool, opErr error) {
	defer db.observe("GetSubscription", time.Now(), &opErr)
	s, err := scanSubscription(db.pool.QueryRow(ctx, `SELECT `+subscriptionColumns+` FROM webhook_subscriptions WHERE tenant = $1 AND id = $2`, tenant, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return s, false, nil
	}
	return s, err == nil, unavailable(ctx, "get subscription", err)
}

// ListSubscriptions lists subscriptions, oldest first.
func (db *DB) ListSubscriptions(ctx context.Context, tenant string) (_ []store.WebhookSubscription, opErr error) {
	defer db.observe("ListSubscriptions", time.Now(), &opErr)
	rows, err := db.pool.Query(ctx, `SELECT `+subscriptionColumns+` FROM webhook_subscriptions WHERE $1 = '' OR tenant = $1 ORDER BY create_time, id`, tenant)
	if err != nil {
		return nil, unavailable(ctx, "list subscriptions", err)
	}
	return scanSubscriptions(ctx, rows, "list subscriptions")
}

// ListRunSubscriptions implements store.Webhooks.
func (db *DB) ListRunSubscriptions(ctx context.Context, tenant, runID string) (_ []store.WebhookSubscription, opErr error) {
	defer db.observe("ListRunSubscriptions", time.Now(), &opErr)
	rows, err := db.pool.Query(ctx, `SELECT `+subscriptionColumns+` FROM webhook_subscriptions WHERE run_id = $1 AND tenant = $2 ORDER BY create_time, id`, runID, tenant)
	if err != nil {
		return nil, unavailable(ctx, "list run subscriptions", err)
	}
	return scanSubscriptions(ctx, rows, "list run subscriptions")
}

// ListLiveSubscriptions implements store.Webhooks: the subscriptions that
// follow no Run, then the live configs (webhook_subscriptions_live) whose
// Run is in a live state, so neither a config retired by
// RetireSubscriptions nor a live Run without one is read.
func (db *DB) ListLiveSubscriptions(ctx context.Context, live []string) (_ []store.WebhookSubscription, _ bool, opErr error) {
	defer db.observe("ListLiveSubscriptions", time.Now(), &opErr)
	var followed bool
	err := db.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM webhook_subscriptions WHERE run_id > '' AND enabled)`).Scan(&followed)
	if err != nil {
		return nil, false, unavailable(ctx, "list live subscriptions", err)
	}
	rows, err := db.pool.Query(ctx, liveSubscriptionsSQL(live))
	if err != nil {
		return nil, false, unavailable(ctx, "list live subscriptions", err)
	}
	subs, err := scanSubscriptions(ctx, rows, "list live subscriptions")
	return subs, followed, err
}

// RetireSubscriptions implements store.Webhooks.
func (db *DB) RetireSubscriptions(ctx context.Context, live []string) (_ int, opErr error) {
	defer db.observe("RetireSubscriptions", time.Now(), &opErr)
	tag, err := db.pool.Exec(ctx, `UPDATE webhook_subscriptions s SET live = false WHERE s.live AND s.run_id <> '' AND NOT `+liveRunSQL(live))
	if err != nil {
		return 0, unavailable(ctx, "retire subscriptions", err)
	}
	return int(tag.RowsAffected()), nil
}

// liveRunSQL is true when the config s's Run is in one of the states
// live. They are literals, not a parameter: a generic plan of
// "state = ANY($1)" guesses it matches most Runs.
func liveRunSQL(live []string) string {
	return `EXISTS (SELECT 1 FROM runs r WHERE r.tenant = s.tenant AND r.run_id = s.run_id AND r.state IN (` + stateList(live) + `))`
}

// stateList is the states live as SQL literals.
func stateList(live []string) string {
	states := make([]string, len(live))
	for i, st := range live {
		states[i] = "'" + strings.ReplaceAll(st, "'", "''") + "'"
	}
	if len(states) == 0 {
		states = []string{"NULL"}
	}
	return strings.Join(states, ", ")
}

// liveSubscriptionsSQL is ListLiveSubscriptions' query. The LATERAL
// subquery with OFFSET 0 probes each live config's Run by its key: without
// the fence the planner may hash every live Run instead, which costs what
// the Runs asleep cost, not what the configs do.
func liveSubscriptionsSQL(live []string) string {
	return `SELECT ` + subscriptionColumns + ` FROM webhook_subscriptions WHERE run_id = ''
	UNION ALL SELECT ` + prefixed(subscriptionColumns, "s.") + ` FROM webhook_subscriptions s
		CROSS JOIN LATERAL (SELECT 1 FROM runs r WHERE r.tenant = s.tenant AND r.run_id = s.run_id AND r.state IN (` + stateList(live) + `) OFFSET 0) r
		WHERE s.live AND s.run_id <> '' ORDER BY create_time, id`
}

// scanSubscriptions reads rows of subscriptionColumns and closes them.
func scanSubscriptions(ctx context.Context, rows pgx.Rows, op string) ([]store.WebhookSubscription, error) {
	defer rows.Close()
	var out []store.WebhookSubscription
	for rows.Next() {
		s, err := scanSubscription(rows)
		if err != nil {
			return nil, unavailable(ctx, op, err)
		}
		out = append(out, s)
	}
	return out, unavailable(ctx, op, rows.Err())
}

// DeleteSubscription deletes a subscription, its outbox rows and its log.
func (db *DB) DeleteSubscription(ctx context.Context, tenant, id string) (_ bool, opErr error) {
	defer db.observe("DeleteSubscription", time.Now(), &opErr)
	var found bool
	err := db.inTx(ctx, "delete subscription", func(tx *txn) error {
		tag, err := tx.Exec(ctx, `DELETE FROM webhook_subscriptions WHERE tenant = $1 AND id = $2`, tenant, id)
		if err != nil {
			return err
		}
		found = tag.RowsAffected() > 0
		if _, err := tx.Exec(ctx, `DELETE FROM webhook_deliveries WHERE tenant = $1 AND subscription_id = $2`, tenant, id); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `DELETE FROM webhook_attempts WHERE tenant = $1 AND subscription_id = $2`, tenant, id)
		tx.notify(store.WebhooksTopic)
		return err
	})
	return found, err
}

// EnqueueWebhooks writes events in a transaction of their own.
func (db *DB) EnqueueWebhooks(ctx context.Context, events []store.WebhookEvent) (opErr error) {
	defer db.observe("EnqueueWebhooks", time.Now(), &opErr)
	if len(events) == 0 {
		return nil
	}
	return db.inTx(ctx, "enqueue webhooks", func(tx *txn) error { return EnqueueWebhooksTx(ctx, tx, events) })
}

// EnqueueWebhooksTx writes webhook outbox rows in tx, the transaction of
// whatever causes them (an append's, a schedule's skipped tick's), so that
// they are stored if and only if it commits.
func EnqueueWebhooksTx(ctx context.Context, tx pgx.Tx, events []store.WebhookEvent) error {
	for _, e := range events {
		created := store.Nanos(e.CreateTime)
		_, err := tx.Exec(ctx, `INSERT INTO webhook_deliveries (tenant, id, subscription_id, type, run_id, body, create_time, period_start, next_time)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $7) ON CONFLICT DO NOTHING`,
			e.Tenant, e.ID, e.SubscriptionID, e.Type, e.RunID, bytesOrEmpty(e.Body), created)
		if err != nil {
			return err
		}
	}
	return nil
}

func scanDelivery(row pgx.Row) (store.WebhookDelivery, error) {
	var d store.WebhookDelivery
	var created, start, next, expires int64
	var attempts, status int32
	err := row.Scan(&d.Tenant, &d.ID, &d.SubscriptionID, &d.Type, &d.RunID, &d.Body, &created, &d.State, &attempts,
		&start, &next, &d.LeaseOwner, &expires, &status, &d.LastError)
	d.Attempts, d.LastStatus = int(attempts), int(status)
	d.CreateTime, d.PeriodStart, d.NextTime, d.LeaseExpires = store.FromNanos(created), store.FromNanos(start), store.FromNanos(next), store.FromNanos(expires)
	return d, err
}

func (db *DB) queryDeliveries(ctx context.Context, op, query string, args ...any) ([]store.WebhookDelivery, error) {
	rows, err := db.pool.Query(ctx, query, args...)
	if err != nil {
		return nil, unavailable(ctx, op, err)
	}
	defer rows.Close()
	var out []store.WebhookDelivery
	for rows.Next() {
		d, err := scanDelivery(rows)
		if err != nil {
			return nil, unavailable(ctx, op, err)
		}
		out = append(out, d)
	}
	return out, unavailable(ctx, op, rows.Err())
}

// ClaimDeliveries leases due deliveries; replicas skip each other's
// (FOR UPDATE SKIP LOCKED).
func (db *DB) ClaimDeliveries(ctx context.Context, owner string, now time.Time, ttl time.Duration, limit int, busy []string) (_ []store.WebhookDelivery, opErr error) {
	defer db.observe("ClaimDeliveries", time.Now(), &opErr)
	return db.queryDeliveries(ctx, "claim deliveries", `UPDATE webhook_deliveries SET lease_owner = $1, lease_expires = $2
		WHERE (tenant, id) IN (SELECT tenant, id FROM webhook_deliveries WHERE state = 'PENDING' AND next_time <= $3 AND lease_expires <= $3
			AND NOT (subscription_id = ANY($5::text[])) ORDER BY next_time LIMIT $4 FOR UPDATE SKIP LOCKED)
		RETURNING `+deliveryColumns, owner, store.Nanos(now.Add(ttl)), store.Nanos(now), limit, append([]string{}, busy...))
}

// FinishAttempt stores an attempt's outcome if the lease is still held.
func (db *DB) FinishAttempt(ctx context.Context, d store.WebhookDelivery, a store.WebhookAttempt) (_ bool, opErr error) {
	defer db.observe("FinishAttempt", time.Now(), &opErr)
	var held bool
	err := db.inTx(ctx, "finish attempt", func(tx *txn) error {
		tag, err := tx.Exec(ctx, `UPDATE webhook_deliveries SET state = $1, attempts = $2, next_time = $3, last_status = $4, last_error = $5, lease_owner = '', lease_expires = 0
			WHERE tenant = $6 AND id = $7 AND lease_owner = $8 AND lease_expires = $9`,
			d.State, d.Attempts, store.Nanos(d.NextTime), d.LastStatus, d.LastError, d.Tenant, d.ID, d.LeaseOwner, store.Nanos(d.LeaseExpires))
		if err != nil || tag.RowsAffected() == 0 {
			return err
		}
		held = true
		_, err = tx.Exec(ctx, `INSERT INTO webhook_attempts (tenant, subscription_id, delivery_id, type, attempt, status, latency_ns, error, time) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
			a.Tenant, a.SubscriptionID, a.DeliveryID, a.Type, a.Attempt, a.Status, int64(a.Latency), a.Error, store.Nanos(a.Time))
		return err
	})
	return held, err
}

// ListDeliveries lists a subscription's deliveries, newest first.
func (db *DB) ListDeliveries(ctx context.Context, tenant, subscriptionID string, q store.DeliveryQuery) (_ []store.WebhookDelivery, opErr error) {
	defer db.observe("ListDeliveries", time.Now(), &opErr)
	var limit any
	if q.Limit > 0 {
		limit = q.Limit
	}
	return db.queryDeliveries(ctx, "list deliveries", `SELECT `+deliveryColumns+` FROM webhook_deliveries
		WHERE tenant = $1 AND subscription_id = $2 AND ($3 = '' OR state = $3) ORDER BY create_time DESC, id DESC LIMIT $4`,
		tenant, subscriptionID, q.State, limit)
}

// ListAttempts lists a subscription's delivery log, newest first.
func (db *DB) ListAttempts(ctx context.Context, tenant, subscriptionID string, limit int) (_ []store.WebhookAttempt, opErr error) {
	defer db.observe("ListAttempts", time.Now(), &opErr)
	var lim any
	if limit > 0 {
		lim = limit
	}
	rows, err := db.pool.Query(ctx, `SELECT tenant, subscription_id, delivery_id, type, attempt, status, latency_ns, error, time FROM webhook_attempts
		WHERE tenant = $1 AND subscription_id = $2 ORDER BY ord DESC LIMIT $3`, tenant, subscriptionID, lim)
	if err != nil {
		return nil, unavailable(ctx, "list attempts", err)
	}
	defer rows.Close()
	var out []store.WebhookAttempt
	for rows.Next() {
		var a store.WebhookAttempt
		var attempt, status int32
		var latency, at int64
		if err := rows.Scan(&a.Tenant, &a.SubscriptionID, &a.DeliveryID, &a.Type, &attempt, &status, &latency, &a.Error, &at); err != nil {
			return nil, unavailable(ctx, "list attempts", err)
		}
		a.Attempt, a.Status, a.Latency, a.Time = int(attempt), int(status), time.Duration(latency), store.FromNanos(at)
		out = append(out, a)
	}
	return out, unavailable(ctx, "list attempts", rows.Err())
}

// Redeliver makes dead deliveries pending again.
func (db *DB) Redeliver(ctx context.Context, tenant, subscriptionID, deliveryID string, now time.Time) (_ int, opErr error) {
	defer db.observe("Redeliver", time.Now(), &opErr)
	tag, err := db.pool.Exec(ctx, `UPDATE webhook_deliveries SET state = 'PENDING', period_start = $1, next_time = $1, lease_owner = '', lease_expires = 0
		WHERE tenant = $2 AND subscription_id = $3 AND state = 'DEAD' AND ($4 = '' OR id = $4)`,
		store.Nanos(now), tenant, subscriptionID, deliveryID)
	if err != nil {
		return 0, unavailable(ctx, "redeliver", err)
	}
	return int(tag.RowsAffected()), nil
}

// PruneDeliveries deletes delivered deliveries and log lines older than
// before.
func (db *DB) PruneDeliveries(ctx context.Context, before time.Time, limit int) (_ int, opErr error) {
	defer db.observe("PruneDeliveries", time.Now(), &opErr)
	tag, err := db.pool.Exec(ctx, `DELETE FROM webhook_deliveries WHERE (tenant, id) IN (
		SELECT tenant, id FROM webhook_deliveries WHERE state = 'DELIVERED' AND create_time < $1 LIMIT $2)`, store.Nanos(before), limit)
	if err != nil {
		return 0, unavailable(ctx, "prune deliveries", err)
	}
	if _, err := db.pool.Exec(ctx, `DELETE FROM webhook_attempts WHERE ord IN (SELECT ord FROM webhook_attempts WHERE time < $1 LIMIT $2)`, store.Nanos(before), limit); err != nil {
		return 0, unavailable(ctx, "prune deliveries", err)
	}
	return int(tag.RowsAffected()), nil
}
