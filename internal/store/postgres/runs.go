package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/keyqueue"
	"github.com/runsvc/runsvc/internal/store/pagetoken"
	"github.com/runsvc/runsvc/internal/store/threadqueue"
)

const runColumns = `tenant, run_id, spec, version, request_id, request_hash, parent_run_id, root_run_id, delegation_id,
state, runnable, wake_at, summary, last_seq, create_time, update_time, lease_owner, lease_expires, suspension,
	thread_id, thread_seq, continues_run_id, waiting, schedule_id, schedule_tick, priority, fairness_key, fair_pass,
	concurrency_key, key_seq, key_state, evaluation_id`

func scanRun(row pgx.Row) (store.Run, error) {
	var r store.Run
	var wake, created, updated, expires, tick int64
	var threadSeq int32
	var priority, keyState int16
	var keySeq int32
	err := row.Scan(&r.Tenant, &r.RunID, &r.Spec, &r.Version, &r.RequestID, &r.RequestHash, &r.ParentRunID, &r.RootRunID, &r.DelegationID,
		&r.Index.State, &r.Index.Runnable, &wake, &r.Index.Summary, &r.LastSeq, &created, &updated, &r.LeaseOwner, &expires, &r.Index.Suspension,
		&r.ThreadID, &threadSeq, &r.ContinuesRunID, &r.Waiting, &r.ScheduleID, &tick, &priority, &r.FairnessKey, &r.FairPass,
		&r.ConcurrencyKey, &keySeq, &keyState, &r.EvaluationID)
	if err != nil {
		return store.Run{}, err
	}
	r.ThreadSeq, r.Priority, r.KeySeq, r.KeyState = int(threadSeq), int(priority), int(keySeq), int(keyState)
	r.Index.WakeAt, r.CreateTime, r.UpdateTime, r.LeaseExpires = store.FromNanos(wake), store.FromNanos(created), store.FromNanos(updated), store.FromNanos(expires)
	r.ScheduleTick = store.FromNanos(tick)
	return r, nil
}

// rowQuerier is what runs one query for one row: the pool or a
// transaction.
type rowQuerier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// runByRequestID reads the tenant's Run that has requestID.
func runByRequestID(ctx context.Context, q rowQuerier, tenant, requestID string) (store.Run, error) {
	return scanRun(q.QueryRow(ctx, `SELECT `+runColumns+` FROM runs WHERE tenant = $1 AND request_id = $2`, tenant, requestID))
}

// CreateRun creates a Run with its first Records. When the Run's request
// id was used before, nothing is created and the existing Run is returned
// with created false, also when two creations race.
func (db *DB) CreateRun(ctx context.Context, nr store.NewRun) (_ store.Run, _ bool, opErr error) {
	defer db.observe("CreateRun", time.Now(), &opErr)
	if err := db.fairPass(ctx, &nr.Run, nr.FairStride); err != nil {
		return store.Run{}, false, err
	}
	if nr.Run.ThreadID == "" && nr.Run.ConcurrencyKey == "" {
		return db.createUnthreaded(ctx, nr)
	}
	r := nr.Run
	updated := r.UpdateTime
	if updated.IsZero() {
		updated = r.CreateTime
	}
	var existing store.Run
	created := false
	err := db.inTx(ctx, "create run", func(tx *txn) error {
		r = nr.Run
		if r.RequestID != "" {
			found, err := runByRequestID(ctx, tx, r.Tenant, r.RequestID)
			if err == nil {
				existing = found
				return nil
			}
			if !errors.Is(err, pgx.ErrNoRows) {
				return err
			}
		}
		if nr.IfNoNewerVersion {
			if err := checkNewest(ctx, tx, r); err != nil {
				return err
			}
		}
		if err := joinQueues(ctx, tx, &r, nr); err != nil {
			return err
		}
		r.LeaseOwner, r.LeaseExpires = store.AdmissionLease(r)
		var token int64
		if r.LeaseOwner != "" {
			token = 1
		}
		tag, err := insertThreadRun(ctx, tx, r, int64(len(nr.Records)), updated, token)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			// A conflict: the request id's Run (committed before this
			// statement waited on it, so visible now), or a run id taken.
			if r.RequestID != "" {
				existing, err = runByRequestID(ctx, tx, r.Tenant, r.RequestID)
				if err == nil {
					return errFoundExisting // undo the thread's change
				}
				if !errors.Is(err, pgx.ErrNoRows) {
					return err
				}
			}
			return fmt.Errorf("run %s already exists", r.RunID)
		}
		if err := insertRecords(ctx, tx, r.Tenant, r.RunID, nr.Records); err != nil {
			return err
		}
		created = true
		tx.notify(store.AppendTopics(r.Tenant, r.RunID, r.Index.Runnable && r.LeaseOwner == "", nr.Ends, nr.Records)...)
		return nil
	})
	if errors.Is(err, errFoundExisting) {
		return existing, false, nil
	}
	if err != nil {
		return store.Run{}, false, err
	}
	if !created {
		return existing, false, nil
	}
	r.LastSeq = int64(len(nr.Records))
	r.UpdateTime = updated
	return r, true, nil
}

