package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
)

// The Runs a claim picks: runnable ones, the highest priority first and,
// within a priority, the lowest place in the fairness keys' turns
// (runs_claim's order); then idle ones past their wake time.
const (
	claimRunnable = `SELECT rowid FROM runs WHERE runnable = 1 AND lease_expires <= ? ORDER BY priority DESC, fair_pass, update_time LIMIT ?`
	claimWaking   = `SELECT rowid FROM runs WHERE wake_at > 0 AND wake_at <= ? AND lease_expires <= ? ORDER BY wake_at LIMIT ?`
)

// claimSQL leases the Runs pick selects.
func claimSQL(pick string) string {
	return `UPDATE runs SET lease_owner = ?, lease_token = lease_token + 1, lease_expires = ?
		WHERE rowid IN (` + pick + `) RETURNING tenant, run_id, lease_token`
}

// Claim leases up to limit Runs that need a worker: runnable ones first,
// by priority and fairness, then idle ones past their wake time.
func (db *DB) Claim(ctx context.Context, owner string, now time.Time, ttl time.Duration, limit int) (_ []*store.Lease, opErr error) {
	defer db.observe("Claim", time.Now(), &opErr)
	var leases []*store.Lease
	expires := now.Add(ttl)
	err := db.execThen(ctx, "claim", func(tx *sql.Tx) error {
		leases = leases[:0]
		for _, pick := range []struct {
			query string
			args  []any
		}{
			{claimRunnable, []any{store.Nanos(now)}},
			{claimWaking, []any{store.Nanos(now), store.Nanos(now)}},
		} {
			if len(leases) >= limit {
				break
			}
			claim, err := db.txStmt(tx, claimSQL(pick.query))
			if err != nil {
				return unavailable("claim", err)
			}
			rows, err := claim.Query(append(append([]any{owner, store.Nanos(expires)}, pick.args...), limit-len(leases))...)
			if err != nil {
				return unavailable("claim", err)
			}
			for rows.Next() {
				l := &store.Lease{Owner: owner, Expires: expires}
				if err := rows.Scan(&l.Tenant, &l.RunID, &l.Token); err != nil {
					rows.Close()
					return unavailable("claim", err)
				}
				leases = append(leases, l)
			}
			if err := rows.Close(); err != nil {
				return unavailable("claim", err)
			}
		}
		return nil
	}, func() {
		for _, l := range leases {
			db.cache.update(l.Tenant, l.RunID, func(r *store.Run) { r.LeaseOwner, r.LeaseExpires = l.Owner, l.Expires.UTC() })
		}
	})
	return leases, err
}

// Renew extends a lease that is still held.
func (db *DB) Renew(ctx context.Context, l *store.Lease, now time.Time, ttl time.Duration) (opErr error) {
	defer db.observe("Renew", time.Now(), &opErr)
	expires := now.Add(ttl)
	err := db.execThen(ctx, "renew lease", func(tx *sql.Tx) error {
		res, err := tx.Exec(`UPDATE runs SET lease_expires = ? WHERE tenant = ? AND run_id = ? AND lease_owner = ? AND lease_token = ?`,
			store.Nanos(expires), l.Tenant, l.RunID, l.Owner, l.Token)
		if err != nil {
			return unavailable("renew lease", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return &errs.LeaseLost{RunID: l.RunID, WorkerID: l.Owner}
		}
		return nil
	}, func() {
		db.cache.update(l.Tenant, l.RunID, func(r *store.Run) { r.LeaseExpires = expires.UTC() })
	})
	if err == nil {
		l.Expires = expires
	}
	return err
}

// Release gives a lease up.
func (db *DB) Release(ctx context.Context, l *store.Lease) (opErr error) {
	defer db.observe("Release", time.Now(), &opErr)
	return db.execThen(ctx, "release lease", func(tx *sql.Tx) error {
		_, err := tx.Exec(`UPDATE runs SET lease_owner = '', lease_expires = 0 WHERE tenant = ? AND run_id = ? AND lease_owner = ? AND lease_token = ?`,
			l.Tenant, l.RunID, l.Owner, l.Token)
		return unavailable("release lease", err)
	}, func() { db.cache.drop(l.Tenant, l.RunID) }, store.TopicRunnable)
}

// nextWakeSQL is the earliest time a Run with a wake time may be claimed:
// the first key of the index runs_due, however many Runs sleep. The index
// is named: without statistics the planner prefers runs_wake's range and
// sorts every sleeping Run.
const nextWakeSQL = `SELECT MAX(wake_at, lease_expires) FROM runs INDEXED BY runs_due WHERE wake_at > 0 ORDER BY MAX(wake_at, lease_expires) LIMIT 1`

// NextWake returns the earliest wake time of an idle Run.
func (db *DB) NextWake(ctx context.Context) (_ time.Time, _ bool, opErr error) {
	defer db.observe("NextWake", time.Now(), &opErr)
	var at int64
	err := db.queryRow(ctx, nextWakeSQL).Scan(&at)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, false, nil
	}
	if err != nil {
		return time.Time{}, false, unavailable("next wake", err)
	}
	return store.FromNanos(at), true, nil
}

// pingSQL reads the file's first page (the schema), as any query does
// first, and nothing else.
const pingSQL = `SELECT count(*) FROM (SELECT 1 FROM sqlite_schema LIMIT 1)`

// Ping asks the file one question that costs the same whatever it holds.
func (db *DB) Ping(ctx context.Context) (opErr error) {
	defer db.observe("Ping", time.Now(), &opErr)
	var n int
	return unavailable("ping", db.queryRow(ctx, pingSQL).Scan(&n))
}
