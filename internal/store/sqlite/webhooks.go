package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

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
	return db.exec(ctx, "put subscription", func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT INTO webhook_subscriptions (`+subscriptionColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (tenant, id) DO UPDATE SET url = excluded.url, event_types = excluded.event_types, spec_filter = excluded.spec_filter,
			enabled = excluded.enabled, disabled_reason = excluded.disabled_reason, secrets = excluded.secrets, update_time = excluded.update_time, run_id = excluded.run_id`,
			s.Tenant, s.ID, s.URL, string(types), s.SpecFilter, boolInt(s.Enabled), s.DisabledReason, s.Secrets, store.Nanos(s.CreateTime), store.Nanos(s.UpdateTime), s.RunID)
		return unavailable("put subscription", err)
	}, store.WebhooksTopic)
}

func scanSubscription(row scanner) (store.WebhookSubscription, error) {
	var s store.WebhookSubscription
	var types string
	var created, updated int64
	var enabled int
	if err := row.Scan(&s.Tenant, &s.ID, &s.URL, &types, &s.SpecFilter, &enabled, &s.DisabledReason, &s.Secrets, &created, &updated, &s.RunID); err != nil {
		return s, err
	}
	s.Enabled, s.CreateTime, s.UpdateTime = enabled == 1, store.FromNanos(created), store.FromNanos(updated)
	return s, json.Unmarshal([]byte(types), &s.EventTypes)
}

// GetSubscription returns a subscription.
func (db *DB) GetSubscription(ctx context.Context, tenant, id string) (_ store.WebhookSubscription, _ bool, opErr error) {
	defer db.observe("GetSubscription", time.Now(), &opErr)
	s, err := scanSubscription(db.read.QueryRowContext(ctx, `SELECT `+subscriptionColumns+` FROM webhook_subscriptions WHERE tenant = ? AND id = ?`, tenant, id))
	if errors.Is(err, sql.ErrNoRows) {
		return s, false, nil
	}
	return s, err == nil, unavailable("get subscription", err)
}

// ListSubscriptions lists subscriptions, oldest first.
func (db *DB) ListSubscriptions(ctx context.Context, tenant string) (_ []store.WebhookSubscription, opErr error) {
	defer db.observe("ListSubscriptions", time.Now(), &opErr)
	rows, err := db.read.QueryContext(ctx, `SELECT `+subscriptionColumns+` FROM webhook_subscriptions WHERE ? = '' OR tenant = ? ORDER BY create_time, id`, tenant, tenant)
	if err != nil {
		return nil, unavailable("list subscriptions", err)
	}
	return scanSubscriptions(rows, "list subscriptions")
}

// ListRunSubscriptions implements store.Webhooks.
func (db *DB) ListRunSubscriptions(ctx context.Context, tenant, runID string) (_ []store.WebhookSubscription, opErr error) {
	defer db.observe("ListRunSubscriptions", time.Now(), &opErr)
	rows, err := db.read.QueryContext(ctx, `SELECT `+subscriptionColumns+` FROM webhook_subscriptions INDEXED BY webhook_subscriptions_run
		WHERE run_id = ? AND tenant = ? ORDER BY create_time, id`, runID, tenant)
	if err != nil {
		return nil, unavailable("list run subscriptions", err)
	}
	return scanSubscriptions(rows, "list run subscriptions")
}

// ListLiveSubscriptions implements store.Webhooks: the subscriptions that
// follow no Run, then the live configs (webhook_subscriptions_live) whose
// Run is in a live state (a primary-key probe each), so neither a config
// retired by RetireSubscriptions nor a live Run without one is read.
func (db *DB) ListLiveSubscriptions(ctx context.Context, live []string) (_ []store.WebhookSubscription, _ bool, opErr error) {
	defer db.observe("ListLiveSubscriptions", time.Now(), &opErr)
	var followed int
	err := db.read.QueryRowContext(ctx, followedSQL).Scan(&followed)
	if err != nil {
		return nil, false, unavailable("list live subscriptions", err)
	}
	rows, err := db.read.QueryContext(ctx, liveSubscriptionsSQL(len(live)), statesArgs(live)...)
	if err != nil {
		return nil, false, unavailable("list live subscriptions", err)
	}
	subs, err := scanSubscriptions(rows, "list live subscriptions")
	return subs, followed == 1, err
}