// joinQueues puts r, being created as nr asks, on its thread and its
// concurrency key, if it names them; when a raised limit let Runs of the
// key in, the commit wakes the workers.
func joinQueues(ctx context.Context, tx *txn, r *store.Run, nr store.NewRun) error {
	if r.ThreadID != "" {
		if err := threadqueue.Join(threadTx{ctx: ctx, tx: tx}, r, nr.RejectBusy); err != nil {
			return err
		}
	}
	if r.ConcurrencyKey == "" {
		return nil
	}
	granted, err := keyqueue.Join(keyTx{ctx: ctx, tx: tx}, r, nr.RejectLimited)
	if len(granted) > 0 {
		tx.notify(store.TopicRunnable)
	}
	return err
}

// newerVersionExists is true when the Spec named by the placeholder name
// of the tenant placeholder tenant has a Version published after the one
// placeholder version names (false when that one is not stored).
func newerVersionExists(tenant, name, version string) string {
	return `EXISTS (SELECT 1 FROM specs newer WHERE newer.tenant = ` + tenant + ` AND newer.name = ` + name + `
		AND newer.ord > (SELECT asked.ord FROM specs asked WHERE asked.tenant = ` + tenant + ` AND asked.name = ` + name + ` AND asked.version = ` + version + `))`
}

// insertThreadRun inserts the row of Run r, on a thread, with lastSeq
// Records, updated at updated, its lease's token token; a conflict
// inserts nothing.
func insertThreadRun(ctx context.Context, tx *txn, r store.Run, lastSeq int64, updated time.Time, token int64) (pgconn.CommandTag, error) {
	return tx.Exec(ctx, `INSERT INTO runs (tenant, run_id, spec, version, request_id, request_hash, parent_run_id, root_run_id, delegation_id,
		state, runnable, wake_at, summary, last_seq, create_time, update_time, suspension, thread_id, thread_seq, continues_run_id, waiting,
		lease_owner, lease_token, lease_expires, schedule_id, schedule_tick, priority, fairness_key, fair_pass, concurrency_key, key_seq, key_state)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31, $32)
		ON CONFLICT DO NOTHING`,
		r.Tenant, r.RunID, r.Spec, r.Version, r.RequestID, r.RequestHash, r.ParentRunID, r.RootRunID, r.DelegationID,
		r.Index.State, r.Index.Runnable, store.Nanos(r.Index.WakeAt), r.Index.Summary, lastSeq, store.Nanos(r.CreateTime), store.Nanos(updated), r.Index.Suspension,
		r.ThreadID, r.ThreadSeq, r.ContinuesRunID, r.Waiting,
		r.LeaseOwner, token, store.Nanos(r.LeaseExpires), r.ScheduleID, store.Nanos(r.ScheduleTick), r.Priority, r.FairnessKey, r.FairPass,
		r.ConcurrencyKey, r.KeySeq, r.KeyState)
}

