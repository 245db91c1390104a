package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"sync"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/pagetoken"
)

// nextOrdSQL is the tenant's largest publish order (0 for none): the last
// key of its range of the index specs_ord.
const nextOrdSQL = `SELECT COALESCE(MAX(ord), 0) FROM specs WHERE tenant = ?`

// PutSpec stores a Version unless it exists.
func (db *DB) PutSpec(ctx context.Context, s store.Spec) (_ store.Spec, _ bool, opErr error) {
	defer db.observe("PutSpec", time.Now(), &opErr)
	created := false
	err := db.execThen(ctx, "put spec", func(tx *sql.Tx) error {
		var n int64
		if err := tx.QueryRow(nextOrdSQL, s.Tenant).Scan(&n); err != nil {
			return unavailable("put spec", err)
		}
		res, err := tx.Exec(`INSERT INTO specs (tenant, name, version, body, create_time, ord) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (tenant, name, version) DO NOTHING`, s.Tenant, s.Name, s.Version, s.Body, store.Nanos(s.CreateTime), n+1)
		if err != nil {
			return unavailable("put spec", err)
		}
		rows, _ := res.RowsAffected()
		created = rows == 1
		return nil
	}, func() {
		if created {
			db.newest.forget(specName{s.Tenant, s.Name})
		}
	})
	if err != nil {
		return store.Spec{}, false, err
	}
	if created {
		return s, true, nil
	}
	existing, err := db.getSpec(ctx, s.Tenant, s.Name, s.Version)
	return existing, false, err
}

// newestSpecs caches the newest Version of each Spec name, which every
// StartRun that names no version reads (3.5% of the CPU of the bench's
// SQLite c16 phase). Versions by name and version are cached above the
// store (versions.Registry). A PutSpec that adds a Version forgets its
// name once it committed, in the writer; a read that missed fills the
// cache only if no PutSpec committed while it read, as in runCache.
type newestSpecs struct {
	mu    sync.Mutex
	m     map[specName]store.Spec
	epoch uint64
}

type specName struct{ tenant, name string }

// newestSpecsSize bounds the names the cache holds; it empties when full.
const newestSpecsSize = 1024

func (c *newestSpecs) get(k specName) (store.Spec, bool, uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.m[k]
	s.Body = bytes.Clone(s.Body)
	return s, ok, c.epoch
}

func (c *newestSpecs) fill(k specName, s store.Spec, epoch uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.epoch != epoch {
		return
	}
	if c.m == nil || len(c.m) >= newestSpecsSize {
		c.m = make(map[specName]store.Spec)
	}
	s.Body = bytes.Clone(s.Body)
	c.m[k] = s
}

func (c *newestSpecs) forget(k specName) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.epoch++
	delete(c.m, k)
}

// GetSpec returns a Version, the newest when version is empty.
func (db *DB) GetSpec(ctx context.Context, tenant, name, version string) (_ store.Spec, opErr error) {
	defer db.observe("GetSpec", time.Now(), &opErr)
	return db.getSpec(ctx, tenant, name, version)
}

// getSpec is GetSpec, for the operations that read it on the way:
// they report themselves, not it.
func (db *DB) getSpec(ctx context.Context, tenant, name, version string) (store.Spec, error) {
	var epoch uint64
	if version == "" {
		var s store.Spec
		var ok bool
		if s, ok, epoch = db.newest.get(specName{tenant, name}); ok {
			return s, nil
		}
	}
	var row *sql.Row
	if version == "" {
		row = db.queryRow(ctx, `SELECT name, version, body, create_time FROM specs WHERE tenant = ? AND name = ? ORDER BY ord DESC LIMIT 1`, tenant, name)
	} else {
		row = db.queryRow(ctx, `SELECT name, version, body, create_time FROM specs WHERE tenant = ? AND name = ? AND version = ?`, tenant, name, version)
	}
	s := store.Spec{Tenant: tenant}
	var created int64
	if err := row.Scan(&s.Name, &s.Version, &s.Body, &created); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return store.Spec{}, &errs.SpecNotFound{Name: name, Version: version}
		}
		return store.Spec{}, unavailable("get spec", err)
	}
	s.CreateTime = store.FromNanos(created)
	if version == "" {
		db.newest.fill(specName{tenant, name}, s, epoch)
	}
	return s, nil
}

// ListSpecs lists Specs by name, then publish order.
func (db *DB) ListSpecs(ctx context.Context, tenant string, q store.SpecQuery) (_ []store.Spec, _ string, opErr error) {
	defer db.observe("ListSpecs", time.Now(), &opErr)
	size := pagetoken.Size(q.PageSize)
	var after pagetoken.SpecPosition
	if err := pagetoken.Decode(q.PageToken, &after); err != nil {
		return nil, "", err
	}
	var rows *sql.Rows
	var err error
	if q.Name != "" {
		rows, err = db.query(ctx, `SELECT name, version, body, create_time, ord FROM specs
			WHERE tenant = ? AND name = ? AND ord > ? ORDER BY ord LIMIT ?`, tenant, q.Name, after.Ord, size+1)
	} else {
		rows, err = db.query(ctx, `SELECT s.name, s.version, s.body, s.create_time, s.ord FROM specs s
			WHERE s.tenant = ? AND s.ord = (SELECT MAX(ord) FROM specs t WHERE t.tenant = s.tenant AND t.name = s.name)
			AND s.name > ? ORDER BY s.name LIMIT ?`, tenant, after.Name, size+1)
	}
	if err != nil {
		return nil, "", unavailable("list specs", err)
	}
	defer rows.Close()
	var out []store.Spec
	var ords []int64
	for rows.Next() {
		s := store.Spec{Tenant: tenant}
		var created, ord int64
		if err := rows.Scan(&s.Name, &s.Version, &s.Body, &created, &ord); err != nil {
			return nil, "", unavailable("list specs", err)
		}
		s.CreateTime = store.FromNanos(created)
		out = append(out, s)
		ords = append(ords, ord)
	}
	if err := rows.Err(); err != nil {
		return nil, "", unavailable("list specs", err)
	}
	next := ""
	if len(out) > size {
		out = out[:size]
		after.Name, after.Ord = out[size-1].Name, ords[size-1]
		next = pagetoken.Encode(after)
	}
	return out, next, nil
}
