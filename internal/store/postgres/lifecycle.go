package postgres

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/runsvc/runsvc/internal/store"
)

// DeleteRuns implements store.Lifecycle, all the deletions in one
// transaction: a crash leaves every Run whole or gone. The Run's row is
// deleted first, conditional on its last seq, which also takes the row
// lock an append would need.
func (db *DB) DeleteRuns(ctx context.Context, ds []store.RunDeletion) (_ []string, opErr error) {
	defer db.observe("DeleteRuns", time.Now(), &opErr)
	if len(ds) == 0 {
		return nil, nil
	}
	deleted, _, err := db.deleteRuns(ctx, ds, "", "")
	return deleted, err
}

// DeleteThread implements store.Lifecycle: one transaction deletes the
// batch, then the thread's row if no Run is left on it.
func (db *DB) DeleteThread(ctx context.Context, tenant, threadID string, ds []store.RunDeletion) (_ []string, _ bool, opErr error) {
	defer db.observe("DeleteThread", time.Now(), &opErr)
	return db.deleteRuns(ctx, ds, tenant, threadID)
}

// deleteRuns deletes ds in one transaction and, when threadID is set, the
// thread's row once none of its Runs is left.
func (db *DB) deleteRuns(ctx context.Context, ds []store.RunDeletion, tenant, threadID string) ([]string, bool, error) {
	var deleted []string
	threadGone := false
	err := db.inTx(ctx, "delete runs", func(tx *txn) error {
		deleted, threadGone = nil, false
		for _, d := range ds {
			ok, err := deleteRun(ctx, tx, d)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			deleted = append(deleted, d.RunID)
			tx.notify(store.DeletedTopics(d.Tenant, d.RunID)...)
			subs, err := deleteRunSubscriptions(ctx, tx, d.Tenant, d.RunID)
			if err != nil {
				return err
			}
			if subs {
				tx.notify(store.WebhooksTopic)
			}
		}
		if threadID == "" {
			return nil
		}
		// The thread's row lock orders this with a start joining the thread.
		tag, err := tx.Exec(ctx, `DELETE FROM threads WHERE tenant = $1 AND thread_id = $2
			AND NOT EXISTS (SELECT 1 FROM runs WHERE tenant = $1 AND thread_id = $2)`, tenant, threadID)
		threadGone = err == nil && tag.RowsAffected() == 1
		return err
	})
	if err != nil {
		return nil, false, err
	}
	return deleted, threadGone, nil
}

func deleteRun(ctx context.Context, tx pgx.Tx, d store.RunDeletion) (bool, error) {
	var thread string
	err := tx.QueryRow(ctx, `DELETE FROM runs WHERE tenant = $1 AND run_id = $2 AND last_seq = $3 RETURNING thread_id`,
		d.Tenant, d.RunID, d.LastSeq).Scan(&thread)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if thread != "" {
		// The thread's history loses the Run's part, and histories read
		// before now may hold it.
		if _, err := tx.Exec(ctx, `DELETE FROM thread_history WHERE tenant = $1 AND run_id = $2`, d.Tenant, d.RunID); err != nil {
			return false, err
		}
		if _, err := tx.Exec(ctx, `UPDATE threads SET deletions = deletions + 1 WHERE tenant = $1 AND thread_id = $2`, d.Tenant, thread); err != nil {
			return false, err
		}
	}
	for _, q := range []string{
		`DELETE FROM records WHERE tenant = $1 AND run_id = $2`,
		`DELETE FROM tool_calls WHERE tenant = $1 AND run_id = $2`,
		// The literal condition lets the partial index runs_parent serve.
		`UPDATE runs SET parent_run_id = '' WHERE tenant = $1 AND parent_run_id = $2 AND parent_run_id <> ''`,
	} {
		if _, err := tx.Exec(ctx, q, d.Tenant, d.RunID); err != nil {
			return false, err
		}
	}
	if len(d.Namespaces) > 0 {
		for _, q := range []string{
			`DELETE FROM memory WHERE tenant = $1 AND namespace = ANY($2)`,
			`DELETE FROM memory_namespaces WHERE tenant = $1 AND namespace = ANY($2)`,
		} {
			if _, err := tx.Exec(ctx, q, d.Tenant, d.Namespaces); err != nil {
				return false, err
			}
		}
	}
	return true, nil
}

