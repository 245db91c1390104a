package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/runsvc/runsvc/internal/store"
)

var _ store.Evaluations = (*DB)(nil)

const evaluationColumns = `tenant, evaluation_id, spec, version, body, create_time`

// PutEvaluation creates an evaluation or replaces its body.
func (db *DB) PutEvaluation(ctx context.Context, e store.Evaluation) (opErr error) {
	defer db.observe("PutEvaluation", time.Now(), &opErr)
	return db.exec(ctx, "put evaluation", func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT INTO evaluations (`+evaluationColumns+`) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (tenant, evaluation_id) DO UPDATE SET body = excluded.body`,
			e.Tenant, e.EvaluationID, e.Spec, e.Version, e.Body, store.Nanos(e.CreateTime))
		return unavailable("put evaluation", err)
	})
}

func scanEvaluation(row scanner) (store.Evaluation, error) {
	var e store.Evaluation
	var created int64
	err := row.Scan(&e.Tenant, &e.EvaluationID, &e.Spec, &e.Version, &e.Body, &created)
	e.CreateTime = store.FromNanos(created)
	return e, err
}

// GetEvaluation returns an evaluation.
func (db *DB) GetEvaluation(ctx context.Context, tenant, id string) (_ store.Evaluation, _ bool, opErr error) {
	defer db.observe("GetEvaluation", time.Now(), &opErr)
	e, err := scanEvaluation(db.read.QueryRowContext(ctx, `SELECT `+evaluationColumns+` FROM evaluations WHERE tenant = ? AND evaluation_id = ?`, tenant, id))
	if errors.Is(err, sql.ErrNoRows) {
		return e, false, nil
	}
	return e, err == nil, unavailable("get evaluation", err)
}

// ListEvaluations lists evaluations, newest first.
func (db *DB) ListEvaluations(ctx context.Context, tenant string, before time.Time, beforeID string, limit int) (_ []store.Evaluation, opErr error) {
	defer db.observe("ListEvaluations", time.Now(), &opErr)
	rows, err := db.read.QueryContext(ctx, `SELECT `+evaluationColumns+` FROM evaluations
		WHERE tenant = ? AND (? = '' OR (create_time, evaluation_id) < (?, ?)) ORDER BY create_time DESC, evaluation_id DESC LIMIT ?`,
		tenant, beforeID, store.Nanos(before), beforeID, limit)
	if err != nil {
		return nil, unavailable("list evaluations", err)
	}
	defer rows.Close()
	var out []store.Evaluation
	for rows.Next() {
		e, err := scanEvaluation(rows)
		if err != nil {
			return nil, unavailable("list evaluations", err)
		}
		out = append(out, e)
	}
	return out, unavailable("list evaluations", rows.Err())
}

// DeleteEvaluation deletes an evaluation.
func (db *DB) DeleteEvaluation(ctx context.Context, tenant, id string) (_ bool, opErr error) {
	defer db.observe("DeleteEvaluation", time.Now(), &opErr)
	var found bool
	err := db.exec(ctx, "delete evaluation", func(tx *sql.Tx) error {
		res, err := tx.Exec(`DELETE FROM evaluations WHERE tenant = ? AND evaluation_id = ?`, tenant, id)
		if err != nil {
			return unavailable("delete evaluation", err)
		}
		n, _ := res.RowsAffected()
		found = n > 0
		return nil
	})
	return found, err
}