// createRunStatement creates a Run on no thread and its first Records in
// one statement. Its one row is the Run created (true) or, when the
// request id was used before this statement's snapshot, the Run that has
// it (false); no row when it conflicted with a Run committed since (a
// creation that raced it) or with a run id taken, or when $28 makes it
// conditional on no Version newer than $4 being stored and one is.
var createRunStatement = `WITH ins AS (
		INSERT INTO runs (tenant, run_id, spec, version, request_id, request_hash, parent_run_id, root_run_id, delegation_id,
			state, runnable, wake_at, summary, last_seq, create_time, update_time, suspension, thread_id, thread_seq, continues_run_id, waiting,
			lease_owner, lease_token, lease_expires, schedule_id, schedule_tick, priority, fairness_key, fair_pass, evaluation_id)
		SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, '', 0, $18, $19, $20, $21, $22, $29, $30, $31, $32, $33, $34
		WHERE NOT $28::boolean OR NOT ` + newerVersionExists("$1", "$3", "$4") + `
		ON CONFLICT DO NOTHING
		RETURNING ` + runColumns + `),
	recs AS (
		INSERT INTO records (tenant, run_id, seq, time, attempt, kind, body)
		SELECT $1, $2, r.* FROM unnest($23::bigint[], $24::bigint[], $25::integer[], $26::text[], $27::bytea[]) AS r
		WHERE EXISTS (SELECT 1 FROM ins))
	SELECT true, * FROM ins
	UNION ALL
	SELECT false, ` + runColumns + ` FROM runs
	WHERE tenant = $1 AND request_id = $5 AND $5 <> '' AND NOT EXISTS (SELECT 1 FROM ins)`

// flagRow scans a leading boolean column into flag and the rest into the
// destinations given.
type flagRow struct {
	pgx.Row
	flag *bool
}

// Scan scans the flag, then dest.
func (f flagRow) Scan(dest ...any) error {
	return f.Row.Scan(append([]any{f.flag}, dest...)...)
}

// createUnthreaded is CreateRun of a Run on no thread: one statement, and
// a second only when it lost a race for the request id (or the run id
// was taken), to read the Run that won.
func (db *DB) createUnthreaded(ctx context.Context, nr store.NewRun) (store.Run, bool, error) {
	r := nr.Run
	if r.UpdateTime.IsZero() {
		r.UpdateTime = r.CreateTime
	}
	r.LeaseOwner, r.LeaseExpires = store.AdmissionLease(r)
	var token int64
	if r.LeaseOwner != "" {
		token = 1
	}
	seqs, times, attempts, kinds, bodies := recordColumns(nr.Records)
	var created bool
	got, err := scanRun(flagRow{Row: db.pool.QueryRow(ctx, createRunStatement,
		r.Tenant, r.RunID, r.Spec, r.Version, r.RequestID, r.RequestHash, r.ParentRunID, r.RootRunID, r.DelegationID,
		r.Index.State, r.Index.Runnable, store.Nanos(r.Index.WakeAt), r.Index.Summary, int64(len(nr.Records)), store.Nanos(r.CreateTime),
		store.Nanos(r.UpdateTime), r.Index.Suspension, r.ContinuesRunID, r.Waiting, r.LeaseOwner, token, store.Nanos(r.LeaseExpires),
		seqs, times, attempts, kinds, bodies, nr.IfNoNewerVersion, r.ScheduleID, store.Nanos(r.ScheduleTick), r.Priority, r.FairnessKey, r.FairPass, r.EvaluationID), flag: &created})
	switch {
	case err == nil && created:
		db.announce(store.AppendTopics(r.Tenant, r.RunID, r.Index.Runnable && r.LeaseOwner == "", nr.Ends, nr.Records)...)
		r.LastSeq = int64(len(nr.Records))
		return r, true, nil
	case err == nil:
		return got, false, nil
	case !errors.Is(err, pgx.ErrNoRows):
		return store.Run{}, false, unavailable(ctx, "create run", err)
	}
	// A conflict with a Run committed after the statement's snapshot: the
	// request id's, which a second statement sees, or a run id taken.
	if r.RequestID != "" {
		existing, err := runByRequestID(ctx, db.pool, r.Tenant, r.RequestID)
		if err == nil {
			return existing, false, nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return store.Run{}, false, unavailable(ctx, "create run", err)
		}
	}
	if nr.IfNoNewerVersion {
		if err := checkNewest(ctx, db.pool, r); err != nil {
			return store.Run{}, false, err
		}
	}
	return store.Run{}, false, unavailable(ctx, "create run", fmt.Errorf("run %s already exists", r.RunID))
}

