package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/runsvc/runsvc/internal/errs"

	"github.com/runsvc/runsvc/internal/store"
)

// DeleteRuns implements store.Lifecycle: the deletions are one write of
// the writer, each in its own savepoint, so a crash leaves every Run whole
// or gone. The file deletes with secure_delete on, so the freed bytes are
// zeroed as they are freed; Compact then moves them out of the WAL.
func (db *DB) DeleteRuns(ctx context.Context, ds []store.RunDeletion) (_ []string, opErr error) {
	defer db.observe("DeleteRuns", time.Now(), &opErr)
	if len(ds) == 0 {
		return nil, nil
	}
	deleted, _, err := db.deleteRuns(ctx, ds, "", "")
	return deleted, err
}

// DeleteThread implements store.Lifecycle: one write deletes the batch,
// then the thread's row if no Run is left on it.
func (db *DB) DeleteThread(ctx context.Context, tenant, threadID string, ds []store.RunDeletion) (_ []string, _ bool, opErr error) {
	defer db.observe("DeleteThread", time.Now(), &opErr)
	return db.deleteRuns(ctx, ds, tenant, threadID)
}

// deleteRuns deletes ds in one write and, when threadID is set, the
// thread's row once none of its Runs is left.
func (db *DB) deleteRuns(ctx context.Context, ds []store.RunDeletion, tenant, threadID string) ([]string, bool, error) {
	var deleted []string
	threadGone := false
	children := map[string][]string{}
	var topics []string
	for _, d := range ds {
		topics = append(topics, store.DeletedTopics(d.Tenant, d.RunID)...)
	}
	subsGone := false
	err := db.execThen(ctx, "delete runs", func(tx *sql.Tx) error {
		deleted, children, threadGone, subsGone = nil, map[string][]string{}, false, false
		for _, d := range ds {
			ok, kids, err := db.deleteRun(tx, d)
			if err != nil {
				return unavailable("delete runs", err)
			}
			if !ok {
				continue
			}
			deleted = append(deleted, d.RunID)
			children[d.Tenant] = append(children[d.Tenant], kids...)
			subs, err := db.deleteRunSubscriptions(tx, d.Tenant, d.RunID)
			if err != nil {
				return unavailable("delete runs", err)
			}
			subsGone = subsGone || subs
		}
		if threadID == "" {
			return nil
		}
		res, err := tx.Exec(`DELETE FROM threads WHERE tenant = ? AND thread_id = ?
			AND NOT EXISTS (SELECT 1 FROM runs WHERE tenant = ? AND thread_id = ?)`, tenant, threadID, tenant, threadID)
		if err != nil {
			return unavailable("delete thread", err)
		}
		n, err := res.RowsAffected()
		threadGone = n == 1
		return unavailable("delete thread", err)
	}, func() {
		for _, d := range ds {
			db.cache.drop(d.Tenant, d.RunID)
		}
		for tenant, kids := range children {
			for _, id := range kids {
				db.cache.update(tenant, id, func(r *store.Run) { r.ParentRunID = "" })
			}
		}
		if subsGone {
			db.hub.Publish(store.WebhooksTopic)
		}
	}, topics...)
	if err != nil {
		return nil, false, err
	}
	return deleted, threadGone, nil
}

// The statements of a deletion, prepared when the store opens (hotWrites).
const (
	deleteRunSQL     = `DELETE FROM runs WHERE tenant = ? AND run_id = ? AND last_seq = ? RETURNING thread_id`
	deleteRecordsSQL = `DELETE FROM records WHERE tenant = ? AND run_id = ?`
	// A Run's calls are "<runId>/<callId>": the range keeps to the index.
	deleteCallsSQL = `DELETE FROM tool_calls WHERE tenant = ? AND call_id >= ? AND call_id < ? AND run_id = ?`
	// A Run's webhook subscriptions (its A2A push configs), through
	// webhook_subscriptions_run (without statistics the planner would take
	// the primary key's tenant range).
	deleteRunSubscriptionsSQL = `DELETE FROM webhook_subscriptions INDEXED BY webhook_subscriptions_run WHERE run_id = ? AND tenant = ? RETURNING id`
	// The literal condition lets the partial index runs_parent serve.
	unlinkChildrenSQL = `UPDATE runs SET parent_run_id = '' WHERE tenant = ? AND parent_run_id = ? AND parent_run_id != '' RETURNING run_id`
)

