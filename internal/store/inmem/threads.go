package inmem

import (
	"context"
	"sort"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/pagetoken"
)

// joinThread puts a new Run on its thread, under the mutex: the active
// Run when the thread has none, otherwise waiting (or *errs.ThreadBusy).
func (db *DB) joinThread(r *store.Run, reject bool) error {
	key := runKey{r.Tenant, r.ThreadID}
	t, ok := db.threads[key]
	if !ok {
		t = &store.Thread{Tenant: r.Tenant, ThreadID: r.ThreadID, CreateTime: r.CreateTime}
	}
	r.Waiting, r.ContinuesRunID = false, ""
	if t.ActiveRunID != "" {
		if reject {
			return &errs.ThreadBusy{ThreadID: r.ThreadID, ActiveRunID: t.ActiveRunID}
		}
		r.Waiting, r.Index.Runnable = true, false
	} else {
		t.ActiveRunID, r.ContinuesRunID = r.RunID, t.LastRunID
	}
	t.Runs++
	t.UpdateTime = r.CreateTime
	r.ThreadSeq = t.Runs
	db.threads[key] = t
	return nil
}

// settleThread, under the mutex, makes the oldest Run waiting on a settled
// Run's thread the active one, continuing from it; it reports whether one
// became claimable.
func (db *DB) settleThread(row *runRow, now time.Time) bool {
	row.run.Waiting = false
	if row.run.ThreadID == "" {
		return false
	}
	t := db.threads[runKey{row.run.Tenant, row.run.ThreadID}]
	if t == nil || t.ActiveRunID != row.run.RunID {
		return false
	}
	var next *runRow
	for _, other := range db.runs {
		o := other.run
		if o.Tenant == t.Tenant && o.ThreadID == t.ThreadID && o.Waiting && (next == nil || o.ThreadSeq < next.run.ThreadSeq) {
			next = other
		}
	}
	t.ActiveRunID, t.LastRunID, t.UpdateTime = "", row.run.RunID, stamp(now)
	if next == nil {
		return false
	}
	next.run.Waiting, next.run.Index.Runnable, next.run.ContinuesRunID = false, true, row.run.RunID
	t.ActiveRunID = next.run.RunID
	return true
}

// GetThread implements store.Threads.
func (db *DB) GetThread(ctx context.Context, tenant, threadID string) (store.Thread, bool, error) {
	if err := db.lock(ctx); err != nil {
		return store.Thread{}, false, err
	}
	defer db.mu.Unlock()
	t, ok := db.threads[runKey{tenant, threadID}]
	if !ok {
		return store.Thread{}, false, nil
	}
	return *t, true, nil
}

// ListThreads implements store.Threads.
func (db *DB) ListThreads(ctx context.Context, tenant string, q store.ThreadQuery) ([]store.Thread, string, error) {
	size := pagetoken.Size(q.PageSize)
	var after pagetoken.RunPosition
	if err := pagetoken.Decode(q.PageToken, &after); err != nil {
		return nil, "", err
	}
	if err := db.lock(ctx); err != nil {
		return nil, "", err
	}
	defer db.mu.Unlock()
	var out []store.Thread
	for _, t := range db.threads {
		c := store.Nanos(t.CreateTime)
		if t.Tenant != tenant || (q.PageToken != "" && (c > after.Created || (c == after.Created && t.ThreadID >= after.RunID))) {
			continue
		}
		out = append(out, *t)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].CreateTime.Equal(out[j].CreateTime) {
			return out[i].CreateTime.After(out[j].CreateTime)
		}
		return out[i].ThreadID > out[j].ThreadID
	})
	next := ""
	if len(out) > size {
		out = out[:size]
		after.Created, after.RunID = store.Nanos(out[size-1].CreateTime), out[size-1].ThreadID
		next = pagetoken.Encode(after)
	}
	return out, next, nil
}

// PutHistoryParts implements store.Threads.
func (db *DB) PutHistoryParts(ctx context.Context, parts []store.HistoryPart) error {
	if err := db.lock(ctx); err != nil {
		return err
	}
	defer db.mu.Unlock()
	for _, p := range parts {
		k := runKey{p.Tenant, p.RunID}
		if _, ok := db.runs[k]; !ok {
			continue
		}
		if _, ok := db.history[k]; !ok {
			p.Body = clone(p.Body)
			db.history[k] = p
		}
	}
	return nil
}

// HistoryParts implements store.Threads.
func (db *DB) HistoryParts(ctx context.Context, tenant, threadID string, before int) ([]store.HistoryPart, error) {
	if err := db.lock(ctx); err != nil {
		return nil, err
	}
	defer db.mu.Unlock()
	var out []store.HistoryPart
	for _, p := range db.history {
		if p.Tenant == tenant && p.ThreadID == threadID && p.ThreadSeq < before {
			p.Body = clone(p.Body)
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ThreadSeq < out[j].ThreadSeq })
	return out, nil
}
