package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/keyqueue"
	"github.com/runsvc/runsvc/internal/store/threadqueue"
)

// SetIndex replaces a Run's index without adding Records, if its log's
// last seq is still lastSeq.
func (db *DB) SetIndex(ctx context.Context, tenant, runID string, lastSeq int64, idx store.Index, now time.Time) (opErr error) {
	defer db.observe("SetIndex", time.Now(), &opErr)
	topics := store.IndexTopics(tenant, runID, idx)
	settled := idx.Settled
	if settled {
		topics = append(topics, store.TopicRunnable)
	}
	var next string
	var granted []string
	return db.execThen(ctx, "set index", func(tx *sql.Tx) error {
		var last int64
		var thread, key string
		var keyState int
		err := tx.QueryRow(`SELECT last_seq, thread_id, concurrency_key, key_state FROM runs WHERE tenant = ? AND run_id = ?`, tenant, runID).Scan(&last, &thread, &key, &keyState)
		if errors.Is(err, sql.ErrNoRows) {
			return &errs.RunNotFound{RunID: runID}
		}
		if err != nil {
			return unavailable("set index", err)
		}
		if last != lastSeq {
			return &errs.SeqConflict{RunID: runID, Seq: lastSeq + 1}
		}
		_, err = tx.Exec(`UPDATE runs SET state = ?, runnable = (? AND waiting = 0 AND key_state != 2), wake_at = ?, summary = ?, update_time = ?, suspension = ? WHERE tenant = ? AND run_id = ?`,
			idx.State, boolInt(idx.Runnable), store.Nanos(idx.WakeAt), idx.Summary, store.Nanos(now), idx.Suspension, tenant, runID)
		if err != nil || !settled {
			return unavailable("set index", err)
		}
		next, err = threadqueue.Settle(threadTx{tx: tx, op: "settle"}, tenant, runID, thread, now)
		if err != nil {
			return err
		}
		granted, err = keyqueue.Settle(keyTx{tx: tx, op: "settle"}, tenant, runID, key, keyState, now)
		return err
	}, func() {
		db.granted(tenant, granted)
		if next != "" {
			db.cache.drop(tenant, next)
		}
		db.cache.drop(tenant, runID)
	}, topics...)
}

// CountRuns counts the Runs in states by state and suspension, from the
// runs_state index.
func (db *DB) CountRuns(ctx context.Context, states []string) (_ []store.RunCount, opErr error) {
	defer db.observe("CountRuns", time.Now(), &opErr)
	if len(states) == 0 {
		return nil, nil
	}
	args := make([]any, len(states))
	for i, s := range states {
		args[i] = s
	}
	rows, err := db.query(ctx, `SELECT state, suspension, COUNT(*) FROM runs WHERE state IN (`+placeholders(len(states))+`) GROUP BY state, suspension`, args...)
	if err != nil {
		return nil, unavailable("count runs", err)
	}
	defer rows.Close()
	var out []store.RunCount
	for rows.Next() {
		var c store.RunCount
		if err := rows.Scan(&c.State, &c.Suspension, &c.Count); err != nil {
			return nil, unavailable("count runs", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, unavailable("count runs", err)
	}
	return out, nil
}
