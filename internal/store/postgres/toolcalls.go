package postgres

import (
	"context"
	"errors"
	"sort"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
)

const toolCallColumns = `ord, tenant, call_id, run_id, tool, arguments, deadline, create_time, claim_owner, claim_token, claim_expires,
	claims, done, output, failed, failure_message, retryable, complete_time, traceparent`

// scanToolCall reads a row of toolCallColumns and returns its ord too.
func scanToolCall(row pgx.Row) (store.ToolCall, int64, error) {
	var c store.ToolCall
	var ord, deadline, created, expires, completed int64
	var claims int32
	var failed, retryable bool
	var message string
	err := row.Scan(&ord, &c.Tenant, &c.CallID, &c.RunID, &c.Tool, &c.Arguments, &deadline, &created, &c.Owner, &c.Token, &expires,
		&claims, &c.Done, &c.Result.Output, &failed, &message, &retryable, &completed, &c.TraceParent)
	if err != nil {
		return store.ToolCall{}, 0, err
	}
	c.Deadline, c.CreateTime, c.ClaimExpires, c.CompleteTime = store.FromNanos(deadline), store.FromNanos(created), store.FromNanos(expires), store.FromNanos(completed)
	c.Claims = int(claims)
	if failed {
		c.Result.Failure = &store.ToolCallFailure{Message: message, Retryable: retryable}
	}
	return c, ord, nil
}

