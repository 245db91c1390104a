package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"sort"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
)

const toolCallColumns = `ord, tenant, call_id, run_id, tool, arguments, deadline, create_time, claim_owner, claim_token, claim_expires,
	claims, done, output, failed, failure_message, retryable, complete_time, traceparent`

// scanToolCall reads a row of toolCallColumns and returns its ord too.
func scanToolCall(row scanner) (store.ToolCall, int64, error) {
	var c store.ToolCall
	var ord, deadline, created, expires, completed int64
	var done, failed, retryable int
	var message string
	err := row.Scan(&ord, &c.Tenant, &c.CallID, &c.RunID, &c.Tool, &c.Arguments, &deadline, &created, &c.Owner, &c.Token, &expires,
		&c.Claims, &done, &c.Result.Output, &failed, &message, &retryable, &completed, &c.TraceParent)
	if err != nil {
		return store.ToolCall{}, 0, err
	}
	c.Deadline, c.CreateTime, c.ClaimExpires, c.CompleteTime = store.FromNanos(deadline), store.FromNanos(created), store.FromNanos(expires), store.FromNanos(completed)
	c.Done = done == 1
	if failed == 1 {
		c.Result.Failure = &store.ToolCallFailure{Message: message, Retryable: retryable == 1}
	}
	return c, ord, nil
}

// AdvertiseTools replaces every advert of replica.
func (db *DB) AdvertiseTools(ctx context.Context, replica string, adverts []store.ToolAdvert, expires time.Time) (opErr error) {
	defer db.observe("AdvertiseTools", time.Now(), &opErr)
	return db.exec(ctx, "advertise tools", func(tx *sql.Tx) error {
		if _, err := tx.Exec(`DELETE FROM tool_adverts WHERE replica = ?`, replica); err != nil {
			return unavailable("advertise tools", err)
		}
		for _, a := range adverts {
			_, err := tx.Exec(`INSERT INTO tool_adverts (tenant, tool, replica, description, parameters, workers, expires) VALUES (?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT (tenant, tool, replica) DO UPDATE SET description = excluded.description, parameters = excluded.parameters,
				workers = excluded.workers, expires = excluded.expires`,
				a.Tenant, a.Tool, replica, a.Description, a.Parameters, a.Workers, store.Nanos(expires))
			if err != nil {
				return unavailable("advertise tools", err)
			}
		}
		return nil
	})
}

// ServedTools returns the tools live replicas advertise, by name; a
// tool's definition is the one of the first replica by id.
func (db *DB) ServedTools(ctx context.Context, tenant string, now time.Time, exceptReplica string) (_ []store.ServedTool, opErr error) {
	defer db.observe("ServedTools", time.Now(), &opErr)
	rows, err := db.query(ctx, `SELECT tool, description, parameters, workers FROM tool_adverts
		WHERE tenant = ? AND expires > ? AND replica != ? ORDER BY tool, replica`, tenant, store.Nanos(now), exceptReplica)
	if err != nil {
		return nil, unavailable("served tools", err)
	}
	defer rows.Close()
	var out []store.ServedTool
	for rows.Next() {
		a := store.ServedTool{Replicas: 1}
		if err := rows.Scan(&a.Tool, &a.Description, &a.Parameters, &a.Workers); err != nil {
			return nil, unavailable("served tools", err)
		}
		// Rows come by tool, then replica: sum a tool's up into its first.
		if n := len(out); n > 0 && out[n-1].Tool == a.Tool {
			out[n-1].Replicas++
			out[n-1].Workers += a.Workers
			continue
		}
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, unavailable("served tools", err)
	}
	return out, nil
}

// laterDeadline is the later of a call's deadline and a new one, bound
// twice, where 0 (none) is the latest.
const laterDeadline = `CASE WHEN deadline = 0 OR ? = 0 THEN 0 ELSE MAX(deadline, ?) END`