// deleteRun deletes one Run if its log's last seq is d.LastSeq, and
// returns whether it did and the children it unlinked.
func (db *DB) deleteRun(tx *sql.Tx, d store.RunDeletion) (bool, []string, error) {
	exec := func(q string, args ...any) (sql.Result, error) {
		s, err := db.txStmt(tx, q)
		if err != nil {
			return nil, err
		}
		return s.Exec(args...)
	}
	del, err := db.txStmt(tx, deleteRunSQL)
	if err != nil {
		return false, nil, err
	}
	var thread string
	err = del.QueryRow(d.Tenant, d.RunID, d.LastSeq).Scan(&thread)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil, nil
	}
	if err != nil {
		return false, nil, err
	}
	if thread != "" {
		// The thread's history loses the Run's part, and histories read
		// before now may hold it.
		if _, err := exec(deleteHistorySQL, d.Tenant, d.RunID); err != nil {
			return false, nil, err
		}
		if _, err := exec(countDeletionSQL, d.Tenant, thread); err != nil {
			return false, nil, err
		}
	}
	if _, err := exec(deleteRecordsSQL, d.Tenant, d.RunID); err != nil {
		return false, nil, err
	}
	if _, err := exec(deleteCallsSQL, d.Tenant, d.RunID+"/", d.RunID+"0", d.RunID); err != nil {
		return false, nil, err
	}
	if len(d.Namespaces) > 0 {
		args := []any{d.Tenant}
		for _, ns := range d.Namespaces {
			args = append(args, ns)
		}
		if _, err := tx.Exec(`DELETE FROM memory WHERE tenant = ? AND namespace IN (`+placeholders(len(d.Namespaces))+`)`, args...); err != nil {
			return false, nil, err
		}
	}
	unlink, err := db.txStmt(tx, unlinkChildrenSQL)
	if err != nil {
		return false, nil, err
	}
	rows, err := unlink.Query(d.Tenant, d.RunID)
	if err != nil {
		return false, nil, err
	}
	defer rows.Close()
	var kids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return false, nil, err
		}
		kids = append(kids, id)
	}
	return true, kids, rows.Err()
}

// deleteRunSubscriptions deletes the webhook subscriptions that follow a
// Run, with their outbox rows and log, and reports whether there were any.
func (db *DB) deleteRunSubscriptions(tx *sql.Tx, tenant, runID string) (bool, error) {
	del, err := db.txStmt(tx, deleteRunSubscriptionsSQL)
	if err != nil {
		return false, err
	}
	rows, err := del.Query(runID, tenant)
	if err != nil {
		return false, err
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return false, err
		}
		ids = append(ids, id)
	}
	if err := rows.Close(); err != nil {
		return false, err
	}
	for _, id := range ids {
		if _, err := tx.Exec(`DELETE FROM webhook_deliveries WHERE tenant = ? AND subscription_id = ?`, tenant, id); err != nil {
			return false, err
		}
		if _, err := tx.Exec(`DELETE FROM webhook_attempts WHERE tenant = ? AND subscription_id = ?`, tenant, id); err != nil {
			return false, err
		}
	}
	return len(ids) > 0, nil
}

