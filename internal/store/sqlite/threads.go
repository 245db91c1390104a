package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/pagetoken"
	"github.com/runsvc/runsvc/internal/store/threadqueue"
)

const threadColumns = `tenant, thread_id, create_time, update_time, active_run_id, last_run_id, runs, deletions`

func scanThread(row scanner) (store.Thread, error) {
	var t store.Thread
	var created, updated int64
	if err := row.Scan(&t.Tenant, &t.ThreadID, &created, &updated, &t.ActiveRunID, &t.LastRunID, &t.Runs, &t.Deletions); err != nil {
		return store.Thread{}, err
	}
	t.CreateTime, t.UpdateTime = store.FromNanos(created), store.FromNanos(updated)
	return t, nil
}

// threadTx is threadqueue.Tx on a write transaction; errors are op's.
type threadTx struct {
	tx *sql.Tx
	op string
}

var _ threadqueue.Tx = threadTx{}

// CreateThread implements threadqueue.Tx.
func (t threadTx) CreateThread(tenant, threadID string, now time.Time) error {
	_, err := t.tx.Exec(`INSERT INTO threads (tenant, thread_id, create_time, update_time) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`,
		tenant, threadID, store.Nanos(now), store.Nanos(now))
	return unavailable(t.op, err)
}

// LockThread implements threadqueue.Tx: the single writer holds every
// row its transaction reads.
func (t threadTx) LockThread(tenant, threadID string) (store.Thread, bool, error) {
	th, err := scanThread(t.tx.QueryRow(`SELECT `+threadColumns+` FROM threads WHERE tenant = ? AND thread_id = ?`, tenant, threadID))
	if errors.Is(err, sql.ErrNoRows) {
		return store.Thread{}, false, nil
	}
	return th, err == nil, unavailable(t.op, err)
}

// PutThread implements threadqueue.Tx.
func (t threadTx) PutThread(th store.Thread) error {
	_, err := t.tx.Exec(`UPDATE threads SET active_run_id = ?, last_run_id = ?, runs = ?, update_time = ? WHERE tenant = ? AND thread_id = ?`,
		th.ActiveRunID, th.LastRunID, th.Runs, store.Nanos(th.UpdateTime), th.Tenant, th.ThreadID)
	return unavailable(t.op, err)
}

// OldestWaiting implements threadqueue.Tx.
func (t threadTx) OldestWaiting(tenant, threadID string) (string, error) {
	var next string
	err := t.tx.QueryRow(`SELECT run_id FROM runs WHERE tenant = ? AND thread_id = ? AND waiting = 1 ORDER BY thread_seq LIMIT 1`, tenant, threadID).Scan(&next)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return next, unavailable(t.op, err)
}

// Unwait implements threadqueue.Tx.
func (t threadTx) Unwait(tenant, runID string) error {
	_, err := t.tx.Exec(`UPDATE runs SET waiting = 0 WHERE tenant = ? AND run_id = ?`, tenant, runID)
	return unavailable(t.op, err)
}

// Activate implements threadqueue.Tx.
func (t threadTx) Activate(tenant, runID, continues string, now time.Time) error {
	_, err := t.tx.Exec(`UPDATE runs SET waiting = 0, runnable = (key_state != 2), continues_run_id = ?, update_time = ? WHERE tenant = ? AND run_id = ?`,
		continues, store.Nanos(now), tenant, runID)
	return unavailable(t.op, err)
}

// GetThread returns a thread.
func (db *DB) GetThread(ctx context.Context, tenant, threadID string) (_ store.Thread, _ bool, opErr error) {
	defer db.observe("GetThread", time.Now(), &opErr)
	t, err := scanThread(db.queryRow(ctx, `SELECT `+threadColumns+` FROM threads WHERE tenant = ? AND thread_id = ?`, tenant, threadID))
	if errors.Is(err, sql.ErrNoRows) {
		return store.Thread{}, false, nil
	}
	if err != nil {
		return store.Thread{}, false, unavailable("get thread", err)
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
	query := `SELECT ` + threadColumns + ` FROM threads WHERE tenant = ?`
	args := []any{tenant}
	if q.PageToken != "" {
		query += ` AND (create_time < ? OR (create_time = ? AND thread_id < ?))`
		args = append(args, after.Created, after.Created, after.RunID)
	}
	rows, err := db.query(ctx, query+` ORDER BY create_time DESC, thread_id DESC LIMIT ?`, append(args, size+1)...)
	if err != nil {
		return nil, "", unavailable("list threads", err)
	}
	defer rows.Close()
	var out []store.Thread
	for rows.Next() {
		t, err := scanThread(rows)
		if err != nil {
			return nil, "", unavailable("list threads", err)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, "", unavailable("list threads", err)
	}
	next := ""
	if len(out) > size {
		out = out[:size]
		after.Created, after.RunID = store.Nanos(out[size-1].CreateTime), out[size-1].ThreadID
		next = pagetoken.Encode(after)
	}
	return out, next, nil
}

// The statements of a thread's history, the writes prepared when the
// store opens (hotWrites). A part is stored only while its Run's row
// exists: the single writer orders it with the Run's deletion, which
// deletes the part.
const (
	putHistorySQL = `INSERT INTO thread_history (tenant, run_id, thread_id, thread_seq, continues_run_id, body)
		SELECT ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM runs WHERE tenant = ? AND run_id = ?) ON CONFLICT DO NOTHING`
	deleteHistorySQL = `DELETE FROM thread_history WHERE tenant = ? AND run_id = ?`
	countDeletionSQL = `UPDATE threads SET deletions = deletions + 1 WHERE tenant = ? AND thread_id = ?`
	historyPartsSQL  = `SELECT thread_seq, run_id, continues_run_id, body FROM thread_history
		WHERE tenant = ? AND thread_id = ? AND thread_seq < ? ORDER BY thread_seq`
)

// PutHistoryParts implements store.Threads.
func (db *DB) PutHistoryParts(ctx context.Context, parts []store.HistoryPart) (opErr error) {
	defer db.observe("PutHistoryParts", time.Now(), &opErr)
	if len(parts) == 0 {
		return nil
	}
	return db.exec(ctx, "put history parts", func(tx *sql.Tx) error {
		s, err := db.txStmt(tx, putHistorySQL)
		if err != nil {
			return unavailable("put history parts", err)
		}
		for _, p := range parts {
			body := p.Body
			if body == nil {
				body = []byte{}
			}
			if _, err := s.Exec(p.Tenant, p.RunID, p.ThreadID, p.ThreadSeq, p.ContinuesRunID, body, p.Tenant, p.RunID); err != nil {
				return unavailable("put history parts", err)
			}
		}
		return nil
	})
}

// HistoryParts implements store.Threads.
func (db *DB) HistoryParts(ctx context.Context, tenant, threadID string, before int) (_ []store.HistoryPart, opErr error) {
	defer db.observe("HistoryParts", time.Now(), &opErr)
	rows, err := db.query(ctx, historyPartsSQL, tenant, threadID, before)
	if err != nil {
		return nil, unavailable("history parts", err)
	}
	defer rows.Close()
	var out []store.HistoryPart
	for rows.Next() {
		p := store.HistoryPart{Tenant: tenant, ThreadID: threadID}
		if err := rows.Scan(&p.ThreadSeq, &p.RunID, &p.ContinuesRunID, &p.Body); err != nil {
			return nil, unavailable("history parts", err)
		}
		out = append(out, p)
	}
	return out, unavailable("history parts", rows.Err())
}
