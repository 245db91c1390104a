package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/keyqueue"
	"github.com/runsvc/runsvc/internal/store/pagetoken"
	"github.com/runsvc/runsvc/internal/store/threadqueue"
)

const (
	insertRecordSQL = `INSERT INTO records (tenant, run_id, seq, time, attempt, kind, body) VALUES (?, ?, ?, ?, ?, ?, ?)`
	runHeadSQL      = `SELECT last_seq, lease_owner, lease_token, waiting, thread_id, concurrency_key, key_state FROM runs WHERE tenant = ? AND run_id = ?`
	runByRequestSQL = `SELECT ` + runColumns + ` FROM runs WHERE tenant = ? AND request_id = ?`
	insertRunSQL    = `INSERT INTO runs (tenant, run_id, spec, version, request_id, request_hash, parent_run_id, root_run_id, delegation_id,
		state, runnable, wake_at, summary, last_seq, create_time, update_time, suspension, thread_id, thread_seq, continues_run_id, waiting,
		lease_owner, lease_token, lease_expires, schedule_id, schedule_tick, priority, fairness_key, fair_pass, concurrency_key, key_seq, key_state, evaluation_id)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
)

// appendUpdateSQL updates a Run's index after an append, releasing its
// lease too when asked.
func appendUpdateSQL(release bool) string {
	q := `UPDATE runs SET last_seq = ?, state = ?, runnable = (? AND waiting = 0 AND key_state != 2), wake_at = ?, summary = ?, update_time = ?, suspension = ?`
	if release {
		q += `, lease_owner = '', lease_expires = 0`
	}
	return q + ` WHERE tenant = ? AND run_id = ?`
}

const runColumns = `tenant, run_id, spec, version, request_id, request_hash, parent_run_id, root_run_id, delegation_id,
state, runnable, wake_at, summary, last_seq, create_time, update_time, lease_owner, lease_expires, suspension,
	thread_id, thread_seq, continues_run_id, waiting, schedule_id, schedule_tick, priority, fairness_key, fair_pass,
	concurrency_key, key_seq, key_state, evaluation_id`

type scanner interface{ Scan(dest ...any) error }

func scanRun(row scanner) (store.Run, error) {
	var r store.Run
	var runnable, waiting int
	var wake, created, updated, expires, tick int64
	err := row.Scan(&r.Tenant, &r.RunID, &r.Spec, &r.Version, &r.RequestID, &r.RequestHash, &r.ParentRunID, &r.RootRunID, &r.DelegationID,
		&r.Index.State, &runnable, &wake, &r.Index.Summary, &r.LastSeq, &created, &updated, &r.LeaseOwner, &expires, &r.Index.Suspension,
		&r.ThreadID, &r.ThreadSeq, &r.ContinuesRunID, &waiting, &r.ScheduleID, &tick, &r.Priority, &r.FairnessKey, &r.FairPass,
		&r.ConcurrencyKey, &r.KeySeq, &r.KeyState, &r.EvaluationID)
	if err != nil {
		return store.Run{}, err
	}
	r.Index.Runnable, r.Waiting = runnable == 1, waiting == 1
	r.Index.WakeAt, r.CreateTime, r.UpdateTime, r.LeaseExpires = store.FromNanos(wake), store.FromNanos(created), store.FromNanos(updated), store.FromNanos(expires)
	r.ScheduleTick = store.FromNanos(tick)
	return r, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// CreateRun creates a Run, or returns the one its request id started.
func (db *DB) CreateRun(ctx context.Context, nr store.NewRun) (_ store.Run, _ bool, opErr error) {
	defer db.observe("CreateRun", time.Now(), &opErr)
	var existing store.Run
	created := false
	r := nr.Run
	r.LastSeq = int64(len(nr.Records))
	if r.UpdateTime.IsZero() {
		r.UpdateTime = r.CreateTime
	}
	topics := store.AppendTopics(r.Tenant, r.RunID, r.Index.Runnable && r.LeaseOwner == "", nr.Ends, nr.Records)
	var granted []string
	err := db.execThen(ctx, "create run", func(tx *sql.Tx) error {
		if r.RequestID != "" {
			byRequest, err := db.txStmt(tx, runByRequestSQL)
			if err != nil {
				return unavailable("create run", err)
			}
			found, err := scanRun(byRequest.QueryRow(r.Tenant, r.RequestID))
			if err == nil {
				existing = found
				return nil
			}
			if !errors.Is(err, sql.ErrNoRows) {
				return unavailable("create run", err)
			}
		}
		if nr.IfNoNewerVersion {
			if err := checkNoNewer(tx, r); err != nil {
				return err
			}
		}
		r.Index.Runnable = nr.Index.Runnable
		var err error
		if granted, err = joinQueues(tx, &r, nr); err != nil {
			return err
		}
		r.LeaseOwner, r.LeaseExpires = store.AdmissionLease(r)
		if err := db.fairPass(tx, &r, nr.FairStride); err != nil {
			return err
		}
		insert, err := db.txStmt(tx, insertRunSQL)
		if err != nil {
			return unavailable("create run", err)
		}
		_, err = insert.Exec(
			r.Tenant, r.RunID, r.Spec, r.Version, r.RequestID, r.RequestHash, r.ParentRunID, r.RootRunID, r.DelegationID,
			r.Index.State, boolInt(r.Index.Runnable), store.Nanos(r.Index.WakeAt), r.Index.Summary, r.LastSeq, store.Nanos(r.CreateTime), store.Nanos(r.UpdateTime), r.Index.Suspension,
			r.ThreadID, r.ThreadSeq, r.ContinuesRunID, boolInt(r.Waiting),
			r.LeaseOwner, boolInt(r.LeaseOwner != ""), store.Nanos(r.LeaseExpires), r.ScheduleID, store.Nanos(r.ScheduleTick), r.Priority, r.FairnessKey, r.FairPass,
			r.ConcurrencyKey, r.KeySeq, r.KeyState, r.EvaluationID)
		if err != nil {
			return unavailable("create run", err)
		}
		if err := db.insertRecords(tx, r.Tenant, r.RunID, nr.Records); err != nil {
			return err
		}
		created = true
		return nil
	}, func() {
		if created {
			db.cache.put(r, nr.Records)
		}
		db.granted(r.Tenant, granted)
	}, topics...)
	if err != nil {
		return store.Run{}, false, err
	}
	if !created {
		return existing, false, nil
	}
	return r, true, nil
}

// joinQueues puts r, being created as nr asks, on its thread and its
// concurrency key, if it names them; it returns the Runs of the key a
// raised limit let in.
func joinQueues(tx *sql.Tx, r *store.Run, nr store.NewRun) ([]string, error) {
	r.Waiting, r.ContinuesRunID, r.ThreadSeq = false, "", 0
	if r.ThreadID != "" {
		if err := threadqueue.Join(threadTx{tx: tx, op: "create run"}, r, nr.RejectBusy); err != nil {
			return nil, err
		}
	}
	r.KeySeq, r.KeyState = 0, store.KeyNone
	if r.ConcurrencyKey == "" {
		return nil, nil
	}
	return keyqueue.Join(keyTx{tx: tx, op: "create run"}, r, nr.RejectLimited)
}

// newerVersionSQL is true when the Spec (tenant, name) has a Version
// published after the one named (false when that one is not stored).
const newerVersionSQL = `SELECT EXISTS (SELECT 1 FROM specs newer WHERE newer.tenant = ? AND newer.name = ?
	AND newer.ord > (SELECT asked.ord FROM specs asked WHERE asked.tenant = ? AND asked.name = ? AND asked.version = ?))`

// checkNoNewer is store.ErrConditionFailed when r's Spec has a Version
// newer than r's.
func checkNoNewer(tx *sql.Tx, r store.Run) error {
	var newer bool
	if err := tx.QueryRow(newerVersionSQL, r.Tenant, r.Spec, r.Tenant, r.Spec, r.Version).Scan(&newer); err != nil {
		return unavailable("create run", err)
	}
	if newer {
		return store.ErrConditionFailed
	}
	return nil
}

func (db *DB) insertRecords(tx *sql.Tx, tenant, runID string, recs []store.Record) error {
	stmt, err := db.txStmt(tx, insertRecordSQL)
	if err != nil {
		return unavailable("append", err)
	}
	for _, rec := range recs {
		if _, err := stmt.Exec(tenant, runID, rec.Seq, store.Nanos(rec.Time), rec.Attempt, rec.Kind, rec.Body); err != nil {
			if isConstraint(err) {
				return &errs.SeqConflict{RunID: runID, Seq: rec.Seq}
			}
			return unavailable("append", err)
		}
	}
	return nil
}

// Append adds Records to a log, conditional on seq and, for a worker, on
// its lease.
func (db *DB) Append(ctx context.Context, a store.Append) (opErr error) {
	defer db.observe("Append", time.Now(), &opErr)
	if len(a.Records) == 0 {
		return nil
	}
	if err := store.CheckConsecutive(a.Records); err != nil {
		return err
	}
	topics := store.AppendTopics(a.Tenant, a.RunID, a.Claimable(), a.Ends, a.Records)
	settled := a.Index.Settled
	end := a.Records[len(a.Records)-1]
	var next, thread, key string
	var waiting, keyState int
	var granted []string
	return db.execThen(ctx, "append", func(tx *sql.Tx) error {
		var last, token int64
		var owner string
		head, err := db.txStmt(tx, runHeadSQL)
		if err != nil {
			return unavailable("append", err)
		}
		err = head.QueryRow(a.Tenant, a.RunID).Scan(&last, &owner, &token, &waiting, &thread, &key, &keyState)
		if errors.Is(err, sql.ErrNoRows) {
			return &errs.RunNotFound{RunID: a.RunID}
		}
		if err != nil {
			return unavailable("append", err)
		}
		if a.Lease != nil && (owner != a.Lease.Owner || token != a.Lease.Token) {
			return &errs.LeaseLost{RunID: a.RunID, WorkerID: a.Lease.Owner}
		}
		if first := a.Records[0].Seq; first != last+1 {
			return &errs.SeqConflict{RunID: a.RunID, Seq: first}
		}
		if err := db.insertRecords(tx, a.Tenant, a.RunID, a.Records); err != nil {
			return err
		}
		if err := EnqueueWebhooksTx(tx, a.Events); err != nil {
			return err
		}
		update, err := db.txStmt(tx, appendUpdateSQL(a.Release))
		if err != nil {
			return unavailable("append", err)
		}
		_, err = update.Exec(end.Seq, a.Index.State, boolInt(a.Index.Runnable), store.Nanos(a.Index.WakeAt), a.Index.Summary, store.Nanos(end.Time), a.Index.Suspension, a.Tenant, a.RunID)
		if err != nil || !settled {
			return unavailable("append", err)
		}
		next, err = threadqueue.Settle(threadTx{tx: tx, op: "settle"}, a.Tenant, a.RunID, thread, end.Time)
		if err != nil {
			return err
		}
		granted, err = keyqueue.Settle(keyTx{tx: tx, op: "settle"}, a.Tenant, a.RunID, key, keyState, end.Time)
		return err
	}, func() {
		db.granted(a.Tenant, granted)
		if next != "" {
			// The thread's next Run became claimable: only then does a
			// settle wake the workers (a claim finding nothing is a write).
			db.cache.drop(a.Tenant, next)
			db.hub.Publish(store.TopicRunnable)
		}
		// Settling a Run on a thread changes its row further
		// (threadqueue.Settle); settling one on none changes only what any
		// append does, so the cache follows it and WaitRun's GetRun of the
		// settled Run needs no query (10% of the CPU at c16 in the bench).
		if waiting == 1 || (settled && thread != "") || keyState != store.KeyNone {
			db.cache.drop(a.Tenant, a.RunID)
			return
		}
		db.cache.appended(a.Tenant, a.RunID, a.Records, func(r *store.Run) {
			r.LastSeq, r.Index, r.UpdateTime = end.Seq, a.Index, end.Time.UTC()
			if a.Release {
				r.LeaseOwner, r.LeaseExpires = "", time.Time{}
			}
		})
	}, topics...)
}

// ReadLog returns Records from seq from.
func (db *DB) ReadLog(ctx context.Context, tenant, runID string, from int64, limit int) (_ []store.Record, opErr error) {
	defer db.observe("ReadLog", time.Now(), &opErr)
	if recs, ok := db.cache.records(tenant, runID, from, limit); ok {
		return recs, nil
	}
	if limit <= 0 {
		limit = -1
	}
	rows, err := db.query(ctx, `SELECT seq, time, attempt, kind, body FROM records WHERE tenant = ? AND run_id = ? AND seq >= ? ORDER BY seq LIMIT ?`,
		tenant, runID, from, limit)
	if err != nil {
		return nil, unavailable("read log", err)
	}
	defer rows.Close()
	var out []store.Record
	for rows.Next() {
		var r store.Record
		var t int64
		if err := rows.Scan(&r.Seq, &t, &r.Attempt, &r.Kind, &r.Body); err != nil {
			return nil, unavailable("read log", err)
		}
		r.Time = store.FromNanos(t)
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, unavailable("read log", err)
	}
	if len(out) == 0 && from <= 1 {
		if _, err := db.getRun(ctx, tenant, runID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// GetRun returns a Run's row, from the cache when it holds it.
func (db *DB) GetRun(ctx context.Context, tenant, runID string) (_ store.Run, opErr error) {
	defer db.observe("GetRun", time.Now(), &opErr)
	return db.getRun(ctx, tenant, runID)
}

// getRun is GetRun, for the operations that read it on the way:
// they report themselves, not it.
func (db *DB) getRun(ctx context.Context, tenant, runID string) (store.Run, error) {
	cached, ok, epoch := db.cache.get(tenant, runID)
	if ok {
		return cached, nil
	}
	r, err := scanRun(db.queryRow(ctx, `SELECT `+runColumns+` FROM runs WHERE tenant = ? AND run_id = ?`, tenant, runID))
	if errors.Is(err, sql.ErrNoRows) {
		return store.Run{}, &errs.RunNotFound{RunID: runID}
	}
	if err != nil {
		return store.Run{}, unavailable("get run", err)
	}
	db.cache.fill(r, epoch)
	return r, nil
}

// GetRunByDelegation returns a delegation's child Run.
func (db *DB) GetRunByDelegation(ctx context.Context, tenant, delegationID string) (_ store.Run, opErr error) {
	defer db.observe("GetRunByDelegation", time.Now(), &opErr)
	r, err := scanRun(db.queryRow(ctx, `SELECT `+runColumns+` FROM runs WHERE tenant = ? AND delegation_id = ?`, tenant, delegationID))
	if errors.Is(err, sql.ErrNoRows) || delegationID == "" {
		return store.Run{}, &errs.DelegationNotFound{DelegationID: delegationID}
	}
	if err != nil {
		return store.Run{}, unavailable("get delegation", err)
	}
	return r, nil
}

// ListRuns lists Runs newest first.
func (db *DB) ListRuns(ctx context.Context, tenant string, q store.RunQuery) (_ []store.Run, _ string, opErr error) {
	defer db.observe("ListRuns", time.Now(), &opErr)
	size := pagetoken.Size(q.PageSize)
	var after pagetoken.RunPosition
	if err := pagetoken.Decode(q.PageToken, &after); err != nil {
		return nil, "", err
	}
	query, args := listRunsSQL(tenant, q, after, size+1)
	rows, err := db.query(ctx, query, args...)
	if err != nil {
		return nil, "", unavailable("list runs", err)
	}
	defer rows.Close()
	var out []store.Run
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return nil, "", unavailable("list runs", err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, "", unavailable("list runs", err)
	}
	next := ""
	if len(out) > size {
		out = out[:size]
		after.Created, after.RunID = store.Nanos(out[size-1].CreateTime), out[size-1].RunID
		if q.ThreadID != "" {
			after.Created = int64(out[size-1].ThreadSeq)
		}
		next = pagetoken.Encode(after)
	}
	return out, next, nil
}

// listRunsSQL is ListRuns' query for up to limit Runs of q after the
// position after. Every filter has an index in the list's order, so a
// page is a range of one index (TestListPlans): several states are one
// range per state, merged; the partial indexes' conditions are spelled
// out; and the position is a row value, which the planner turns into a
// range where separate comparisons of its columns scan the tenant.
func listRunsSQL(tenant string, q store.RunQuery, after pagetoken.RunPosition, limit int) (string, []any) {
	order := ` ORDER BY create_time DESC, run_id DESC LIMIT ?`
	if q.ThreadID != "" {
		order = ` ORDER BY thread_seq LIMIT ?`
	}
	if len(q.States) <= 1 {
		where, args := listRunsWhere(tenant, q, after)
		return `SELECT ` + runColumns + ` FROM runs WHERE ` + where + order, append(args, limit)
	}
	var branches []string
	var args []any
	for _, state := range q.States {
		one := q
		one.States = []string{state}
		where, more := listRunsWhere(tenant, one, after)
		branches = append(branches, `SELECT * FROM (SELECT `+runColumns+` FROM runs WHERE `+where+order+`)`)
		args = append(append(args, more...), limit)
	}
	return strings.Join(branches, " UNION ALL ") + order, append(args, limit)
}

// listRunsWhere is the condition of listRunsSQL for at most one state.
func listRunsWhere(tenant string, q store.RunQuery, after pagetoken.RunPosition) (string, []any) {
	where := []string{"tenant = ?", "evaluation_id = ?"}
	args := []any{tenant, q.EvaluationID}
	if len(q.States) == 1 {
		where = append(where, "state = ?")
		args = append(args, q.States[0])
	}
	if q.Spec != "" {
		where = append(where, "spec = ?")
		args = append(args, q.Spec)
	}
	if q.ParentRunID != "" {
		where = append(where, "parent_run_id = ? AND parent_run_id != ''")
		args = append(args, q.ParentRunID)
	}
	if q.ScheduleID != "" {
		where = append(where, "schedule_id = ? AND schedule_id != ''")
		args = append(args, q.ScheduleID)
	}
	switch {
	case q.ThreadID != "":
		where = append(where, "thread_id = ? AND thread_id != ''")
		args = append(args, q.ThreadID)
		if q.PageToken != "" {
			where = append(where, "thread_seq > ?")
			args = append(args, after.Created)
		}
	case q.PageToken != "":
		where = append(where, "(create_time, run_id) < (?, ?)")
		args = append(args, after.Created, after.RunID)
	}
	return strings.Join(where, " AND "), args
}
