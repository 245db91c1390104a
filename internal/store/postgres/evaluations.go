package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/runsvc/runsvc/internal/store"
)

var _ store.Evaluations = (*DB)(nil)

const evaluationColumns = `tenant, evaluation_id, spec, version, body, create_time`

// PutEvaluation creates an evaluation or replaces its body.
func (db *DB) PutEvaluation(ctx context.Context, e store.Evaluation) (opErr error) {
	defer db.observe("PutEvaluation", time.Now(), &opErr)
	_, err := db.pool.Exec(ctx, `INSERT INTO evaluations (`+evaluationColumns+`) VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (tenant, evaluation_id) DO UPDATE SET body = excluded.body`,
		e.Tenant, e.EvaluationID, e.Spec, e.Version, bytesOrEmpty(e.Body), store.Nanos(e.CreateTime))
	return unavailable(ctx, "put evaluation", err)
}

func scanEvaluation(row pgx.Row) (store.Evaluation, error) {
	var e store.Evaluation
	var created int64
	err := row.Scan(&e.Tenant, &e.EvaluationID, &e.Spec, &e.Version, &e.Body, &created)
	e.CreateTime = store.FromNanos(created)
	return e, err
}

// GetEvaluation returns an evaluation.
func (db *DB) GetEvaluation(ctx context.Context, tenant, id string) (_ store.Evaluation, _ bool, opErr error) {
	defer db.observe("GetEvaluation", time.Now(), &opErr)
	e, err := scanEvaluation(db.pool.QueryRow(ctx, `SELECT `+evaluationColumns+` FROM evaluations WHERE tenant = $1 AND evaluation_id = $2`, tenant, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return e, false, nil
	}
	return e, err == nil, unavailable(ctx, "get evaluation", err)
}

// ListEvaluations lists evaluations, newest first.
func (db *DB) ListEvaluations(ctx context.Context, tenant string, before time.Time, beforeID string, limit int) (_ []store.Evaluation, opErr error) {
	defer db.observe("ListEvaluations", time.Now(), &opErr)
	rows, err := db.pool.Query(ctx, `SELECT `+evaluationColumns+` FROM evaluations
		WHERE tenant = $1 AND ($2 = '' OR (create_time, evaluation_id) < ($3, $2)) ORDER BY create_time DESC, evaluation_id DESC LIMIT $4`,
		tenant, beforeID, store.Nanos(before), limit)
	if err != nil {
		return nil, unavailable(ctx, "list evaluations", err)
	}
	defer rows.Close()
	var out []store.Evaluation
	for rows.Next() {
		e, err := scanEvaluation(rows)
		if err != nil {
			return nil, unavailable(ctx, "list evaluations", err)
		}
		out = append(out, e)
	}
	return out, unavailable(ctx, "list evaluations", rows.Err())
}

// DeleteEvaluation deletes an evaluation.
func (db *DB) DeleteEvaluation(ctx context.Context, tenant, id string) (_ bool, opErr error) {
	defer db.observe("DeleteEvaluation", time.Now(), &opErr)
	tag, err := db.pool.Exec(ctx, `DELETE FROM evaluations WHERE tenant = $1 AND evaluation_id = $2`, tenant, id)
	if err != nil {
		return false, unavailable(ctx, "delete evaluation", err)
	}
	return tag.RowsAffected() > 0, nil
}
