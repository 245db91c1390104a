package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
)

// claims pick the Runs a worker takes, in order: runnable ones first,
// the highest priority first and, within a priority, the lowest place in
// the fairness keys' turns (runs_claim's order), then idle ones past
// their wake time. The order is the database's, so it holds across
// replicas. SKIP LOCKED
// makes concurrent claimers (and appenders) pass each other's rows, and
// the row locks held until the UPDATE commits mean no Run is leased twice.
var claims = []string{
	`UPDATE runs SET lease_owner = $1, lease_token = lease_token + 1, lease_expires = $2
	WHERE (tenant, run_id) IN (SELECT tenant, run_id FROM runs WHERE runnable AND lease_expires <= $3
		ORDER BY priority DESC, fair_pass, update_time LIMIT $4 FOR UPDATE SKIP LOCKED)
	RETURNING tenant, run_id, lease_token`,
	`UPDATE runs SET lease_owner = $1, lease_token = lease_token + 1, lease_expires = $2
	WHERE (tenant, run_id) IN (SELECT tenant, run_id FROM runs WHERE wake_at > 0 AND wake_at <= $3 AND lease_expires <= $3
		ORDER BY wake_at LIMIT $4 FOR UPDATE SKIP LOCKED)
	RETURNING tenant, run_id, lease_token`,
}

// Claim leases up to limit Runs that need a worker (runnable, or idle
// past their wake time) whose leases are free or expired. A Run is never
// leased to two owners at once.
func (db *DB) Claim(ctx context.Context, owner string, now time.Time, ttl time.Duration, limit int) (_ []*store.Lease, opErr error) {
	defer db.observe("Claim", time.Now(), &opErr)
	expires := now.Add(ttl)
	var leases []*store.Lease
	for _, claim := range claims {
		if len(leases) >= limit {
			break
		}
		rows, err := db.pool.Query(ctx, claim, owner, store.Nanos(expires), store.Nanos(now), limit-len(leases))
		if err != nil {
			return nil, unavailable(ctx, "claim", err)
		}
		for rows.Next() {
			l := &store.Lease{Owner: owner, Expires: expires}
			if err := rows.Scan(&l.Tenant, &l.RunID, &l.Token); err != nil {
				rows.Close()
				return nil, unavailable(ctx, "claim", err)
			}
			leases = append(leases, l)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, unavailable(ctx, "claim", err)
		}
	}
	return leases, nil
}

// Renew extends a lease that is still held, or returns *errs.LeaseLost.
func (db *DB) Renew(ctx context.Context, l *store.Lease, now time.Time, ttl time.Duration) (opErr error) {
	defer db.observe("Renew", time.Now(), &opErr)
	expires := now.Add(ttl)
	tag, err := db.pool.Exec(ctx, `UPDATE runs SET lease_expires = $1 WHERE tenant = $2 AND run_id = $3 AND lease_owner = $4 AND lease_token = $5`,
		store.Nanos(expires), l.Tenant, l.RunID, l.Owner, l.Token)
	if err != nil {
		return unavailable(ctx, "renew lease", err)
	}
	if tag.RowsAffected() == 0 {
		return &errs.LeaseLost{RunID: l.RunID, WorkerID: l.Owner}
	}
	l.Expires = expires
	return nil
}

// Release gives a lease up and signals that the Run may need a worker;
// releasing a lost lease does nothing.
func (db *DB) Release(ctx context.Context, l *store.Lease) (opErr error) {
	defer db.observe("Release", time.Now(), &opErr)
	return db.inTx(ctx, "release lease", func(tx *txn) error {
		tag, err := tx.Exec(ctx, `UPDATE runs SET lease_owner = '', lease_expires = 0 WHERE tenant = $1 AND run_id = $2 AND lease_owner = $3 AND lease_token = $4`,
			l.Tenant, l.RunID, l.Owner, l.Token)
		if err != nil || tag.RowsAffected() == 0 {
			return err
		}
		tx.notify(store.TopicRunnable)
		return nil
	})
}

// nextWakeSQL is the earliest time a Run with a wake time may be claimed:
// the first key of the index runs_due, however many Runs sleep.
const nextWakeSQL = `SELECT GREATEST(wake_at, lease_expires) FROM runs WHERE wake_at > 0 ORDER BY GREATEST(wake_at, lease_expires) LIMIT 1`

// NextWake returns the earliest wake time of an idle Run, of any tenant.
func (db *DB) NextWake(ctx context.Context) (_ time.Time, _ bool, opErr error) {
	defer db.observe("NextWake", time.Now(), &opErr)
	var at int64
	err := db.pool.QueryRow(ctx, nextWakeSQL).Scan(&at)
	if errors.Is(err, pgx.ErrNoRows) {
		return time.Time{}, false, nil
	}
	if err != nil {
		return time.Time{}, false, unavailable(ctx, "next wake", err)
	}
	return store.FromNanos(at), true, nil
}

// Ping asks the database for an empty answer on a pooled connection: it
// fails when the database does not answer, at a cost that does not depend
// on what it holds.
func (db *DB) Ping(ctx context.Context) (opErr error) {
	defer db.observe("Ping", time.Now(), &opErr)
	return unavailable(ctx, "ping", db.pool.Ping(ctx))
}
