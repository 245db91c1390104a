package sqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
)

var _ store.Aliases = (*DB)(nil)

const aliasColumns = `tenant, spec, name, version, canary, canary_percent, revision, update_time, updated_by`

const aliasMoveColumns = `tenant, spec, name, revision, time, subject, from_version, from_canary, from_percent,
	to_version, to_canary, to_percent`

func scanAlias(row scanner) (store.Alias, error) {
	var a store.Alias
	var updated int64
	err := row.Scan(&a.Tenant, &a.Spec, &a.Name, &a.Version, &a.Canary, &a.CanaryPercent, &a.Revision, &updated, &a.UpdatedBy)
	a.UpdateTime = store.FromNanos(updated)
	return a, err
}

// WriteAlias writes an alias and its move, conditional on its revision.
func (db *DB) WriteAlias(ctx context.Context, w store.AliasWrite) (opErr error) {
	defer db.observe("WriteAlias", time.Now(), &opErr)
	failed := false
	err := db.exec(ctx, "write alias", func(tx *sql.Tx) error {
		res, err := tx.Exec(aliasStatement(w), aliasArgs(w)...)
		if err != nil {
			return unavailable("write alias", err)
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			failed = true
			return unavailable("write alias", err)
		}
		m := w.Move
		_, err = tx.Exec(`INSERT INTO spec_alias_moves (`+aliasMoveColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			m.Tenant, m.Spec, m.Name, m.Revision, store.Nanos(m.Time), m.Subject, m.FromVersion, m.FromCanary, m.FromPercent,
			m.ToVersion, m.ToCanary, m.ToPercent)
		return unavailable("write alias", err)
	})
	if err == nil && failed {
		return store.ErrConditionFailed
	}
	return err
}

// aliasStatement is the conditional write w makes: an insert, an update
// or a delete, each affecting no row when the revision differs.
func aliasStatement(w store.AliasWrite) string {
	switch {
	case w.Delete:
		return `DELETE FROM spec_aliases WHERE tenant = ? AND spec = ? AND name = ? AND revision = ?`
	case w.IfRevision == 0:
		return `INSERT INTO spec_aliases (` + aliasColumns + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`
	default:
		return `UPDATE spec_aliases SET version = ?, canary = ?, canary_percent = ?, revision = ?, update_time = ?, updated_by = ?
			WHERE tenant = ? AND spec = ? AND name = ? AND revision = ?`
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
		return []any{a.Version, a.Canary, a.CanaryPercent, a.Revision, store.Nanos(a.UpdateTime), a.UpdatedBy, a.Tenant, a.Spec, a.Name, w.IfRevision}
	}
}

// GetAlias returns an alias.
func (db *DB) GetAlias(ctx context.Context, tenant, spec, name string) (_ store.Alias, opErr error) {
	defer db.observe("GetAlias", time.Now(), &opErr)
	out, err := db.aliases(ctx, `SELECT `+aliasColumns+` FROM spec_aliases WHERE tenant = ? AND spec = ? AND name = ?`, tenant, spec, name)
	if err != nil {
		return store.Alias{}, unavailable("get alias", err)
	}
	if len(out) == 0 {
		return store.Alias{}, &errs.AliasNotFound{Spec: spec, Alias: name}
	}
	return out[0], nil
}

// ListAliases lists a Spec's aliases, or the tenant's.
func (db *DB) ListAliases(ctx context.Context, tenant, spec string) (_ []store.Alias, opErr error) {
	defer db.observe("ListAliases", time.Now(), &opErr)
	out, err := db.aliases(ctx, `SELECT `+aliasColumns+` FROM spec_aliases WHERE tenant = ? AND (? = '' OR spec = ?) ORDER BY spec, name`, tenant, spec, spec)
	return out, unavailable("list aliases", err)
}

func (db *DB) aliases(ctx context.Context, query string, args ...any) ([]store.Alias, error) {
	rows, err := db.query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.Alias
	for rows.Next() {
		a, err := scanAlias(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// ListAliasMoves lists an alias's moves, newest first.
func (db *DB) ListAliasMoves(ctx context.Context, tenant, spec, name string, limit int) (_ []store.AliasMove, opErr error) {
	defer db.observe("ListAliasMoves", time.Now(), &opErr)
	rows, err := db.query(ctx, `SELECT `+aliasMoveColumns+` FROM spec_alias_moves WHERE tenant = ? AND spec = ? AND name = ?
		ORDER BY seq DESC LIMIT ?`, tenant, spec, name, limit)
	if err != nil {
		return nil, unavailable("list alias moves", err)
	}
	defer rows.Close()
	var out []store.AliasMove
	for rows.Next() {
		var m store.AliasMove
		var at int64
		if err := rows.Scan(&m.Tenant, &m.Spec, &m.Name, &m.Revision, &at, &m.Subject, &m.FromVersion, &m.FromCanary, &m.FromPercent,
			&m.ToVersion, &m.ToCanary, &m.ToPercent); err != nil {
			return nil, unavailable("list alias moves", err)
		}
		m.Time = store.FromNanos(at)
		out = append(out, m)
	}
	return out, unavailable("list alias moves", rows.Err())
}