// RetireSubscriptions implements store.Webhooks.
func (db *DB) RetireSubscriptions(ctx context.Context, live []string) (_ int, opErr error) {
	defer db.observe("RetireSubscriptions", time.Now(), &opErr)
	var n int64
	err := db.exec(ctx, "retire subscriptions", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, retireSubscriptionsSQL(len(live)), statesArgs(live)...)
		if err != nil {
			return unavailable("retire subscriptions", err)
		}
		n, err = res.RowsAffected()
		return unavailable("retire subscriptions", err)
	})
	return int(n), err
}

func statesArgs(live []string) []any {
	args := make([]any, len(live))
	for i, st := range live {
		args[i] = st
	}
	return args
}

// followedSQL says whether an enabled subscription follows a Run.
const followedSQL = `SELECT EXISTS (SELECT 1 FROM webhook_subscriptions INDEXED BY webhook_subscriptions_run WHERE run_id > '' AND enabled = 1)`

// liveRunSQL is true when the config s's Run is in one of n live states.
func liveRunSQL(n int) string {
	states := "NULL"
	if n > 0 {
		states = placeholders(n)
	}
	return `EXISTS (SELECT 1 FROM runs r WHERE r.tenant = s.tenant AND r.run_id = s.run_id AND r.state IN (` + states + `))`
}

// liveSubscriptionsSQL is ListLiveSubscriptions' query for n live states.
func liveSubscriptionsSQL(n int) string {
	return `SELECT ` + subscriptionColumns + ` FROM webhook_subscriptions INDEXED BY webhook_subscriptions_run WHERE run_id = ''
		UNION ALL SELECT ` + prefixed(subscriptionColumns, "s.") + ` FROM webhook_subscriptions s INDEXED BY webhook_subscriptions_live
		WHERE s.live = 1 AND s.run_id != '' AND ` + liveRunSQL(n) + ` ORDER BY create_time, id`
}

// retireSubscriptionsSQL is RetireSubscriptions' statement for n live
// states.
func retireSubscriptionsSQL(n int) string {
	return `UPDATE webhook_subscriptions AS s INDEXED BY webhook_subscriptions_live SET live = 0 WHERE s.live = 1 AND s.run_id != '' AND NOT ` + liveRunSQL(n)
}

// scanSubscriptions reads rows of subscriptionColumns and closes them.
func scanSubscriptions(rows *sql.Rows, op string) ([]store.WebhookSubscription, error) {
	defer rows.Close()
	var out []store.WebhookSubscription
	for rows.Next() {
		s, err := scanSubscription(rows)
		if err != nil {
			return nil, unavailable(op, err)
		}
		out = append(out, s)
	}
	return out, unavailable(op, rows.Err())
}

// DeleteSubscription deletes a subscription, its outbox rows and its log.
func (db *DB) DeleteSubscription(ctx context.Context, tenant, id string) (_ bool, opErr error) {
	defer db.observe("DeleteSubscription", time.Now(), &opErr)
	var found bool
	err := db.exec(ctx, "delete subscription", func(tx *sql.Tx) error {
		res, err := tx.Exec(`DELETE FROM webhook_subscriptions WHERE tenant = ? AND id = ?`, tenant, id)
		if err != nil {
			return unavailable("delete subscription", err)
		}
		n, _ := res.RowsAffected()
		found = n > 0
		if _, err := tx.Exec(`DELETE FROM webhook_deliveries WHERE tenant = ? AND subscription_id = ?`, tenant, id); err != nil {
			return unavailable("delete subscription", err)
		}
		_, err = tx.Exec(`DELETE FROM webhook_attempts WHERE tenant = ? AND subscription_id = ?`, tenant, id)
		return unavailable("delete subscription", err)
	}, store.WebhooksTopic)
	return found, err
}

// EnqueueWebhooks writes events in a transaction of their own.
func (db *DB) EnqueueWebhooks(ctx context.Context, events []store.WebhookEvent) (opErr error) {
	defer db.observe("EnqueueWebhooks", time.Now(), &opErr)
	if len(events) == 0 {
		return nil
	}
	return db.exec(ctx, "enqueue webhooks", func(tx *sql.Tx) error { return EnqueueWebhooksTx(tx, events) })
}

