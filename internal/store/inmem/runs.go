package inmem

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/pagetoken"
)

// runKey names a Run, or a tool call, within its tenant.
type runKey struct{ tenant, id string }

// runRow is a Run's row and its log.
type runRow struct {
	run     store.Run
	token   int64
	ord     int64
	records []store.Record
}

// copyRun returns the Run as callers see it, sharing nothing.
func (r *runRow) copyRun() store.Run {
	out := r.run
	out.Index.Summary = clone(out.Index.Summary)
	return out
}

func copyRecords(recs []store.Record) []store.Record {
	out := make([]store.Record, len(recs))
	for i, r := range recs {
		r.Body, r.Time = clone(r.Body), stamp(r.Time)
		out[i] = r
	}
	return out
}

// CreateRun implements store.Runs.
func (db *DB) CreateRun(ctx context.Context, nr store.NewRun) (store.Run, bool, error) {
	if err := db.lock(ctx); err != nil {
		return store.Run{}, false, err
	}
	r := nr.Run
	if r.RequestID != "" {
		for _, row := range db.runs {
			if row.run.Tenant == r.Tenant && row.run.RequestID == r.RequestID {
				existing := row.copyRun()
				db.mu.Unlock()
				return existing, false, nil
			}
		}
	}
	key := runKey{r.Tenant, r.RunID}
	if _, dup := db.runs[key]; dup {
		db.mu.Unlock()
		return store.Run{}, false, fmt.Errorf("inmem: run %s exists", r.RunID)
	}
	r.CreateTime = stamp(r.CreateTime)
	r.LastSeq = int64(len(nr.Records))
	if r.UpdateTime = stamp(r.UpdateTime); r.UpdateTime.IsZero() {
		r.UpdateTime = r.CreateTime
	}
	r.Index.WakeAt, r.Index.Summary = stamp(r.Index.WakeAt), clone(r.Index.Summary)
	r.ThreadSeq, r.Waiting, r.ContinuesRunID = 0, false, ""
	if r.ThreadID != "" {
		if err := db.joinThread(&r, nr.RejectBusy); err != nil {
			db.mu.Unlock()
			return store.Run{}, false, err
		}
	}
	var token int64
	if r.LeaseOwner, r.LeaseExpires = store.AdmissionLease(r); r.LeaseOwner != "" {
		token = 1
	}
	db.ord++
	db.runs[key] = &runRow{run: r, ord: db.ord, records: copyRecords(nr.Records), token: token}
	out := db.runs[key].copyRun()
	db.mu.Unlock()
	db.publish(store.AppendTopics(r.Tenant, r.RunID, r.Index.Runnable && r.LeaseOwner == "", nr.Records)...)
	return out, true, nil
}

// Append implements store.Runs.
func (db *DB) Append(ctx context.Context, a store.Append) error {
	if len(a.Records) == 0 {
		return nil
	}
	if err := store.CheckConsecutive(a.Records); err != nil {
		return err
	}
	if err := db.lock(ctx); err != nil {
		return err
	}
	row, ok := db.runs[runKey{a.Tenant, a.RunID}]
	switch {
	case !ok:
		db.mu.Unlock()
		return &errs.RunNotFound{RunID: a.RunID}
	case a.Lease != nil && (row.run.LeaseOwner != a.Lease.Owner || row.token != a.Lease.Token):
		db.mu.Unlock()
		return &errs.LeaseLost{RunID: a.RunID, WorkerID: a.Lease.Owner}
	case a.Records[0].Seq != row.run.LastSeq+1:
		db.mu.Unlock()
		return &errs.SeqConflict{RunID: a.RunID, Seq: a.Records[0].Seq}
	}
	end := a.Records[len(a.Records)-1]
	row.records = append(row.records, copyRecords(a.Records)...)
	row.run.LastSeq, row.run.UpdateTime = end.Seq, stamp(end.Time)
	row.run.Index = store.Index{State: a.Index.State, Runnable: a.Index.Runnable && !row.run.Waiting, WakeAt: stamp(a.Index.WakeAt), Summary: clone(a.Index.Summary), Suspension: a.Index.Suspension}
	if a.Release {
		row.run.LeaseOwner, row.run.LeaseExpires = "", time.Time{}
	}
	promoted := store.SettledState(a.Index.State) && db.settleThread(row, end.Time)
	db.mu.Unlock()
	topics := store.AppendTopics(a.Tenant, a.RunID, a.Claimable(), a.Records)
	if promoted {
		topics = append(topics, store.TopicRunnable)
	}
	db.publish(topics...)
	return nil
}

