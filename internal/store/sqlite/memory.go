package sqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/runsvc/runsvc/internal/store"
)

// SetValue writes a key with the memory's next version.
func (db *DB) SetValue(ctx context.Context, tenant, namespace, key string, value []byte, now time.Time) (_ store.Entry, opErr error) {
	defer db.observe("SetValue", time.Now(), &opErr)
	e := store.Entry{Key: key, Value: value, UpdateTime: now.UTC()}
	err := db.exec(ctx, "set value", func(tx *sql.Tx) error {
		if err := tx.QueryRow(`SELECT COALESCE(MAX(version), 0) + 1 FROM memory WHERE tenant = ? AND namespace = ?`, tenant, namespace).Scan(&e.Version); err != nil {
			return unavailable("set value", err)
		}
		_, err := tx.Exec(`INSERT INTO memory (tenant, namespace, key, value, version, update_time) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (tenant, namespace, key) DO UPDATE SET value = excluded.value, version = excluded.version, update_time = excluded.update_time`,
			tenant, namespace, key, value, e.Version, store.Nanos(now))
		return unavailable("set value", err)
	}, store.MemoryTopic(tenant, namespace))
	return e, err
}

// GetValues returns the entries of the keys that exist.
func (db *DB) GetValues(ctx context.Context, tenant, namespace string, keys []string) (_ []store.Entry, opErr error) {
	defer db.observe("GetValues", time.Now(), &opErr)
	if len(keys) == 0 {
		return nil, nil
	}
	args := []any{tenant, namespace}
	for _, k := range keys {
		args = append(args, k)
	}
	return db.queryEntries(ctx, `SELECT key, value, version, update_time FROM memory WHERE tenant = ? AND namespace = ? AND key IN (`+placeholders(len(keys))+`)`, args...)
}

// Changes returns entries written after a version.
func (db *DB) Changes(ctx context.Context, tenant, namespace string, after int64) (_ []store.Entry, opErr error) {
	defer db.observe("Changes", time.Now(), &opErr)
	return db.queryEntries(ctx, `SELECT key, value, version, update_time FROM memory WHERE tenant = ? AND namespace = ? AND version > ? ORDER BY version`, tenant, namespace, after)
}

func (db *DB) queryEntries(ctx context.Context, query string, args ...any) ([]store.Entry, error) {
	rows, err := db.query(ctx, query, args...)
	if err != nil {
		return nil, unavailable("get value", err)
	}
	defer rows.Close()
	var out []store.Entry
	for rows.Next() {
		var e store.Entry
		var t int64
		if err := rows.Scan(&e.Key, &e.Value, &e.Version, &t); err != nil {
			return nil, unavailable("get value", err)
		}
		e.UpdateTime = store.FromNanos(t)
		out = append(out, e)
	}
	return out, unavailable("get value", rows.Err())
}