// SettledGroups implements store.Lifecycle.
func (db *DB) SettledGroups(ctx context.Context, settled []string) (_ []store.RunGroup, opErr error) {
	defer db.observe("SettledGroups", time.Now(), &opErr)
	args := make([]any, len(settled))
	for i, s := range settled {
		args[i] = s
	}
	rows, err := db.query(ctx, `SELECT DISTINCT tenant, spec, version FROM runs WHERE state IN (`+placeholders(len(settled))+`)`, args...)
	if err != nil {
		return nil, unavailable("settled groups", err)
	}
	defer rows.Close()
	var out []store.RunGroup
	for rows.Next() {
		var g store.RunGroup
		if err := rows.Scan(&g.Tenant, &g.Spec, &g.Version); err != nil {
			return nil, unavailable("settled groups", err)
		}
		out = append(out, g)
	}
	return out, unavailable("settled groups", rows.Err())
}

// ExpiredRuns implements store.Lifecycle.
func (db *DB) ExpiredRuns(ctx context.Context, q store.ExpiryQuery) (_ []store.Run, opErr error) {
	defer db.observe("ExpiredRuns", time.Now(), &opErr)
	in := placeholders(len(q.Settled))
	args := []any{q.Tenant, q.Spec, q.Version}
	for _, s := range q.Settled {
		args = append(args, s)
	}
	args = append(args, store.Nanos(q.Before))
	for _, s := range q.Settled {
		args = append(args, s)
	}
	for _, s := range q.Settled {
		args = append(args, s)
	}
	limit := q.Limit
	if limit <= 0 {
		limit = -1
	}
	args = append(args, limit)
	cols := prefixed(runColumns, "r.")
	rows, err := db.query(ctx, `SELECT `+cols+` FROM runs r WHERE r.tenant = ? AND r.spec = ? AND r.version = ? AND r.state IN (`+in+`)
		AND r.update_time < ? AND NOT EXISTS (SELECT 1 FROM runs p WHERE p.tenant = r.tenant AND p.run_id = r.parent_run_id
		AND r.parent_run_id != '' AND p.state NOT IN (`+in+`))
		AND NOT EXISTS (SELECT 1 FROM runs t WHERE t.tenant = r.tenant AND t.thread_id = r.thread_id
		AND r.thread_id != '' AND t.thread_id != '' AND t.state NOT IN (`+in+`)) ORDER BY r.update_time, r.run_id LIMIT ?`, args...)
	if err != nil {
		return nil, unavailable("expired runs", err)
	}
	defer rows.Close()
	var out []store.Run
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return nil, unavailable("expired runs", err)
		}
		out = append(out, r)
	}
	return out, unavailable("expired runs", rows.Err())
}

// Compact implements store.Lifecycle: a TRUNCATE checkpoint copies every
// committed page (with secure_delete, deleted cells are zeroed in them)
// into the database file and empties the WAL, which held the deleted
// bytes in older frames.
func (db *DB) Compact(ctx context.Context) (opErr error) {
	defer db.observe("Compact", time.Now(), &opErr)
	return db.maintain(ctx, "compact", func(conn *sql.DB) error {
		var busy, logFrames, done int
		if err := conn.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logFrames, &done); err != nil {
			return err
		}
		if busy != 0 {
			return errCheckpointBusy
		}
		return nil
	})
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

// errCheckpointBusy is a checkpoint that readers kept from finishing.
var errCheckpointBusy = errors.New("a reader kept the checkpoint from finishing; try again")

// maintenance is work the writer runs on its connection between
// transactions, for statements that cannot run inside one.
type maintenance struct {
	fn  func(conn *sql.DB) error
	err chan error
}

// maintain runs fn in the writer goroutine, outside any transaction, and
// waits for it.
func (db *DB) maintain(ctx context.Context, op string, fn func(conn *sql.DB) error) error {
	m := &maintenance{fn: fn, err: make(chan error, 1)}
	select {
	case db.maint <- m:
	case <-ctx.Done():
		return ctx.Err()
	case <-db.stop:
		return &errs.StoreUnavailable{Operation: op, Cause: errors.New("store closed")}
	}
	return unavailable(op, <-m.err)
}