// checkNewestStatement is true when the Spec $2 of tenant $1 has a
// Version newer than $3.
var checkNewestStatement = `SELECT ` + newerVersionExists("$1", "$2", "$3")

// checkNewest is store.ErrConditionFailed when r's Spec has a Version
// newer than r's.
func checkNewest(ctx context.Context, q rowQuerier, r store.Run) error {
	var newer bool
	if err := q.QueryRow(ctx, checkNewestStatement, r.Tenant, r.Spec, r.Version).Scan(&newer); err != nil {
		return unavailable(ctx, "create run", err)
	}
	if newer {
		return store.ErrConditionFailed
	}
	return nil
}

// errFoundExisting rolls a thread's Run creation back when its request id
// turns out to be taken.
var errFoundExisting = errors.New("request id taken")

// recordColumns turns Records into the column arrays unnest reads.
func recordColumns(recs []store.Record) ([]int64, []int64, []int32, []string, [][]byte) {
	seqs := make([]int64, len(recs))
	times := make([]int64, len(recs))
	attempts := make([]int32, len(recs))
	kinds := make([]string, len(recs))
	bodies := make([][]byte, len(recs))
	for i, rec := range recs {
		seqs[i], times[i], attempts[i], kinds[i], bodies[i] = rec.Seq, store.Nanos(rec.Time), int32(rec.Attempt), rec.Kind, bytesOrEmpty(rec.Body)
	}
	return seqs, times, attempts, kinds, bodies
}

// insertRecords inserts Records in one statement; a seq already taken is
// *errs.SeqConflict.
func insertRecords(ctx context.Context, tx pgx.Tx, tenant, runID string, recs []store.Record) error {
	if len(recs) == 0 {
		return nil
	}
	seqs, times, attempts, kinds, bodies := recordColumns(recs)
	_, err := tx.Exec(ctx, `INSERT INTO records (tenant, run_id, seq, time, attempt, kind, body)
		SELECT $1, $2, r.* FROM unnest($3::bigint[], $4::bigint[], $5::integer[], $6::text[], $7::bytea[]) AS r`,
		tenant, runID, seqs, times, attempts, kinds, bodies)
	if isUniqueViolation(err) {
		return &errs.SeqConflict{RunID: runID, Seq: recs[0].Seq}
	}
	return err
}

// Append adds Records if the first one's seq follows the log's last, else
// *errs.SeqConflict. With a lease, *errs.LeaseLost when the lease is no
// longer held. *errs.RunNotFound for an unknown Run. One statement does
// it all in one round trip: the conditional UPDATE of the Run's row takes
// its lock and checks seq and lease, and the Records are inserted only if
// it matched. An append that settles a Run on a thread runs in a
// transaction that also hands the thread on.
func (db *DB) Append(ctx context.Context, a store.Append) (opErr error) {
	defer db.observe("Append", time.Now(), &opErr)
	if len(a.Records) == 0 {
		return nil
	}
	if err := store.CheckConsecutive(a.Records); err != nil {
		return err
	}
	// Most Runs are on no thread: conditional on that, a settling append is
	// one statement too (3 round trips fewer: BEGIN, the thread's check,
	// COMMIT); a Run on a thread matches nothing and goes to appendSettling.
	settled := a.Index.Settled
	if len(a.Events) > 0 {
		// The webhook outbox rows go in the same transaction.
		return db.appendSettling(ctx, a)
	}
	if a.Ends {
		return db.appendEnding(ctx, a, settled)
	}
	query, args := appendStatement(a, settled, false)
	tag, err := db.pool.Exec(ctx, query, args...)
	if isUniqueViolation(err) {
		return &errs.SeqConflict{RunID: a.RunID, Seq: a.Records[0].Seq}
	}
	if err != nil {
		return unavailable(ctx, "append", err)
	}
	if tag.RowsAffected() == 0 {
		return db.notAppended(ctx, a, settled)
	}
	db.announce(store.AppendTopics(a.Tenant, a.RunID, a.Claimable(), a.Ends, a.Records)...)
	return nil
}

