package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/keyqueue"
)

// keyTx is keyqueue.Tx on a write transaction; errors are op's.
type keyTx struct {
	tx *sql.Tx
	op string
}

var _ keyqueue.Tx = keyTx{}

// CreateKey implements keyqueue.Tx.
func (t keyTx) CreateKey(tenant, key string, now time.Time) error {
	_, err := t.tx.Exec(`INSERT INTO concurrency_keys (tenant, concurrency_key, update_time) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
		tenant, key, store.Nanos(now))
	return unavailable(t.op, err)
}

// LockKey implements keyqueue.Tx: the single writer holds every row its
// transaction reads.
func (t keyTx) LockKey(tenant, key string) (keyqueue.Key, bool, error) {
	k := keyqueue.Key{Tenant: tenant, Key: key}
	var updated int64
	err := t.tx.QueryRow(`SELECT key_limit, held, runs, update_time FROM concurrency_keys WHERE tenant = ? AND concurrency_key = ?`, tenant, key).
		Scan(&k.Limit, &k.Held, &k.Runs, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return keyqueue.Key{}, false, nil
	}
	k.UpdateTime = store.FromNanos(updated)
	return k, err == nil, unavailable(t.op, err)
}

// PutKey implements keyqueue.Tx.
func (t keyTx) PutKey(k keyqueue.Key) error {
	_, err := t.tx.Exec(`UPDATE concurrency_keys SET key_limit = ?, held = ?, runs = ?, update_time = ? WHERE tenant = ? AND concurrency_key = ?`,
		k.Limit, k.Held, k.Runs, store.Nanos(k.UpdateTime), k.Tenant, k.Key)
	return unavailable(t.op, err)
}

// OldestWaiting implements keyqueue.Tx.
func (t keyTx) OldestWaiting(tenant, key string) (string, error) {
	var next string
	err := t.tx.QueryRow(`SELECT run_id FROM runs WHERE tenant = ? AND concurrency_key = ? AND key_state = 2 ORDER BY key_seq LIMIT 1`, tenant, key).Scan(&next)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return next, unavailable(t.op, err)
}

// SetKeyState implements keyqueue.Tx.
func (t keyTx) SetKeyState(tenant, runID string, state int) error {
	_, err := t.tx.Exec(`UPDATE runs SET key_state = ? WHERE tenant = ? AND run_id = ?`, state, tenant, runID)
	return unavailable(t.op, err)
}

// Grant implements keyqueue.Tx.
func (t keyTx) Grant(tenant, runID string, now time.Time) error {
	_, err := t.tx.Exec(`UPDATE runs SET key_state = 1, runnable = (waiting = 0), update_time = ? WHERE tenant = ? AND run_id = ?`,
		store.Nanos(now), tenant, runID)
	return unavailable(t.op, err)
}

// granted follows a commit that gave Runs of tenant a slot of their key:
// their cached rows are stale, and the workers have Runs to claim.
func (db *DB) granted(tenant string, runIDs []string) {
	for _, id := range runIDs {
		db.cache.drop(tenant, id)
	}
	if len(runIDs) > 0 {
		db.hub.Publish(store.TopicRunnable)
	}
}

// KeyQueue implements store.ConcurrencyKeys.
func (db *DB) KeyQueue(ctx context.Context, tenant, key string) (_ store.KeyQueue, opErr error) {
	defer db.observe("KeyQueue", time.Now(), &opErr)
	var q store.KeyQueue
	rows, err := db.query(ctx, `SELECT run_id, key_state FROM runs WHERE tenant = ? AND concurrency_key = ? AND key_state != 0 ORDER BY key_seq`, tenant, key)
	if err != nil {
		return q, unavailable("key queue", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var state int
		if err := rows.Scan(&id, &state); err != nil {
			return store.KeyQueue{}, unavailable("key queue", err)
		}
		if state == store.KeyWaits {
			q.Waiting = append(q.Waiting, id)
		} else {
			q.Holding = append(q.Holding, id)
		}
	}
	return q, unavailable("key queue", rows.Err())
}