// EnqueueWebhooksTx writes webhook outbox rows in tx, the transaction of
// whatever causes them (an append's, a schedule's skipped tick's), so that
// they are stored if and only if it commits.
func EnqueueWebhooksTx(tx *sql.Tx, events []store.WebhookEvent) error {
	for _, e := range events {
		created := store.Nanos(e.CreateTime)
		_, err := tx.Exec(`INSERT INTO webhook_deliveries (tenant, id, subscription_id, type, run_id, body, create_time, period_start, next_time)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
			e.Tenant, e.ID, e.SubscriptionID, e.Type, e.RunID, e.Body, created, created, created)
		if err != nil {
			return unavailable("enqueue webhooks", err)
		}
	}
	return nil
}

func scanDelivery(row scanner) (store.WebhookDelivery, error) {
	var d store.WebhookDelivery
	var created, start, next, expires int64
	err := row.Scan(&d.Tenant, &d.ID, &d.SubscriptionID, &d.Type, &d.RunID, &d.Body, &created, &d.State, &d.Attempts,
		&start, &next, &d.LeaseOwner, &expires, &d.LastStatus, &d.LastError)
	d.CreateTime, d.PeriodStart, d.NextTime, d.LeaseExpires = store.FromNanos(created), store.FromNanos(start), store.FromNanos(next), store.FromNanos(expires)
	return d, err
}

func scanDeliveries(rows *sql.Rows, op string) ([]store.WebhookDelivery, error) {
	defer rows.Close()
	var out []store.WebhookDelivery
	for rows.Next() {
		d, err := scanDelivery(rows)
		if err != nil {
			return nil, unavailable(op, err)
		}
		out = append(out, d)
	}
	return out, unavailable(op, rows.Err())
}

// ClaimDeliveries leases due deliveries.
func (db *DB) ClaimDeliveries(ctx context.Context, owner string, now time.Time, ttl time.Duration, limit int, busy []string) (_ []store.WebhookDelivery, opErr error) {
	defer db.observe("ClaimDeliveries", time.Now(), &opErr)
	skip, err := json.Marshal(append([]string{}, busy...))
	if err != nil {
		return nil, err
	}
	var out []store.WebhookDelivery
	err = db.exec(ctx, "claim deliveries", func(tx *sql.Tx) error {
		rows, err := tx.Query(`UPDATE webhook_deliveries SET lease_owner = ?, lease_expires = ?
			WHERE (tenant, id) IN (SELECT tenant, id FROM webhook_deliveries WHERE state = 'PENDING' AND next_time <= ? AND lease_expires <= ?
				AND subscription_id NOT IN (SELECT value FROM json_each(?)) ORDER BY next_time LIMIT ?)
			RETURNING `+deliveryColumns, owner, store.Nanos(now.Add(ttl)), store.Nanos(now), store.Nanos(now), string(skip), limit)
		if err != nil {
			return unavailable("claim deliveries", err)
		}
		out, err = scanDeliveries(rows, "claim deliveries")
		return err
	})
	return out, err
}

// FinishAttempt stores an attempt's outcome if the lease is still held.
func (db *DB) FinishAttempt(ctx context.Context, d store.WebhookDelivery, a store.WebhookAttempt) (_ bool, opErr error) {
	defer db.observe("FinishAttempt", time.Now(), &opErr)
	var held bool
	err := db.exec(ctx, "finish attempt", func(tx *sql.Tx) error {
		res, err := tx.Exec(`UPDATE webhook_deliveries SET state = ?, attempts = ?, next_time = ?, last_status = ?, last_error = ?, lease_owner = '', lease_expires = 0
			WHERE tenant = ? AND id = ? AND lease_owner = ? AND lease_expires = ?`,
			d.State, d.Attempts, store.Nanos(d.NextTime), d.LastStatus, d.LastError, d.Tenant, d.ID, d.LeaseOwner, store.Nanos(d.LeaseExpires))
		if err != nil {
			return unavailable("finish attempt", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		held = true
		_, err = tx.Exec(`INSERT INTO webhook_attempts (tenant, subscription_id, delivery_id, type, attempt, status, latency_ns, error, time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			a.Tenant, a.SubscriptionID, a.DeliveryID, a.Type, a.Attempt, a.Status, int64(a.Latency), a.Error, store.Nanos(a.Time))
		return unavailable("finish attempt", err)
	})
	return held, err
}

