package postgres

import (
	"context"

	"github.com/runsvc/runsvc/internal/store"
)

// fairPassStatement gives key $1 its next place for a Run of priority
// $2, stride $3 further than its previous one, or than the head of the
// priority's queue when that is further (a key that had nothing waiting
// joins at the head, not behind its own past), or than every key's
// newest place when nothing of the priority waits. It commits on its
// own, without waiting for the WAL flush: the key's row is locked only
// for the statement, so that a key's many concurrent starts do not queue
// on it for a flush each; a place lost in a crash only makes the next
// one of the key start from the head again.
const fairPassStatement = `WITH async AS (SELECT set_config('synchronous_commit', 'off', true)),
	head AS (SELECT COALESCE(
		(SELECT fair_pass FROM runs WHERE runnable AND priority = $2 ORDER BY priority DESC, fair_pass LIMIT 1),
		(SELECT max(pass) FROM fair_keys), 0) AS pass)
	INSERT INTO fair_keys AS k (fairness_key, pass) SELECT $1, head.pass + $3 FROM head, async
	ON CONFLICT (fairness_key) DO UPDATE SET pass = GREATEST(k.pass + $3, EXCLUDED.pass)
	RETURNING pass`

// fairPass sets r's claim order: the default priority and key where it
// names none, and its place in its key's turn.
func (db *DB) fairPass(ctx context.Context, r *store.Run, stride int64) error {
	store.Queueing(r)
	if stride <= 0 {
		stride = store.DefaultStride
	}
	if err := db.pool.QueryRow(ctx, fairPassStatement, r.FairnessKey, r.Priority, stride).Scan(&r.FairPass); err != nil {
		return unavailable(ctx, "create run", err)
	}
	return nil
}