// deleteRunSubscriptions deletes the webhook subscriptions that follow a
// Run (its A2A push configs), with their outbox rows and log, and reports
// whether there were any.
func deleteRunSubscriptions(ctx context.Context, tx pgx.Tx, tenant, runID string) (bool, error) {
	rows, err := tx.Query(ctx, `DELETE FROM webhook_subscriptions WHERE run_id = $1 AND tenant = $2 RETURNING id`, runID, tenant)
	if err != nil {
		return false, err
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil || len(ids) == 0 {
		return false, err
	}
	for _, q := range []string{
		`DELETE FROM webhook_deliveries WHERE tenant = $1 AND subscription_id = ANY($2)`,
		`DELETE FROM webhook_attempts WHERE tenant = $1 AND subscription_id = ANY($2)`,
	} {
		if _, err := tx.Exec(ctx, q, tenant, ids); err != nil {
			return false, err
		}
	}
	return true, nil
}

// SettledGroups implements store.Lifecycle.
func (db *DB) SettledGroups(ctx context.Context, settled []string) (_ []store.RunGroup, opErr error) {
	defer db.observe("SettledGroups", time.Now(), &opErr)
	rows, err := db.pool.Query(ctx, `SELECT DISTINCT tenant, spec, version FROM runs WHERE state = ANY($1)`, settled)
	if err != nil {
		return nil, unavailable(ctx, "settled groups", err)
	}
	defer rows.Close()
	var out []store.RunGroup
	for rows.Next() {
		var g store.RunGroup
		if err := rows.Scan(&g.Tenant, &g.Spec, &g.Version); err != nil {
			return nil, unavailable(ctx, "settled groups", err)
		}
		out = append(out, g)
	}
	return out, unavailable(ctx, "settled groups", rows.Err())
}

// ExpiredRuns implements store.Lifecycle.
func (db *DB) ExpiredRuns(ctx context.Context, q store.ExpiryQuery) (_ []store.Run, opErr error) {
	defer db.observe("ExpiredRuns", time.Now(), &opErr)
	limit := any(nil)
	if q.Limit > 0 {
		limit = q.Limit
	}
	rows, err := db.pool.Query(ctx, `SELECT `+prefixed(runColumns, "r.")+` FROM runs r
		WHERE r.tenant = $1 AND r.spec = $2 AND r.version = $3 AND r.state = ANY($4) AND r.update_time < $5
		AND NOT EXISTS (SELECT 1 FROM runs p WHERE p.tenant = r.tenant AND p.run_id = r.parent_run_id
			AND r.parent_run_id <> '' AND NOT (p.state = ANY($4)))
		AND NOT EXISTS (SELECT 1 FROM runs t WHERE t.tenant = r.tenant AND t.thread_id = r.thread_id
			AND r.thread_id <> '' AND t.thread_id <> '' AND NOT (t.state = ANY($4)))
		ORDER BY r.update_time, r.run_id LIMIT $6`,
		q.Tenant, q.Spec, q.Version, q.Settled, store.Nanos(q.Before), limit)
	if err != nil {
		return nil, unavailable(ctx, "expired runs", err)
	}
	defer rows.Close()
	var out []store.Run
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return nil, unavailable(ctx, "expired runs", err)
		}
		out = append(out, r)
	}
	return out, unavailable(ctx, "expired runs", rows.Err())
}

// Compact implements store.Lifecycle: VACUUM makes the space of deleted
// rows reusable and drops them from the tables' pages' live tuples. It
// does not rewrite the files (VACUUM FULL would, under an exclusive lock
// that stops every write), so until the pages are reused the bytes may
// linger in the data files, though no query, pg_dump or replica sees them.
func (db *DB) Compact(ctx context.Context) (opErr error) {
	defer db.observe("Compact", time.Now(), &opErr)
	_, err := db.pool.Exec(ctx, `VACUUM runs, records, tool_calls, memory, memory_namespaces`)
	return unavailable(ctx, "compact", err)
}

// prefixed qualifies each of a comma-separated column list with a table
// alias.
func prefixed(columns, alias string) string {
	parts := strings.Split(columns, ",")
	for i, c := range parts {
		parts[i] = alias + strings.TrimSpace(c)
	}
	return strings.Join(parts, ", ")
}
