package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/pagetoken"
	"github.com/runsvc/runsvc/internal/store/threadqueue"
)

const threadColumns = `tenant, thread_id, create_time, update_time, active_run_id, last_run_id, runs, deletions`

func scanThread(row pgx.Row) (store.Thread, error) {
	var t store.Thread
	var created, updated int64
	var runs int32
	if err := row.Scan(&t.Tenant, &t.ThreadID, &created, &updated, &t.ActiveRunID, &t.LastRunID, &runs, &t.Deletions); err != nil {
		return store.Thread{}, err
	}
	t.CreateTime, t.UpdateTime, t.Runs = store.FromNanos(created), store.FromNanos(updated), int(runs)
	return t, nil
}

// threadTx is threadqueue.Tx on a transaction; it returns driver errors
// raw, for the caller to wrap.
type threadTx struct {
	ctx context.Context
	tx  pgx.Tx
}

var _ threadqueue.Tx = threadTx{}

// CreateThread implements threadqueue.Tx.
func (t threadTx) CreateThread(tenant, threadID string, now time.Time) error {
	_, err := t.tx.Exec(t.ctx, `INSERT INTO threads (tenant, thread_id, create_time, update_time) VALUES ($1, $2, $3, $3) ON CONFLICT DO NOTHING`,
		tenant, threadID, store.Nanos(now))
	return err
}

// LockThread implements threadqueue.Tx with the row's lock.
func (t threadTx) LockThread(tenant, threadID string) (store.Thread, bool, error) {
	th, err := scanThread(t.tx.QueryRow(t.ctx, `SELECT `+threadColumns+` FROM threads WHERE tenant = $1 AND thread_id = $2 FOR UPDATE`, tenant, threadID))
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Thread{}, false, nil
	}
	return th, err == nil, err
}

// PutThread implements threadqueue.Tx.
func (t threadTx) PutThread(th store.Thread) error {
	_, err := t.tx.Exec(t.ctx, `UPDATE threads SET active_run_id = $3, last_run_id = $4, runs = $5, update_time = $6 WHERE tenant = $1 AND thread_id = $2`,
		th.Tenant, th.ThreadID, th.ActiveRunID, th.LastRunID, th.Runs, store.Nanos(th.UpdateTime))
	return err
}

// OldestWaiting implements threadqueue.Tx.
func (t threadTx) OldestWaiting(tenant, threadID string) (string, error) {
	var next string
	err := t.tx.QueryRow(t.ctx, `SELECT run_id FROM runs WHERE tenant = $1 AND thread_id = $2 AND waiting ORDER BY thread_seq LIMIT 1`, tenant, threadID).Scan(&next)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	return next, err
}

// Unwait implements threadqueue.Tx.
func (t threadTx) Unwait(tenant, runID string) error {
	_, err := t.tx.Exec(t.ctx, `UPDATE runs SET waiting = FALSE WHERE tenant = $1 AND run_id = $2`, tenant, runID)
	return err
}

// Activate implements threadqueue.Tx.
func (t threadTx) Activate(tenant, runID, continues string, now time.Time) error {
	_, err := t.tx.Exec(t.ctx, `UPDATE runs SET waiting = FALSE, runnable = (key_state <> 2), continues_run_id = $3, update_time = $4 WHERE tenant = $1 AND run_id = $2`,
		tenant, runID, continues, store.Nanos(now))
	return err
}

// GetThread returns a thread, with found false when no Run used it.
func (db *DB) GetThread(ctx context.Context, tenant, threadID string) (_ store.Thread, _ bool, opErr error) {
	defer db.observe("GetThread", time.Now(), &opErr)
	t, err := scanThread(db.pool.QueryRow(ctx, `SELECT `+threadColumns+` FROM threads WHERE tenant = $1 AND thread_id = $2`, tenant, threadID))
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Thread{}, false, nil
	}
	if err != nil {
		return store.Thread{}, false, unavailable(ctx, "get thread", err)
	}
	return t, true, nil
}

// ListThreads lists threads newest first.
func (db *DB) ListThreads(ctx context.Context, tenant string, q store.ThreadQuery) (_ []store.Thread, _ string, opErr error) {
	defer db.observe("ListThreads", time.Now(), &opErr)
	size := pagetoken.Size(q.PageSize)
	var after pagetoken.RunPosition
	if err := pagetoken.Decode(q.PageToken, &after); err != nil {
		return nil, "", err
	}
	query := `SELECT ` + threadColumns + ` FROM threads WHERE tenant = $1`
	args := []any{tenant}
	if q.PageToken != "" {
		query += ` AND (create_time, thread_id) < ($3, $4)`
		args = append(args, 0, after.Created, after.RunID)
	} else {
		args = append(args, 0)
	}
	args[1] = size + 1
	rows, err := db.pool.Query(ctx, query+` ORDER BY create_time DESC, thread_id DESC LIMIT $2`, args...)
	if err != nil {
		return nil, "", unavailable(ctx, "list threads", err)
	}
	defer rows.Close()
	var out []store.Thread
	for rows.Next() {
		t, err := scanThread(rows)
		if err != nil {
			return nil, "", unavailable(ctx, "list threads", err)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, "", unavailable(ctx, "list threads", err)
	}
	next := ""
	if len(out) > size {
		out = out[:size]
		after.Created, after.RunID = store.Nanos(out[size-1].CreateTime), out[size-1].ThreadID
		next = pagetoken.Encode(after)
	}
	return out, next, nil
}

// PutHistoryParts implements store.Threads. A part is stored only while
// its Run's row exists: the share lock on that row orders the insert with
// the Run's deletion, which deletes the part after it.
func (db *DB) PutHistoryParts(ctx context.Context, parts []store.HistoryPart) (opErr error) {
	defer db.observe("PutHistoryParts", time.Now(), &opErr)
	if len(parts) == 0 {
		return nil
	}
	var b pgx.Batch
	for _, p := range parts {
		b.Queue(`INSERT INTO thread_history (tenant, run_id, thread_id, thread_seq, continues_run_id, body)
			SELECT $1, $2, $3, $4, $5, $6 FROM runs WHERE tenant = $1 AND run_id = $2 FOR KEY SHARE
			ON CONFLICT DO NOTHING`, p.Tenant, p.RunID, p.ThreadID, p.ThreadSeq, p.ContinuesRunID, bytesOrEmpty(p.Body))
	}
	return unavailable(ctx, "put history parts", db.pool.SendBatch(ctx, &b).Close())
}

// HistoryParts implements store.Threads.
func (db *DB) HistoryParts(ctx context.Context, tenant, threadID string, before int) (_ []store.HistoryPart, opErr error) {
	defer db.observe("HistoryParts", time.Now(), &opErr)
	rows, err := db.pool.Query(ctx, `SELECT thread_seq, run_id, continues_run_id, body FROM thread_history
		WHERE tenant = $1 AND thread_id = $2 AND thread_seq < $3 ORDER BY thread_seq`, tenant, threadID, before)
	if err != nil {
		return nil, unavailable(ctx, "history parts", err)
	}
	defer rows.Close()
	var out []store.HistoryPart
	for rows.Next() {
		p := store.HistoryPart{Tenant: tenant, ThreadID: threadID}
		var seq int32
		if err := rows.Scan(&seq, &p.RunID, &p.ContinuesRunID, &p.Body); err != nil {
			return nil, unavailable(ctx, "history parts", err)
		}
		p.ThreadSeq = int(seq)
		out = append(out, p)
	}
	return out, unavailable(ctx, "history parts", rows.Err())
}