// AdvertiseTools replaces every advert of replica in one transaction.
func (db *DB) AdvertiseTools(ctx context.Context, replica string, adverts []store.ToolAdvert, expires time.Time) (opErr error) {
	defer db.observe("AdvertiseTools", time.Now(), &opErr)
	return db.inTx(ctx, "advertise tools", func(tx *txn) error {
		if _, err := tx.Exec(ctx, `DELETE FROM tool_adverts WHERE replica = $1`, replica); err != nil {
			return err
		}
		for _, a := range adverts {
			_, err := tx.Exec(ctx, `INSERT INTO tool_adverts (tenant, tool, replica, description, parameters, workers, expires)
				VALUES ($1, $2, $3, $4, $5, $6, $7)
				ON CONFLICT (tenant, tool, replica) DO UPDATE SET description = excluded.description, parameters = excluded.parameters,
				workers = excluded.workers, expires = excluded.expires`,
				a.Tenant, a.Tool, replica, a.Description, a.Parameters, int32(a.Workers), store.Nanos(expires))
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// ServedTools returns the tools live replicas advertise, by name; a
// tool's definition is the one of the first replica by id.
func (db *DB) ServedTools(ctx context.Context, tenant string, now time.Time, exceptReplica string) (_ []store.ServedTool, opErr error) {
	defer db.observe("ServedTools", time.Now(), &opErr)
	rows, err := db.pool.Query(ctx, `SELECT tool, COUNT(*), SUM(workers),
			(array_agg(description ORDER BY replica))[1], (array_agg(parameters ORDER BY replica))[1]
		FROM tool_adverts WHERE tenant = $1 AND expires > $2 AND replica <> $3 GROUP BY tool ORDER BY tool`,
		tenant, store.Nanos(now), exceptReplica)
	if err != nil {
		return nil, unavailable(ctx, "served tools", err)
	}
	defer rows.Close()
	var out []store.ServedTool
	for rows.Next() {
		var s store.ServedTool
		var replicas, workers int64
		if err := rows.Scan(&s.Tool, &replicas, &workers, &s.Description, &s.Parameters); err != nil {
			return nil, unavailable(ctx, "served tools", err)
		}
		s.Replicas, s.Workers = int(replicas), int(workers)
		out = append(out, s)
	}
	return out, unavailable(ctx, "served tools", rows.Err())
}

// EnqueueToolCall stores a pending call unless its id exists, also when
// two enqueues race, and pushes the deadline of an existing one back.
func (db *DB) EnqueueToolCall(ctx context.Context, c store.ToolCall) (_ store.ToolCall, _ bool, opErr error) {
	defer db.observe("EnqueueToolCall", time.Now(), &opErr)
	var stored store.ToolCall
	created := false
	err := db.inTx(ctx, "enqueue tool call", func(tx *txn) error {
		tag, err := tx.Exec(ctx, `INSERT INTO tool_calls (tenant, call_id, run_id, tool, arguments, deadline, create_time, traceparent)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (tenant, call_id) DO NOTHING`,
			c.Tenant, c.CallID, c.RunID, c.Tool, bytesOrEmpty(c.Arguments), store.Nanos(c.Deadline), store.Nanos(c.CreateTime), c.TraceParent)
		if err != nil {
			return err
		}
		created = tag.RowsAffected() == 1
		if !created {
			// A retry: push the deadline back, the later one winning and
			// none (0) the latest.
			_, err := tx.Exec(ctx, `UPDATE tool_calls SET deadline = CASE WHEN deadline = 0 OR $1::bigint = 0 THEN 0 ELSE GREATEST(deadline, $1::bigint) END
				WHERE tenant = $2 AND call_id = $3 AND NOT done`, store.Nanos(c.Deadline), c.Tenant, c.CallID)
			if err != nil {
				return err
			}
		}
		stored, _, err = scanToolCall(tx.QueryRow(ctx, `SELECT `+toolCallColumns+` FROM tool_calls WHERE tenant = $1 AND call_id = $2`, c.Tenant, c.CallID))
		if err == nil && !stored.Done {
			tx.notify(store.ToolCallsTopic(c.Tenant, c.Tool))
		}
		return err
	})
	if err != nil {
		return store.ToolCall{}, false, err
	}
	return stored, created, nil
}

// ClaimToolCalls claims up to limit claimable calls of the named tools,
// oldest first. SKIP LOCKED makes concurrent claimers pass each other's
// rows, and the row locks held until the UPDATE commits mean no call is
// claimed twice.
func (db *DB) ClaimToolCalls(ctx context.Context, tenant, owner string, tools []string, now time.Time, ttl time.Duration, limit int) (_ []store.ToolCall, opErr error) {
	defer db.observe("ClaimToolCalls", time.Now(), &opErr)
	if len(tools) == 0 || limit <= 0 {
		return nil, nil
	}
	rows, err := db.pool.Query(ctx, `UPDATE tool_calls SET claim_owner = $1, claim_token = claim_token + 1, claim_expires = $2, claims = claims + 1
		WHERE (tenant, call_id) IN (SELECT tenant, call_id FROM tool_calls
			WHERE tenant = $3 AND NOT done AND tool = ANY($4) AND claim_expires <= $5 AND (deadline = 0 OR deadline > $5)
			ORDER BY ord LIMIT $6 FOR UPDATE SKIP LOCKED)
		RETURNING `+toolCallColumns,
		owner, store.Nanos(now.Add(ttl)), tenant, tools, store.Nanos(now), limit)
	if err != nil {
		return nil, unavailable(ctx, "claim tool calls", err)
	}
	defer rows.Close()
	type claimed struct {
		ord int64
		c   store.ToolCall
	}
	var got []claimed
	for rows.Next() {
		c, ord, err := scanToolCall(rows)
		if err != nil {
			return nil, unavailable(ctx, "claim tool calls", err)
		}
		got = append(got, claimed{ord, c})
	}
	if err := rows.Err(); err != nil {
		return nil, unavailable(ctx, "claim tool calls", err)
	}
	sort.Slice(got, func(i, j int) bool { return got[i].ord < got[j].ord })
	out := make([]store.ToolCall, len(got))
	for i, g := range got {
		out[i] = g.c
	}
	return out, nil
}

// RenewToolCall extends a claim that is still held, or returns
// *errs.LeaseLost.
func (db *DB) RenewToolCall(ctx context.Context, c *store.ToolCall, now time.Time, ttl time.Duration) (opErr error) {
	defer db.observe("RenewToolCall", time.Now(), &opErr)
	expires := now.Add(ttl)
	tag, err := db.pool.Exec(ctx, `UPDATE tool_calls SET claim_expires = $1
		WHERE tenant = $2 AND call_id = $3 AND claim_owner = $4 AND claim_token = $5 AND NOT done`,
		store.Nanos(expires), c.Tenant, c.CallID, c.Owner, c.Token)
	if err != nil {
		return unavailable(ctx, "renew tool call", err)
	}
	if tag.RowsAffected() == 0 {
		return &errs.LeaseLost{RunID: c.RunID, WorkerID: c.Owner}
	}
	c.ClaimExpires = store.FromNanos(store.Nanos(expires))
	return nil
}

// ReleaseToolCall gives a claim up and signals that the call can be
// claimed; releasing a claim no longer held does nothing.
func (db *DB) ReleaseToolCall(ctx context.Context, c store.ToolCall) (opErr error) {
	defer db.observe("ReleaseToolCall", time.Now(), &opErr)
	return db.inTx(ctx, "release tool call", func(tx *txn) error {
		tag, err := tx.Exec(ctx, `UPDATE tool_calls SET claim_owner = '', claim_expires = 0
			WHERE tenant = $1 AND call_id = $2 AND claim_owner = $3 AND claim_token = $4 AND NOT done`,
			c.Tenant, c.CallID, c.Owner, c.Token)
		if err != nil || tag.RowsAffected() == 0 {
			return err
		}
		tx.notify(store.ToolCallsTopic(c.Tenant, c.Tool))
		return nil
	})
}

// CompleteToolCall records the result of a claimed call, once, and
// signals it.
func (db *DB) CompleteToolCall(ctx context.Context, c store.ToolCall, r store.ToolCallResult, now time.Time) (opErr error) {
	defer db.observe("CompleteToolCall", time.Now(), &opErr)
	failed, message, retryable := false, "", false
	if f := r.Failure; f != nil {
		failed, message, retryable = true, f.Message, f.Retryable
	}
	return db.inTx(ctx, "complete tool call", func(tx *txn) error {
		tag, err := tx.Exec(ctx, `UPDATE tool_calls SET done = true, output = $1, failed = $2, failure_message = $3, retryable = $4, complete_time = $5
			WHERE tenant = $6 AND call_id = $7 AND claim_owner = $8 AND claim_token = $9 AND NOT done`,
			r.Output, failed, message, retryable, store.Nanos(now), c.Tenant, c.CallID, c.Owner, c.Token)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return &errs.LeaseLost{RunID: c.RunID, WorkerID: c.Owner}
		}
		tx.notify(store.ToolResultTopic(c.Tenant, c.CallID))
		return nil
	})
}

// GetToolCall returns a call, with found false when there is none.
func (db *DB) GetToolCall(ctx context.Context, tenant, callID string) (_ store.ToolCall, _ bool, opErr error) {
	defer db.observe("GetToolCall", time.Now(), &opErr)
	c, _, err := scanToolCall(db.pool.QueryRow(ctx, `SELECT `+toolCallColumns+` FROM tool_calls WHERE tenant = $1 AND call_id = $2`, tenant, callID))
	if errors.Is(err, pgx.ErrNoRows) {
		return store.ToolCall{}, false, nil
	}
	if err != nil {
		return store.ToolCall{}, false, unavailable(ctx, "get tool call", err)
	}
	return c, true, nil
}

// AbandonToolCall deletes a call that is neither done nor under a live
// claim.
func (db *DB) AbandonToolCall(ctx context.Context, tenant, callID string, now time.Time) (_ bool, opErr error) {
	defer db.observe("AbandonToolCall", time.Now(), &opErr)
	tag, err := db.pool.Exec(ctx, `DELETE FROM tool_calls WHERE tenant = $1 AND call_id = $2 AND NOT done AND claim_expires <= $3`,
		tenant, callID, store.Nanos(now))
	if err != nil {
		return false, unavailable(ctx, "abandon tool call", err)
	}
	return tag.RowsAffected() == 1, nil
}

// PruneToolCalls deletes expired adverts and calls nobody needs.
func (db *DB) PruneToolCalls(ctx context.Context, now time.Time, keep time.Duration) (_ int, opErr error) {
	defer db.observe("PruneToolCalls", time.Now(), &opErr)
	deleted := 0
	before := store.Nanos(now.Add(-keep))
	err := db.inTx(ctx, "prune tool calls", func(tx *txn) error {
		if _, err := tx.Exec(ctx, `DELETE FROM tool_adverts WHERE expires <= $1`, store.Nanos(now)); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `DELETE FROM tool_calls WHERE (done AND complete_time < $1)
			OR (NOT done AND CASE WHEN deadline > 0 THEN deadline ELSE create_time END < $1)`, before)
		if err != nil {
			return err
		}
		deleted = int(tag.RowsAffected())
		return nil
	})
	return deleted, err
}
