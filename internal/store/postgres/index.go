package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/keyqueue"
	"github.com/runsvc/runsvc/internal/store/threadqueue"
)

// SetIndex replaces a Run's index without adding Records, if its log's
// last seq is still lastSeq.
func (db *DB) SetIndex(ctx context.Context, tenant, runID string, lastSeq int64, idx store.Index, now time.Time) (opErr error) {
	defer db.observe("SetIndex", time.Now(), &opErr)
	tx, err := db.pool.Begin(ctx)
	if err != nil {
		return unavailable(ctx, "set index", err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	var thread, key string
	var keyState int16
	err = tx.QueryRow(ctx, `UPDATE runs SET state = $3, runnable = ($4 AND NOT waiting AND key_state <> 2), wake_at = $5, summary = $6, update_time = $7, suspension = $9
		WHERE tenant = $1 AND run_id = $2 AND last_seq = $8 RETURNING thread_id, concurrency_key, key_state`,
		tenant, runID, idx.State, idx.Runnable, store.Nanos(idx.WakeAt), idx.Summary, store.Nanos(now), lastSeq, idx.Suspension).Scan(&thread, &key, &keyState)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return unavailable(ctx, "set index", err)
	}
	if err != nil {
		var last int64
		err := db.pool.QueryRow(ctx, `SELECT last_seq FROM runs WHERE tenant = $1 AND run_id = $2`, tenant, runID).Scan(&last)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return &errs.RunNotFound{RunID: runID}
		case err != nil:
			return unavailable(ctx, "set index", err)
		}
		return &errs.SeqConflict{RunID: runID, Seq: lastSeq + 1}
	}
	topics := store.IndexTopics(tenant, runID, idx)
	if idx.Settled {
		promoted, err := threadqueue.Settle(threadTx{ctx: ctx, tx: tx}, tenant, runID, thread, now)
		if err != nil {
			return unavailable(ctx, "set index", err)
		}
		granted, err := keyqueue.Settle(keyTx{ctx: ctx, tx: tx}, tenant, runID, key, int(keyState), now)
		if err != nil {
			return unavailable(ctx, "set index", err)
		}
		if promoted != "" || len(granted) > 0 {
			topics = append(topics, store.TopicRunnable)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return unavailable(ctx, "set index", err)
	}
	db.announce(topics...)
	return nil
}

// CountRuns counts the Runs in states by state and suspension, from the
// runs_state index.
func (db *DB) CountRuns(ctx context.Context, states []string) (_ []store.RunCount, opErr error) {
	defer db.observe("CountRuns", time.Now(), &opErr)
	if len(states) == 0 {
		return nil, nil
	}
	rows, err := db.pool.Query(ctx, `SELECT state, suspension, COUNT(*) FROM runs WHERE state = ANY($1) GROUP BY state, suspension`, states)
	if err != nil {
		return nil, unavailable(ctx, "count runs", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.RunCount, error) {
		var c store.RunCount
		err := row.Scan(&c.State, &c.Suspension, &c.Count)
		return c, err
	})
	if err != nil {
		return nil, unavailable(ctx, "count runs", err)
	}
	return out, nil
}