// notAppended follows an append's statement that matched no Run row: a
// settling append of a Run on a thread goes on in appendSettling, any
// other is told why it did not match.
func (db *DB) notAppended(ctx context.Context, a store.Append, settled bool) error {
	if settled {
		return db.appendSettling(ctx, a)
	}
	return db.whyNotAppended(ctx, a)
}

// appendEnding is an append that settles or suspends a Run: its statement
// returns the row it leaves, which this process's waiters for the Run's
// end get with their signal instead of reading it again (WaitRun).
func (db *DB) appendEnding(ctx context.Context, a store.Append, settled bool) error {
	query, args := appendStatement(a, settled, true)
	row, err := scanRun(db.pool.QueryRow(ctx, query, args...))
	switch {
	case isUniqueViolation(err):
		return &errs.SeqConflict{RunID: a.RunID, Seq: a.Records[0].Seq}
	case errors.Is(err, pgx.ErrNoRows):
		return db.notAppended(ctx, a, settled)
	case err != nil:
		return unavailable(ctx, "append", err)
	}
	db.announceRun(row, store.AppendTopics(a.Tenant, a.RunID, a.Claimable(), a.Ends, a.Records)...)
	return nil
}

// appendStatement is the one statement of an append; with noThread it
// matches only a Run on no thread, and with row it returns the row it
// leaves (no row when it matched none).
func appendStatement(a store.Append, noThread, row bool) (string, []any) {
	seqs, times, attempts, kinds, bodies := recordColumns(a.Records)
	end := a.Records[len(a.Records)-1]
	owner, token := "", int64(0)
	if a.Lease != nil {
		owner, token = a.Lease.Owner, a.Lease.Token
	}
	release := ""
	if a.Release {
		release = `, lease_owner = '', lease_expires = 0`
	}
	thread := ""
	if noThread {
		thread = ` AND thread_id = '' AND NOT waiting AND concurrency_key = ''`
	}
	returning, insert, tail := "1", "", ""
	if row {
		returning, insert, tail = runColumns, ", ins AS (", `
			RETURNING 1)
		SELECT `+runColumns+` FROM head`
	}
	return `WITH head AS (
			UPDATE runs SET last_seq = $3, state = $4, runnable = ($5 AND NOT waiting AND key_state <> 2), wake_at = $6, summary = $7, update_time = $8, suspension = $17` + release + `
			WHERE tenant = $1 AND run_id = $2 AND last_seq = $9 AND ($10 = '' OR (lease_owner = $10 AND lease_token = $11))` + thread + `
			RETURNING ` + returning + `)` + insert + `
		INSERT INTO records (tenant, run_id, seq, time, attempt, kind, body)
		SELECT $1, $2, r.* FROM unnest($12::bigint[], $13::bigint[], $14::integer[], $15::text[], $16::bytea[]) AS r
		WHERE EXISTS (SELECT 1 FROM head)` + tail,
		[]any{a.Tenant, a.RunID, end.Seq, a.Index.State, a.Index.Runnable, store.Nanos(a.Index.WakeAt), a.Index.Summary, store.Nanos(end.Time),
			a.Records[0].Seq - 1, owner, token, seqs, times, attempts, kinds, bodies, a.Index.Suspension}
}

