package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/pagetoken"
)

// PutSpec stores a Version unless (tenant, name, version) exists, and then
// returns the stored one with created false.
func (db *DB) PutSpec(ctx context.Context, s store.Spec) (_ store.Spec, _ bool, opErr error) {
	defer db.observe("PutSpec", time.Now(), &opErr)
	tag, err := db.pool.Exec(ctx, `INSERT INTO specs (tenant, name, version, body, create_time) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (tenant, name, version) DO NOTHING`, s.Tenant, s.Name, s.Version, bytesOrEmpty(s.Body), store.Nanos(s.CreateTime))
	if err != nil {
		return store.Spec{}, false, unavailable(ctx, "put spec", err)
	}
	if tag.RowsAffected() == 1 {
		return s, true, nil
	}
	existing, err := db.getSpec(ctx, s.Tenant, s.Name, s.Version)
	return existing, false, err
}

// GetSpec returns a Version, the newest when version is empty, or
// *errs.SpecNotFound.
func (db *DB) GetSpec(ctx context.Context, tenant, name, version string) (_ store.Spec, opErr error) {
	defer db.observe("GetSpec", time.Now(), &opErr)
	return db.getSpec(ctx, tenant, name, version)
}

// getSpec is GetSpec, for the operations that read it on the way:
// they report themselves, not it.
func (db *DB) getSpec(ctx context.Context, tenant, name, version string) (store.Spec, error) {
	var row pgx.Row
	if version == "" {
		row = db.pool.QueryRow(ctx, `SELECT name, version, body, create_time FROM specs
			WHERE tenant = $1 AND name = $2 ORDER BY ord DESC LIMIT 1`, tenant, name)
	} else {
		row = db.pool.QueryRow(ctx, `SELECT name, version, body, create_time FROM specs
			WHERE tenant = $1 AND name = $2 AND version = $3`, tenant, name, version)
	}
	s := store.Spec{Tenant: tenant}
	var created int64
	if err := row.Scan(&s.Name, &s.Version, &s.Body, &created); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return store.Spec{}, &errs.SpecNotFound{Name: name, Version: version}
		}
		return store.Spec{}, unavailable(ctx, "get spec", err)
	}
	s.CreateTime = store.FromNanos(created)
	return s, nil
}

// ListSpecs lists the newest Version of each Spec by name or, with
// q.Name, every Version of one Spec in publish order. A page token that
// this store did not issue is *errs.InvalidRequest.
func (db *DB) ListSpecs(ctx context.Context, tenant string, q store.SpecQuery) (_ []store.Spec, _ string, opErr error) {
	defer db.observe("ListSpecs", time.Now(), &opErr)
	size := pagetoken.Size(q.PageSize)
	var after pagetoken.SpecPosition
	if err := pagetoken.Decode(q.PageToken, &after); err != nil {
		return nil, "", err
	}
	var rows pgx.Rows
	var err error
	if q.Name != "" {
		rows, err = db.pool.Query(ctx, `SELECT name, version, body, create_time, ord FROM specs
			WHERE tenant = $1 AND name = $2 AND ord > $3 ORDER BY ord LIMIT $4`, tenant, q.Name, after.Ord, size+1)
	} else {
		rows, err = db.pool.Query(ctx, `SELECT DISTINCT ON (name) name, version, body, create_time, ord FROM specs
			WHERE tenant = $1 AND name > $2 ORDER BY name, ord DESC LIMIT $3`, tenant, after.Name, size+1)
	}
	if err != nil {
		return nil, "", unavailable(ctx, "list specs", err)
	}
	defer rows.Close()
	var out []store.Spec
	var ords []int64
	for rows.Next() {
		s := store.Spec{Tenant: tenant}
		var created, ord int64
		if err := rows.Scan(&s.Name, &s.Version, &s.Body, &created, &ord); err != nil {
			return nil, "", unavailable(ctx, "list specs", err)
		}
		s.CreateTime = store.FromNanos(created)
		out = append(out, s)
		ords = append(ords, ord)
	}
	if err := rows.Err(); err != nil {
		return nil, "", unavailable(ctx, "list specs", err)
	}
	next := ""
	if len(out) > size {
		out = out[:size]
		after.Name, after.Ord = out[size-1].Name, ords[size-1]
		next = pagetoken.Encode(after)
	}
	return out, next, nil
}