// EnqueueToolCall stores a pending call unless its id exists, and pushes
// the deadline of an existing one back.
func (db *DB) EnqueueToolCall(ctx context.Context, c store.ToolCall) (_ store.ToolCall, _ bool, opErr error) {
	defer db.observe("EnqueueToolCall", time.Now(), &opErr)
	var stored store.ToolCall
	created := false
	args := c.Arguments
	if args == nil {
		args = []byte{}
	}
	err := db.execThen(ctx, "enqueue tool call", func(tx *sql.Tx) error {
		res, err := tx.Exec(`INSERT INTO tool_calls (tenant, call_id, run_id, tool, arguments, deadline, create_time, traceparent) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (tenant, call_id) DO NOTHING`, c.Tenant, c.CallID, c.RunID, c.Tool, args, store.Nanos(c.Deadline), store.Nanos(c.CreateTime), c.TraceParent)
		if err != nil {
			return unavailable("enqueue tool call", err)
		}
		n, _ := res.RowsAffected()
		created = n == 1
		if !created {
			if _, err := tx.Exec(`UPDATE tool_calls SET deadline = `+laterDeadline+` WHERE tenant = ? AND call_id = ? AND done = 0`,
				store.Nanos(c.Deadline), store.Nanos(c.Deadline), c.Tenant, c.CallID); err != nil {
				return unavailable("enqueue tool call", err)
			}
		}
		stored, _, err = scanToolCall(tx.QueryRow(`SELECT `+toolCallColumns+` FROM tool_calls WHERE tenant = ? AND call_id = ?`, c.Tenant, c.CallID))
		return unavailable("enqueue tool call", err)
	}, func() {
		if !stored.Done {
			db.hub.Publish(store.ToolCallsTopic(c.Tenant, c.Tool))
		}
	})
	if err != nil {
		return store.ToolCall{}, false, err
	}
	return stored, created, nil
}

// ClaimToolCalls claims up to limit claimable calls of the named tools,
// oldest first.
func (db *DB) ClaimToolCalls(ctx context.Context, tenant, owner string, tools []string, now time.Time, ttl time.Duration, limit int) (_ []store.ToolCall, opErr error) {
	defer db.observe("ClaimToolCalls", time.Now(), &opErr)
	if len(tools) == 0 || limit <= 0 {
		return nil, nil
	}
	var claimed []store.ToolCall
	err := db.exec(ctx, "claim tool calls", func(tx *sql.Tx) error {
		claimed = claimed[:0]
		args := []any{owner, store.Nanos(now.Add(ttl)), tenant}
		for _, t := range tools {
			args = append(args, t)
		}
		args = append(args, store.Nanos(now), store.Nanos(now), limit)
		rows, err := tx.Query(`UPDATE tool_calls SET claim_owner = ?, claim_token = claim_token + 1, claim_expires = ?, claims = claims + 1
			WHERE ord IN (SELECT ord FROM tool_calls WHERE tenant = ? AND done = 0 AND tool IN (`+placeholders(len(tools))+`)
				AND claim_expires <= ? AND (deadline = 0 OR deadline > ?) ORDER BY ord LIMIT ?)
			RETURNING `+toolCallColumns, args...)
		if err != nil {
			return unavailable("claim tool calls", err)
		}
		defer rows.Close()
		ords := map[string]int64{}
		for rows.Next() {
			c, ord, err := scanToolCall(rows)
			if err != nil {
				return unavailable("claim tool calls", err)
			}
			ords[c.CallID] = ord
			claimed = append(claimed, c)
		}
		sort.Slice(claimed, func(i, j int) bool { return ords[claimed[i].CallID] < ords[claimed[j].CallID] })
		return unavailable("claim tool calls", rows.Err())
	})
	if err != nil {
		return nil, err
	}
	return claimed, nil
}