// ListDeliveries lists a subscription's deliveries, newest first.
func (db *DB) ListDeliveries(ctx context.Context, tenant, subscriptionID string, q store.DeliveryQuery) (_ []store.WebhookDelivery, opErr error) {
	defer db.observe("ListDeliveries", time.Now(), &opErr)
	rows, err := db.read.QueryContext(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries
		WHERE tenant = ? AND subscription_id = ? AND (? = '' OR state = ?) ORDER BY create_time DESC, id DESC LIMIT ?`,
		tenant, subscriptionID, q.State, q.State, limitOrAll(q.Limit))
	if err != nil {
		return nil, unavailable("list deliveries", err)
	}
	return scanDeliveries(rows, "list deliveries")
}

func limitOrAll(limit int) int {
	if limit <= 0 {
		return -1
	}
	return limit
}

// ListAttempts lists a subscription's delivery log, newest first.
func (db *DB) ListAttempts(ctx context.Context, tenant, subscriptionID string, limit int) (_ []store.WebhookAttempt, opErr error) {
	defer db.observe("ListAttempts", time.Now(), &opErr)
	rows, err := db.read.QueryContext(ctx, `SELECT tenant, subscription_id, delivery_id, type, attempt, status, latency_ns, error, time FROM webhook_attempts
		WHERE tenant = ? AND subscription_id = ? ORDER BY ord DESC LIMIT ?`, tenant, subscriptionID, limitOrAll(limit))
	if err != nil {
		return nil, unavailable("list attempts", err)
	}
	defer rows.Close()
	var out []store.WebhookAttempt
	for rows.Next() {
		var a store.WebhookAttempt
		var latency, at int64
		if err := rows.Scan(&a.Tenant, &a.SubscriptionID, &a.DeliveryID, &a.Type, &a.Attempt, &a.Status, &latency, &a.Error, &at); err != nil {
			return nil, unavailable("list attempts", err)
		}
		a.Latency, a.Time = time.Duration(latency), store.FromNanos(at)
		out = append(out, a)
	}
	return out, unavailable("list attempts", rows.Err())
}

// Redeliver makes dead deliveries pending again.
func (db *DB) Redeliver(ctx context.Context, tenant, subscriptionID, deliveryID string, now time.Time) (_ int, opErr error) {
	defer db.observe("Redeliver", time.Now(), &opErr)
	var n int64
	err := db.exec(ctx, "redeliver", func(tx *sql.Tx) error {
		res, err := tx.Exec(`UPDATE webhook_deliveries SET state = 'PENDING', period_start = ?, next_time = ?, lease_owner = '', lease_expires = 0
			WHERE tenant = ? AND subscription_id = ? AND state = 'DEAD' AND (? = '' OR id = ?)`,
			store.Nanos(now), store.Nanos(now), tenant, subscriptionID, deliveryID, deliveryID)
		if err != nil {
			return unavailable("redeliver", err)
		}
		n, err = res.RowsAffected()
		return unavailable("redeliver", err)
	})
	return int(n), err
}

// PruneDeliveries deletes delivered deliveries and log lines older than
// before.
func (db *DB) PruneDeliveries(ctx context.Context, before time.Time, limit int) (_ int, opErr error) {
	defer db.observe("PruneDeliveries", time.Now(), &opErr)
	var n int64
	err := db.exec(ctx, "prune deliveries", func(tx *sql.Tx) error {
		res, err := tx.Exec(`DELETE FROM webhook_deliveries WHERE (tenant, id) IN (
			SELECT tenant, id FROM webhook_deliveries WHERE state = 'DELIVERED' AND create_time < ? LIMIT ?)`, store.Nanos(before), limit)
		if err != nil {
			return unavailable("prune deliveries", err)
		}
		if n, err = res.RowsAffected(); err != nil {
			return unavailable("prune deliveries", err)
		}
		_, err = tx.Exec(`DELETE FROM webhook_attempts WHERE ord IN (SELECT ord FROM webhook_attempts WHERE time < ? LIMIT ?)`, store.Nanos(before), limit)
		return unavailable("prune deliveries", err)
	})
	return int(n), err
}
