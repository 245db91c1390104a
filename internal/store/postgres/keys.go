package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/keyqueue"
)

// keyTx is keyqueue.Tx on a transaction; it returns driver errors raw,
// for the caller to wrap.
type keyTx struct {
	ctx context.Context
	tx  pgx.Tx
}

var _ keyqueue.Tx = keyTx{}

// CreateKey implements keyqueue.Tx.
func (t keyTx) CreateKey(tenant, key string, now time.Time) error {
	_, err := t.tx.Exec(t.ctx, `INSERT INTO concurrency_keys (tenant, concurrency_key, update_time) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
		tenant, key, store.Nanos(now))
	return err
}

// LockKey implements keyqueue.Tx with the row's lock: every replica's
// creations and settles on the key take their turn on it.
func (t keyTx) LockKey(tenant, key string) (keyqueue.Key, bool, error) {
	k := keyqueue.Key{Tenant: tenant, Key: key}
	var limit, held, runs int32
	var updated int64
	err := t.tx.QueryRow(t.ctx, `SELECT key_limit, held, runs, update_time FROM concurrency_keys WHERE tenant = $1 AND concurrency_key = $2 FOR UPDATE`,
		tenant, key).Scan(&limit, &held, &runs, &updated)
	if errors.Is(err, pgx.ErrNoRows) {
		return keyqueue.Key{}, false, nil
	}
	k.Limit, k.Held, k.Runs, k.UpdateTime = int(limit), int(held), int(runs), store.FromNanos(updated)
	return k, err == nil, err
}

// PutKey implements keyqueue.Tx.
func (t keyTx) PutKey(k keyqueue.Key) error {
	_, err := t.tx.Exec(t.ctx, `UPDATE concurrency_keys SET key_limit = $3, held = $4, runs = $5, update_time = $6 WHERE tenant = $1 AND concurrency_key = $2`,
		k.Tenant, k.Key, k.Limit, k.Held, k.Runs, store.Nanos(k.UpdateTime))
	return err
}

// OldestWaiting implements keyqueue.Tx.
func (t keyTx) OldestWaiting(tenant, key string) (string, error) {
	var next string
	err := t.tx.QueryRow(t.ctx, `SELECT run_id FROM runs WHERE tenant = $1 AND concurrency_key = $2 AND key_state = 2 ORDER BY key_seq LIMIT 1`, tenant, key).Scan(&next)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	return next, err
}

// SetKeyState implements keyqueue.Tx.
func (t keyTx) SetKeyState(tenant, runID string, state int) error {
	_, err := t.tx.Exec(t.ctx, `UPDATE runs SET key_state = $3 WHERE tenant = $1 AND run_id = $2`, tenant, runID, state)
	return err
}

// Grant implements keyqueue.Tx.
func (t keyTx) Grant(tenant, runID string, now time.Time) error {
	_, err := t.tx.Exec(t.ctx, `UPDATE runs SET key_state = 1, runnable = NOT waiting, update_time = $3 WHERE tenant = $1 AND run_id = $2`,
		tenant, runID, store.Nanos(now))
	return err
}

// KeyQueue implements store.ConcurrencyKeys.
func (db *DB) KeyQueue(ctx context.Context, tenant, key string) (_ store.KeyQueue, opErr error) {
	defer db.observe("KeyQueue", time.Now(), &opErr)
	var q store.KeyQueue
	rows, err := db.pool.Query(ctx, `SELECT run_id, key_state FROM runs WHERE tenant = $1 AND concurrency_key = $2 AND key_state <> 0 ORDER BY key_seq`, tenant, key)
	if err != nil {
		return q, unavailable(ctx, "key queue", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var state int16
		if err := rows.Scan(&id, &state); err != nil {
			return store.KeyQueue{}, unavailable(ctx, "key queue", err)
		}
		if state == store.KeyWaits {
			q.Waiting = append(q.Waiting, id)
		} else {
			q.Holding = append(q.Holding, id)
		}
	}
	if err := rows.Err(); err != nil {
		return store.KeyQueue{}, unavailable(ctx, "key queue", err)
	}
	return q, nil
}