// RenewToolCall extends a claim that is still held.
func (db *DB) RenewToolCall(ctx context.Context, c *store.ToolCall, now time.Time, ttl time.Duration) (opErr error) {
	defer db.observe("RenewToolCall", time.Now(), &opErr)
	expires := now.Add(ttl)
	err := db.exec(ctx, "renew tool call", func(tx *sql.Tx) error {
		res, err := tx.Exec(`UPDATE tool_calls SET claim_expires = ? WHERE tenant = ? AND call_id = ? AND claim_owner = ? AND claim_token = ? AND done = 0`,
			store.Nanos(expires), c.Tenant, c.CallID, c.Owner, c.Token)
		if err != nil {
			return unavailable("renew tool call", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return &errs.LeaseLost{RunID: c.RunID, WorkerID: c.Owner}
		}
		return nil
	})
	if err == nil {
		c.ClaimExpires = store.FromNanos(store.Nanos(expires))
	}
	return err
}

// ReleaseToolCall gives a claim up and signals that the call can be
// claimed.
func (db *DB) ReleaseToolCall(ctx context.Context, c store.ToolCall) (opErr error) {
	defer db.observe("ReleaseToolCall", time.Now(), &opErr)
	released := false
	return db.execThen(ctx, "release tool call", func(tx *sql.Tx) error {
		res, err := tx.Exec(`UPDATE tool_calls SET claim_owner = '', claim_expires = 0 WHERE tenant = ? AND call_id = ? AND claim_owner = ? AND claim_token = ? AND done = 0`,
			c.Tenant, c.CallID, c.Owner, c.Token)
		if err != nil {
			return unavailable("release tool call", err)
		}
		n, _ := res.RowsAffected()
		released = n == 1
		return nil
	}, func() {
		if released {
			db.hub.Publish(store.ToolCallsTopic(c.Tenant, c.Tool))
		}
	})
}

// CompleteToolCall records the result of a claimed call, once.
func (db *DB) CompleteToolCall(ctx context.Context, c store.ToolCall, r store.ToolCallResult, now time.Time) (opErr error) {
	defer db.observe("CompleteToolCall", time.Now(), &opErr)
	failed, message, retryable := 0, "", 0
	if f := r.Failure; f != nil {
		failed, message, retryable = 1, f.Message, boolInt(f.Retryable)
	}
	return db.exec(ctx, "complete tool call", func(tx *sql.Tx) error {
		res, err := tx.Exec(`UPDATE tool_calls SET done = 1, output = ?, failed = ?, failure_message = ?, retryable = ?, complete_time = ?
			WHERE tenant = ? AND call_id = ? AND claim_owner = ? AND claim_token = ? AND done = 0`,
			r.Output, failed, message, retryable, store.Nanos(now), c.Tenant, c.CallID, c.Owner, c.Token)
		if err != nil {
			return unavailable("complete tool call", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return &errs.LeaseLost{RunID: c.RunID, WorkerID: c.Owner}
		}
		return nil
	}, store.ToolResultTopic(c.Tenant, c.CallID))
}

// GetToolCall returns a call.
func (db *DB) GetToolCall(ctx context.Context, tenant, callID string) (_ store.ToolCall, _ bool, opErr error) {
	defer db.observe("GetToolCall", time.Now(), &opErr)
	c, _, err := scanToolCall(db.queryRow(ctx, `SELECT `+toolCallColumns+` FROM tool_calls WHERE tenant = ? AND call_id = ?`, tenant, callID))
	if errors.Is(err, sql.ErrNoRows) {
		return store.ToolCall{}, false, nil
	}
	if err != nil {
		return store.ToolCall{}, false, unavailable("get tool call", err)
	}
	return c, true, nil
}

// AbandonToolCall deletes a call that is neither done nor claimed.
func (db *DB) AbandonToolCall(ctx context.Context, tenant, callID string, now time.Time) (_ bool, opErr error) {
	defer db.observe("AbandonToolCall", time.Now(), &opErr)
	deleted := false
	err := db.exec(ctx, "abandon tool call", func(tx *sql.Tx) error {
		res, err := tx.Exec(`DELETE FROM tool_calls WHERE tenant = ? AND call_id = ? AND done = 0 AND claim_expires <= ?`, tenant, callID, store.Nanos(now))
		if err != nil {
			return unavailable("abandon tool call", err)
		}
		n, _ := res.RowsAffected()
		deleted = n == 1
		return nil
	})
	return deleted, err
}

// PruneToolCalls deletes expired adverts and calls nobody needs.
func (db *DB) PruneToolCalls(ctx context.Context, now time.Time, keep time.Duration) (_ int, opErr error) {
	defer db.observe("PruneToolCalls", time.Now(), &opErr)
	deleted := 0
	before := store.Nanos(now.Add(-keep))
	err := db.exec(ctx, "prune tool calls", func(tx *sql.Tx) error {
		if _, err := tx.Exec(`DELETE FROM tool_adverts WHERE expires <= ?`, store.Nanos(now)); err != nil {
			return unavailable("prune tool calls", err)
		}
		res, err := tx.Exec(`DELETE FROM tool_calls WHERE (done = 1 AND complete_time < ?)
			OR (done = 0 AND CASE WHEN deadline > 0 THEN deadline ELSE create_time END < ?)`, before, before)
		if err != nil {
			return unavailable("prune tool calls", err)
		}
		n, _ := res.RowsAffected()
		deleted = int(n)
		return nil
	})
	return deleted, err
}
