package sqlite

import (
	"database/sql"

	"github.com/runsvc/runsvc/internal/store"
)

// fairHeadSQL is the head of priority ?2's queue: the lowest place of its
// claimable Runs, the first key of runs_claim's range.
const fairHeadSQL = `SELECT fair_pass FROM runs WHERE runnable = 1 AND priority = ?2 ORDER BY priority DESC, fair_pass LIMIT 1`

// fairPassSQL gives key ?1 its next place for a Run of priority ?2,
// stride ?3 further than its previous one, or than the head of the
// priority's queue when that is further (a key that had nothing waiting
// joins at the head, not behind its own past), or than every key's
// newest place when nothing of the priority waits.
const fairPassSQL = `INSERT INTO fair_keys AS k (fairness_key, pass)
	SELECT ?1, COALESCE((` + fairHeadSQL + `), (SELECT max(pass) FROM fair_keys), 0) + ?3 WHERE true
	ON CONFLICT (fairness_key) DO UPDATE SET pass = MAX(k.pass + ?3, excluded.pass)
	RETURNING pass`

// fairPass sets r's claim order, inside the transaction that creates r:
// the default priority and key where it names none, and its place in its
// key's turn.
func (db *DB) fairPass(tx *sql.Tx, r *store.Run, stride int64) error {
	store.Queueing(r)
	if stride <= 0 {
		stride = store.DefaultStride
	}
	stmt, err := db.txStmt(tx, fairPassSQL)
	if err != nil {
		return unavailable("create run", err)
	}
	return unavailable("create run", stmt.QueryRow(r.FairnessKey, r.Priority, stride).Scan(&r.FairPass))
}