// ReadLog implements store.Runs.
func (db *DB) ReadLog(ctx context.Context, tenant, runID string, from int64, limit int) ([]store.Record, error) {
	if err := db.lock(ctx); err != nil {
		return nil, err
	}
	defer db.mu.Unlock()
	row, ok := db.runs[runKey{tenant, runID}]
	if !ok {
		if from <= 1 {
			return nil, &errs.RunNotFound{RunID: runID}
		}
		return nil, nil
	}
	start := max(from, 1) - 1
	if start >= int64(len(row.records)) {
		return nil, nil
	}
	recs := row.records[start:]
	if limit > 0 && len(recs) > limit {
		recs = recs[:limit]
	}
	return copyRecords(recs), nil
}

// GetRun implements store.Runs.
func (db *DB) GetRun(ctx context.Context, tenant, runID string) (store.Run, error) {
	if err := db.lock(ctx); err != nil {
		return store.Run{}, err
	}
	defer db.mu.Unlock()
	row, ok := db.runs[runKey{tenant, runID}]
	if !ok {
		return store.Run{}, &errs.RunNotFound{RunID: runID}
	}
	return row.copyRun(), nil
}

// GetRunByDelegation implements store.Runs.
func (db *DB) GetRunByDelegation(ctx context.Context, tenant, delegationID string) (store.Run, error) {
	if err := db.lock(ctx); err != nil {
		return store.Run{}, err
	}
	defer db.mu.Unlock()
	for _, row := range db.runs {
		if delegationID != "" && row.run.Tenant == tenant && row.run.DelegationID == delegationID {
			return row.copyRun(), nil
		}
	}
	return store.Run{}, &errs.DelegationNotFound{DelegationID: delegationID}
}

// ListRuns implements store.Runs.
func (db *DB) ListRuns(ctx context.Context, tenant string, q store.RunQuery) ([]store.Run, string, error) {
	size := pagetoken.Size(q.PageSize)
	var after pagetoken.RunPosition
	if err := pagetoken.Decode(q.PageToken, &after); err != nil {
		return nil, "", err
	}
	if err := db.lock(ctx); err != nil {
		return nil, "", err
	}
	defer db.mu.Unlock()
	var out []store.Run
	for _, row := range db.runs {
		r := row.run
		if r.Tenant != tenant || (len(q.States) > 0 && !slices.Contains(q.States, r.Index.State)) ||
			(q.Spec != "" && r.Spec != q.Spec) || (q.ParentRunID != "" && r.ParentRunID != q.ParentRunID) ||
			(q.ThreadID != "" && r.ThreadID != q.ThreadID) {
			continue
		}
		if !inPage(r, q, after) {
			continue
		}
		out = append(out, row.copyRun())
	}
	sortRuns(out, q.ThreadID != "")
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

// inPage reports whether r comes after the page token's position.
func inPage(r store.Run, q store.RunQuery, after pagetoken.RunPosition) bool {
	if q.PageToken == "" {
		return true
	}
	if q.ThreadID != "" {
		return int64(r.ThreadSeq) > after.Created
	}
	c := store.Nanos(r.CreateTime)
	return c < after.Created || (c == after.Created && r.RunID < after.RunID)
}

// sortRuns orders Runs newest first, or a thread's in thread order.
func sortRuns(out []store.Run, byThread bool) {
	if byThread {
		sort.Slice(out, func(i, j int) bool { return out[i].ThreadSeq < out[j].ThreadSeq })
		return
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].CreateTime.Equal(out[j].CreateTime) {
			return out[i].CreateTime.After(out[j].CreateTime)
		}
		return out[i].RunID > out[j].RunID
	})
}

// Claim implements store.Leases.
func (db *DB) Claim(ctx context.Context, owner string, now time.Time, ttl time.Duration, limit int) ([]*store.Lease, error) {
	if err := db.lock(ctx); err != nil {
		return nil, err
	}
	defer db.mu.Unlock()
	free := func(r *runRow) bool { return !r.run.LeaseExpires.After(now) }
	var runnable, waking []*runRow
	for _, r := range db.runs {
		switch {
		case r.run.Index.Runnable && free(r):
			runnable = append(runnable, r)
		case !r.run.Index.WakeAt.IsZero() && !r.run.Index.WakeAt.After(now) && free(r):
			waking = append(waking, r)
		}
	}
	sort.Slice(runnable, func(i, j int) bool {
		return earlier(runnable[i].run.UpdateTime, runnable[j].run.UpdateTime, runnable[i], runnable[j])
	})
	sort.Slice(waking, func(i, j int) bool {
		return earlier(waking[i].run.Index.WakeAt, waking[j].run.Index.WakeAt, waking[i], waking[j])
	})
	expires := stamp(now.Add(ttl))
	var leases []*store.Lease
	for _, r := range append(runnable, waking...) {
		if len(leases) >= limit {
			break
		}
		r.token++
		r.run.LeaseOwner, r.run.LeaseExpires = owner, expires
		leases = append(leases, &store.Lease{Tenant: r.run.Tenant, RunID: r.run.RunID, Owner: owner, Token: r.token, Expires: now.Add(ttl)})
	}
	return leases, nil
}

