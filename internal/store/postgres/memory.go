package postgres

import (
	"context"
	"time"

	"github.com/runsvc/runsvc/internal/store"
)

// SetValue writes a key. Its version comes from the memory's row in
// memory_namespaces, whose lock writers of that memory queue on until
// commit, so versions increase in commit order: every version a reader
// has seen is below the next one written, even with concurrent writers.
func (db *DB) SetValue(ctx context.Context, tenant, namespace, key string, value []byte, now time.Time) (_ store.Entry, opErr error) {
	defer db.observe("SetValue", time.Now(), &opErr)
	e := store.Entry{Key: key, Value: value, UpdateTime: store.FromNanos(store.Nanos(now))}
	err := db.inTx(ctx, "set value", func(tx *txn) error {
		err := tx.QueryRow(ctx, `INSERT INTO memory_namespaces (tenant, namespace, last_version) VALUES ($1, $2, 1)
			ON CONFLICT (tenant, namespace) DO UPDATE SET last_version = memory_namespaces.last_version + 1
			RETURNING last_version`, tenant, namespace).Scan(&e.Version)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO memory (tenant, namespace, key, value, version, update_time) VALUES ($1, $2, $3, $4, $5, $6)
			ON CONFLICT (tenant, namespace, key) DO UPDATE SET value = excluded.value, version = excluded.version, update_time = excluded.update_time`,
			tenant, namespace, key, bytesOrEmpty(value), e.Version, store.Nanos(now))
		if err != nil {
			return err
		}
		tx.notify(store.MemoryTopic(tenant, namespace))
		return nil
	})
	if err != nil {
		return store.Entry{}, err
	}
	return e, nil
}

// GetValues returns the entries of the keys that exist.
func (db *DB) GetValues(ctx context.Context, tenant, namespace string, keys []string) (_ []store.Entry, opErr error) {
	defer db.observe("GetValues", time.Now(), &opErr)
	if len(keys) == 0 {
		return nil, nil
	}
	return db.queryEntries(ctx, `SELECT key, value, version, update_time FROM memory
		WHERE tenant = $1 AND namespace = $2 AND key = ANY($3)`, tenant, namespace, keys)
}

// Changes returns entries written with a version above after, by version.
func (db *DB) Changes(ctx context.Context, tenant, namespace string, after int64) (_ []store.Entry, opErr error) {
	defer db.observe("Changes", time.Now(), &opErr)
	return db.queryEntries(ctx, `SELECT key, value, version, update_time FROM memory
		WHERE tenant = $1 AND namespace = $2 AND version > $3 ORDER BY version`, tenant, namespace, after)
}

func (db *DB) queryEntries(ctx context.Context, query string, args ...any) ([]store.Entry, error) {
	rows, err := db.pool.Query(ctx, query, args...)
	if err != nil {
		return nil, unavailable(ctx, "get value", err)
	}
	defer rows.Close()
	var out []store.Entry
	for rows.Next() {
		var e store.Entry
		var t int64
		if err := rows.Scan(&e.Key, &e.Value, &e.Version, &t); err != nil {
			return nil, unavailable(ctx, "get value", err)
		}
		e.UpdateTime = store.FromNanos(t)
		out = append(out, e)
	}
	return out, unavailable(ctx, "get value", rows.Err())
}