// appendSettling is an append that settles a Run, in a transaction that
// also hands the Run's thread on to its next waiting Run, or one that
// carries webhook outbox rows (Append.Events), stored in it.
func (db *DB) appendSettling(ctx context.Context, a store.Append) error {
	tx, err := db.pool.Begin(ctx)
	if err != nil {
		return unavailable(ctx, "append", err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	query, args := appendStatement(a, false, true)
	row, err := scanRun(tx.QueryRow(ctx, query, args...))
	switch {
	case isUniqueViolation(err):
		return &errs.SeqConflict{RunID: a.RunID, Seq: a.Records[0].Seq}
	case errors.Is(err, pgx.ErrNoRows):
		// Give the connection back first: asking the pool for another
		// while holding one starves it when many settles conflict.
		_ = tx.Rollback(ctx)
		return db.whyNotAppended(ctx, a)
	case err != nil:
		return unavailable(ctx, "append", err)
	}
	if err := EnqueueWebhooksTx(ctx, tx, a.Events); err != nil {
		return unavailable(ctx, "append", err)
	}
	var promoted string
	var granted []string
	if a.Index.Settled {
		end := a.Records[len(a.Records)-1]
		promoted, err = threadqueue.Settle(threadTx{ctx: ctx, tx: tx}, a.Tenant, a.RunID, row.ThreadID, end.Time)
		if err != nil {
			return unavailable(ctx, "append", err)
		}
		granted, err = keyqueue.Settle(keyTx{ctx: ctx, tx: tx}, a.Tenant, a.RunID, row.ConcurrencyKey, row.KeyState, end.Time)
		if err != nil {
			return unavailable(ctx, "append", err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return unavailable(ctx, "append", err)
	}
	topics := store.AppendTopics(a.Tenant, a.RunID, a.Claimable(), a.Ends, a.Records)
	if promoted != "" || len(granted) > 0 {
		topics = append(topics, store.TopicRunnable)
	}
	db.announce(topics...)
	return nil
}

// whyNotAppended tells why an append matched no Run row: the Run does not
// exist, its lease is held by someone else, or its log moved on.
func (db *DB) whyNotAppended(ctx context.Context, a store.Append) error {
	var last, token int64
	var owner string
	err := db.pool.QueryRow(ctx, `SELECT last_seq, lease_owner, lease_token FROM runs WHERE tenant = $1 AND run_id = $2`,
		a.Tenant, a.RunID).Scan(&last, &owner, &token)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return &errs.RunNotFound{RunID: a.RunID}
	case err != nil:
		return unavailable(ctx, "append", err)
	case a.Lease != nil && (owner != a.Lease.Owner || token != a.Lease.Token):
		return &errs.LeaseLost{RunID: a.RunID, WorkerID: a.Lease.Owner}
	}
	return &errs.SeqConflict{RunID: a.RunID, Seq: a.Records[0].Seq}
}

// ReadLog returns up to limit Records from seq from (limit <= 0: all);
// *errs.RunNotFound for an unknown Run read from its start.
func (db *DB) ReadLog(ctx context.Context, tenant, runID string, from int64, limit int) (_ []store.Record, opErr error) {
	defer db.observe("ReadLog", time.Now(), &opErr)
	query := `SELECT seq, time, attempt, kind, body FROM records WHERE tenant = $1 AND run_id = $2 AND seq >= $3 ORDER BY seq`
	args := []any{tenant, runID, from}
	if limit > 0 {
		query += ` LIMIT $4`
		args = append(args, limit)
	}
	rows, err := db.pool.Query(ctx, query, args...)
	if err != nil {
		return nil, unavailable(ctx, "read log", err)
	}
	defer rows.Close()
	var out []store.Record
	for rows.Next() {
		var r store.Record
		var t int64
		var attempt int32
		if err := rows.Scan(&r.Seq, &t, &attempt, &r.Kind, &r.Body); err != nil {
			return nil, unavailable(ctx, "read log", err)
		}
		r.Time, r.Attempt = store.FromNanos(t), int(attempt)
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, unavailable(ctx, "read log", err)
	}
	if len(out) == 0 && from <= 1 {
		if _, err := db.getRun(ctx, tenant, runID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// GetRun returns a Run or *errs.RunNotFound.
func (db *DB) GetRun(ctx context.Context, tenant, runID string) (_ store.Run, opErr error) {
	defer db.observe("GetRun", time.Now(), &opErr)
	return db.getRun(ctx, tenant, runID)
}

// getRun is GetRun, for the operations that read it on the way:
// they report themselves, not it.
func (db *DB) getRun(ctx context.Context, tenant, runID string) (store.Run, error) {
	r, err := scanRun(db.pool.QueryRow(ctx, `SELECT `+runColumns+` FROM runs WHERE tenant = $1 AND run_id = $2`, tenant, runID))
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Run{}, &errs.RunNotFound{RunID: runID}
	}
	if err != nil {
		return store.Run{}, unavailable(ctx, "get run", err)
	}
	return r, nil
}

// GetRunByDelegation returns the child Run of a delegation or
// *errs.DelegationNotFound.
func (db *DB) GetRunByDelegation(ctx context.Context, tenant, delegationID string) (_ store.Run, opErr error) {
	defer db.observe("GetRunByDelegation", time.Now(), &opErr)
	if delegationID == "" {
		return store.Run{}, &errs.DelegationNotFound{DelegationID: delegationID}
	}
	r, err := scanRun(db.pool.QueryRow(ctx, `SELECT `+runColumns+` FROM runs WHERE tenant = $1 AND delegation_id = $2`, tenant, delegationID))
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Run{}, &errs.DelegationNotFound{DelegationID: delegationID}
	}
	if err != nil {
		return store.Run{}, unavailable(ctx, "get delegation", err)
	}
	return r, nil
}

// ListRuns lists Runs newest first. A page token that this store did not
// issue is *errs.InvalidRequest.
func (db *DB) ListRuns(ctx context.Context, tenant string, q store.RunQuery) (_ []store.Run, _ string, opErr error) {
	defer db.observe("ListRuns", time.Now(), &opErr)
	size := pagetoken.Size(q.PageSize)
	var after pagetoken.RunPosition
	if err := pagetoken.Decode(q.PageToken, &after); err != nil {
		return nil, "", err
	}
	query, args := listRunsSQL(tenant, q, after, size+1)
	rows, err := db.pool.Query(ctx, query, args...)
	if err != nil {
		return nil, "", unavailable(ctx, "list runs", err)
	}
	defer rows.Close()
	var out []store.Run
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return nil, "", unavailable(ctx, "list runs", err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, "", unavailable(ctx, "list runs", err)
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
// range per state, merged, and the partial indexes' conditions are
// spelled out, which a generic plan cannot infer from a parameter.
func listRunsSQL(tenant string, q store.RunQuery, after pagetoken.RunPosition, limit int) (string, []any) {
	var args []any
	arg := func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}
	order := ` ORDER BY create_time DESC, run_id DESC LIMIT `
	if q.ThreadID != "" {
		order = ` ORDER BY thread_seq LIMIT `
	}
	if len(q.States) <= 1 {
		where := listRunsWhere(arg, tenant, q, after)
		return `SELECT ` + runColumns + ` FROM runs WHERE ` + where + order + arg(limit), args
	}
	var branches []string
	for _, state := range q.States {
		one := q
		one.States = []string{state}
		where := listRunsWhere(arg, tenant, one, after)
		branches = append(branches, `(SELECT `+runColumns+` FROM runs WHERE `+where+order+arg(limit)+`)`)
	}
	return strings.Join(branches, " UNION ALL ") + order + arg(limit), args
}

// listRunsWhere is the condition of listRunsSQL for at most one state,
// its values given to arg.
func listRunsWhere(arg func(any) string, tenant string, q store.RunQuery, after pagetoken.RunPosition) string {
	where := []string{"tenant = " + arg(tenant), "evaluation_id = " + arg(q.EvaluationID)}
	if len(q.States) == 1 {
		where = append(where, "state = "+arg(q.States[0]))
	}
	if q.Spec != "" {
		where = append(where, "spec = "+arg(q.Spec))
	}
	if q.ParentRunID != "" {
		where = append(where, "parent_run_id = "+arg(q.ParentRunID)+" AND parent_run_id <> ''")
	}
	if q.ScheduleID != "" {
		where = append(where, "schedule_id = "+arg(q.ScheduleID)+" AND schedule_id <> ''")
	}
	switch {
	case q.ThreadID != "":
		where = append(where, "thread_id = "+arg(q.ThreadID)+" AND thread_id != ''")
		if q.PageToken != "" {
			where = append(where, "thread_seq > "+arg(after.Created))
		}
	case q.PageToken != "":
		where = append(where, "(create_time, run_id) < ("+arg(after.Created)+", "+arg(after.RunID)+")")
	}
	return strings.Join(where, " AND ")
}
