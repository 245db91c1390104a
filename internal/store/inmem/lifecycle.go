package inmem

import (
	"context"
	"slices"
	"sort"

	"github.com/runsvc/runsvc/internal/store"
)

// DeleteRuns implements store.Lifecycle.
func (db *DB) DeleteRuns(ctx context.Context, ds []store.RunDeletion) ([]string, error) {
	deleted, _, err := db.DeleteThread(ctx, "", "", ds)
	return deleted, err
}

// DeleteThread implements store.Lifecycle; with no threadID it deletes
// the Runs only.
func (db *DB) DeleteThread(ctx context.Context, tenant, threadID string, ds []store.RunDeletion) ([]string, bool, error) {
	if err := db.lock(ctx); err != nil {
		return nil, false, err
	}
	deleted, topics := db.deleteRuns(ds)
	threadGone := false
	if _, ok := db.threads[runKey{tenant, threadID}]; ok && threadID != "" && !db.threadHasRuns(tenant, threadID) {
		delete(db.threads, runKey{tenant, threadID})
		threadGone = true
	}
	db.mu.Unlock()
	db.publish(topics...)
	return deleted, threadGone, nil
}

// threadHasRuns reports whether a Run is left on a thread; db.mu is held.
func (db *DB) threadHasRuns(tenant, threadID string) bool {
	for _, row := range db.runs {
		if row.run.Tenant == tenant && row.run.ThreadID == threadID {
			return true
		}
	}
	return false
}

// deleteRuns deletes ds; db.mu is held. It returns the ids deleted and
// the topics to publish.
func (db *DB) deleteRuns(ds []store.RunDeletion) ([]string, []string) {
	var deleted []string
	var topics []string
	for _, d := range ds {
		k := runKey{d.Tenant, d.RunID}
		row, ok := db.runs[k]
		if !ok || row.run.LastSeq != d.LastSeq {
			continue
		}
		delete(db.runs, k)
		if row.run.ThreadID != "" {
			delete(db.history, k)
			if t := db.threads[runKey{d.Tenant, row.run.ThreadID}]; t != nil {
				t.Deletions++
			}
		}
		for ck, c := range db.toolCalls {
			if ck.tenant == d.Tenant && c.call.RunID == d.RunID {
				delete(db.toolCalls, ck)
			}
		}
		for _, child := range db.runs {
			if child.run.Tenant == d.Tenant && child.run.ParentRunID == d.RunID {
				child.run.ParentRunID = ""
			}
		}
		for _, ns := range d.Namespaces {
			delete(db.memory, d.Tenant+"\x00"+ns)
		}
		deleted = append(deleted, d.RunID)
		topics = append(topics, store.DeletedTopics(d.Tenant, d.RunID)...)
	}
	return deleted, topics
}

// SettledGroups implements store.Lifecycle.
func (db *DB) SettledGroups(ctx context.Context, settled []string) ([]store.RunGroup, error) {
	if err := db.lock(ctx); err != nil {
		return nil, err
	}
	defer db.mu.Unlock()
	seen := map[store.RunGroup]bool{}
	var out []store.RunGroup
	for _, row := range db.runs {
		g := store.RunGroup{Tenant: row.run.Tenant, Spec: row.run.Spec, Version: row.run.Version}
		if slices.Contains(settled, row.run.Index.State) && !seen[g] {
			seen[g] = true
			out = append(out, g)
		}
	}
	return out, nil
}

// ExpiredRuns implements store.Lifecycle.
func (db *DB) ExpiredRuns(ctx context.Context, q store.ExpiryQuery) ([]store.Run, error) {
	if err := db.lock(ctx); err != nil {
		return nil, err
	}
	defer db.mu.Unlock()
	var out []store.Run
	for _, row := range db.runs {
		r := row.run
		if r.Tenant != q.Tenant || r.Spec != q.Spec || r.Version != q.Version ||
			!slices.Contains(q.Settled, r.Index.State) || !r.UpdateTime.Before(q.Before) {
			continue
		}
		if p, ok := db.runs[runKey{r.Tenant, r.ParentRunID}]; ok && r.ParentRunID != "" && !slices.Contains(q.Settled, p.run.Index.State) {
			continue
		}
		if r.ThreadID != "" && db.threadBusy(r.Tenant, r.ThreadID, q.Settled) {
			continue
		}
		out = append(out, row.copyRun())
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].UpdateTime.Equal(out[j].UpdateTime) {
			return out[i].UpdateTime.Before(out[j].UpdateTime)
		}
		return out[i].RunID < out[j].RunID
	})
	if q.Limit > 0 && len(out) > q.Limit {
		out = out[:q.Limit]
	}
	return out, nil
}

// threadBusy reports whether a thread has a Run not in a settled state;
// db.mu is held.
func (db *DB) threadBusy(tenant, threadID string, settled []string) bool {
	for _, row := range db.runs {
		if row.run.Tenant == tenant && row.run.ThreadID == threadID && !slices.Contains(settled, row.run.Index.State) {
			return true
		}
	}
	return false
}

// Compact implements store.Lifecycle: deleted values are gone with the
// maps that held them.
func (db *DB) Compact(ctx context.Context) error { return ctx.Err() }
