package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
)

var _ store.Aliases = (*DB)(nil)

const aliasColumns = `tenant, spec, name, version, canary, canary_percent, revision, update_time, updated_by`

const aliasMoveColumns = `tenant, spec, name, revision, time, subject, from_version, from_canary, from_percent,
	to_version, to_canary, to_percent`

func scanAlias(row pgx.Row) (store.Alias, error) {
	var a store.Alias
	var updated int64
	err := row.Scan(&a.Tenant, &a.Spec, &a.Name, &a.Version, &a.Canary, &a.CanaryPercent, &a.Revision, &updated, &a.UpdatedBy)
	a.UpdateTime = store.FromNanos(updated)
	return a, err
}

// WriteAlias writes an alias and its move, conditional on its revision.
func (db *DB) WriteAlias(ctx context.Context, w store.AliasWrite) (opErr error) {
	defer db.observe("WriteAlias", time.Now(), &opErr)
	return db.inTx(ctx, "write alias", func(tx *txn) error {
		tag, err := tx.Exec(ctx, aliasStatement(w), aliasArgs(w)...)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return store.ErrConditionFailed
		}
		m := w.Move
		_, err = tx.Exec(ctx, `INSERT INTO spec_alias_moves (`+aliasMoveColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
			m.Tenant, m.Spec, m.Name, m.Revision, store.Nanos(m.Time), m.Subject, m.FromVersion, m.FromCanary, m.FromPercent,
			m.ToVersion, m.ToCanary, m.ToPercent)
		return err
	})
}

// aliasStatement is the conditional write w makes: an insert, an update
// or a delete, each affecting no row when the revision differs.
func aliasStatement(w store.AliasWrite) string {
	switch {
	case w.Delete:
		return `DELETE FROM spec_aliases WHERE tenant = $1 AND spec = $2 AND name = $3 AND revision = $4`
	case w.IfRevision == 0:
		return `INSERT INTO spec_aliases (` + aliasColumns + `) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING`
	default:
		return `UPDATE spec_aliases SET version = $4, canary = $5, canary_percent = $6, revision = $7, update_time = $8, updated_by = $9
			WHERE tenant = $1 AND spec = $2 AND name = $3 AND revision = $10`
	}
}

// aliasArgs are aliasStatement's arguments.
func aliasArgs(w store.AliasWrite) []any {
	a := w.Alias
	switch {
	case w.Delete:
		return []any{a.Tenant, a.Spec, a.Name, w.IfRevision}
	case w.IfRevision == 0:
		return []any{a.Tenant, a.Spec, a.Name, a.Version, a.Canary, a.CanaryPercent, a.Revision, store.Nanos(a.UpdateTime), a.UpdatedBy}
	default:
		return []any{a.Tenant, a.Spec, a.Name, a.Version, a.Canary, a.CanaryPercent, a.Revision, store.Nanos(a.UpdateTime), a.UpdatedBy, w.IfRevision}
	}
}

// GetAlias returns an alias.
func (db *DB) GetAlias(ctx context.Context, tenant, spec, name string) (_ store.Alias, opErr error) {
	defer db.observe("GetAlias", time.Now(), &opErr)
	a, err := scanAlias(db.pool.QueryRow(ctx, `SELECT `+aliasColumns+` FROM spec_aliases WHERE tenant = $1 AND spec = $2 AND name = $3`, tenant, spec, name))
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Alias{}, &errs.AliasNotFound{Spec: spec, Alias: name}
	}
	return a, unavailable(ctx, "get alias", err)
}

// ListAliases lists a Spec's aliases, or the tenant's.
func (db *DB) ListAliases(ctx context.Context, tenant, spec string) (_ []store.Alias, opErr error) {
	defer db.observe("ListAliases", time.Now(), &opErr)
	rows, err := db.pool.Query(ctx, `SELECT `+aliasColumns+` FROM spec_aliases WHERE tenant = $1 AND ($2 = '' OR spec = $2) ORDER BY spec, name`, tenant, spec)
	if err != nil {
		return nil, unavailable(ctx, "list aliases", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.Alias, error) { return scanAlias(r) })
	return out, unavailable(ctx, "list aliases", err)
}

// ListAliasMoves lists an alias's moves, newest first.
func (db *DB) ListAliasMoves(ctx context.Context, tenant, spec, name string, limit int) (_ []store.AliasMove, opErr error) {
	defer db.observe("ListAliasMoves", time.Now(), &opErr)
	rows, err := db.pool.Query(ctx, `SELECT `+aliasMoveColumns+` FROM spec_alias_moves WHERE tenant = $1 AND spec = $2 AND name = $3
		ORDER BY seq DESC LIMIT $4`, tenant, spec, name, limit)
	if err != nil {
		return nil, unavailable(ctx, "list alias moves", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.AliasMove, error) {
		var m store.AliasMove
		var at int64
		err := r.Scan(&m.Tenant, &m.Spec, &m.Name, &m.Revision, &at, &m.Subject, &m.FromVersion, &m.FromCanary, &m.FromPercent,
			&m.ToVersion, &m.ToCanary, &m.ToPercent)
		m.Time = store.FromNanos(at)
		return m, err
	})
	return out, unavailable(ctx, "list alias moves", err)
}