// earlier orders Runs by a time, then by creation.
func earlier(a, b time.Time, ra, rb *runRow) bool {
	if !a.Equal(b) {
		return a.Before(b)
	}
	return ra.ord < rb.ord
}

// held returns the Run a lease is still held on, or nil.
func (db *DB) held(l *store.Lease) *runRow {
	r, ok := db.runs[runKey{l.Tenant, l.RunID}]
	if !ok || r.run.LeaseOwner != l.Owner || r.token != l.Token {
		return nil
	}
	return r
}

// Renew implements store.Leases.
func (db *DB) Renew(ctx context.Context, l *store.Lease, now time.Time, ttl time.Duration) error {
	if err := db.lock(ctx); err != nil {
		return err
	}
	defer db.mu.Unlock()
	r := db.held(l)
	if r == nil {
		return &errs.LeaseLost{RunID: l.RunID, WorkerID: l.Owner}
	}
	r.run.LeaseExpires = stamp(now.Add(ttl))
	l.Expires = now.Add(ttl)
	return nil
}

// Release implements store.Leases.
func (db *DB) Release(ctx context.Context, l *store.Lease) error {
	if err := db.lock(ctx); err != nil {
		return err
	}
	if r := db.held(l); r != nil {
		r.run.LeaseOwner, r.run.LeaseExpires = "", time.Time{}
	}
	db.mu.Unlock()
	db.publish(store.TopicRunnable)
	return nil
}

// Ping implements store.Store: the store answers unless ctx ended.
func (db *DB) Ping(ctx context.Context) error { return ctx.Err() }

// NextWake implements store.Leases.
func (db *DB) NextWake(ctx context.Context) (time.Time, bool, error) {
	if err := db.lock(ctx); err != nil {
		return time.Time{}, false, err
	}
	defer db.mu.Unlock()
	var at time.Time
	for _, r := range db.runs {
		w := r.run.Index.WakeAt
		if w.IsZero() {
			continue
		}
		if r.run.LeaseExpires.After(w) {
			w = r.run.LeaseExpires
		}
		if at.IsZero() || w.Before(at) {
			at = w
		}
	}
	return at, !at.IsZero(), nil
}

// SetIndex replaces a Run's index without adding Records, if its log's
// last seq is still lastSeq: otherwise *errs.SeqConflict. It is the
// store.Runs method the log writer uses to fail a Run whose log is corrupt
// (the log itself is never repaired); the lease is left as it is.
func (db *DB) SetIndex(ctx context.Context, tenant, runID string, lastSeq int64, idx store.Index, now time.Time) error {
	if err := db.lock(ctx); err != nil {
		return err
	}
	row, ok := db.runs[runKey{tenant, runID}]
	switch {
	case !ok:
		db.mu.Unlock()
		return &errs.RunNotFound{RunID: runID}
	case row.run.LastSeq != lastSeq:
		db.mu.Unlock()
		return &errs.SeqConflict{RunID: runID, Seq: lastSeq + 1}
	}
	row.run.Index = store.Index{State: idx.State, Runnable: idx.Runnable && !row.run.Waiting, WakeAt: stamp(idx.WakeAt), Summary: clone(idx.Summary), Suspension: idx.Suspension}
	row.run.UpdateTime = stamp(now)
	promoted := store.SettledState(idx.State) && db.settleThread(row, now)
	db.mu.Unlock()
	topics := []string{store.RunTopic(tenant, runID), store.RunEndTopic(tenant, runID)}
	if idx.Runnable || promoted {
		topics = append(topics, store.TopicRunnable)
	}
	db.publish(topics...)
	return nil
}

// CountRuns implements store.Runs.
func (db *DB) CountRuns(ctx context.Context, states []string) ([]store.RunCount, error) {
	if err := db.lock(ctx); err != nil {
		return nil, err
	}
	defer db.mu.Unlock()
	type group struct{ state, suspension string }
	counts := map[group]int64{}
	for _, row := range db.runs {
		if idx := row.run.Index; slices.Contains(states, idx.State) {
			counts[group{idx.State, idx.Suspension}]++
		}
	}
	out := make([]store.RunCount, 0, len(counts))
	for g, n := range counts {
		out = append(out, store.RunCount{State: g.state, Suspension: g.suspension, Count: n})
	}
	return out, nil
}
