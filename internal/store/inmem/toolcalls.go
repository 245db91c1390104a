package inmem

import (
	"context"
	"slices"
	"sort"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
)

// advertKey names one replica's advert of a tenant's tool.
type advertKey struct{ tenant, tool, replica string }

type advertRow struct {
	advert  store.ToolAdvert
	expires time.Time
}

// callRow is a routed tool call in creation order.
type callRow struct {
	call store.ToolCall
	ord  int64
}

func copyCall(c store.ToolCall) store.ToolCall {
	c.Arguments, c.Result.Output = clone(c.Arguments), clone(c.Result.Output)
	if f := c.Result.Failure; f != nil {
		cp := *f
		c.Result.Failure = &cp
	}
	return c
}

// AdvertiseTools implements store.ToolCalls.
func (db *DB) AdvertiseTools(ctx context.Context, replica string, adverts []store.ToolAdvert, expires time.Time) error {
	if err := db.lock(ctx); err != nil {
		return err
	}
	defer db.mu.Unlock()
	for k := range db.adverts {
		if k.replica == replica {
			delete(db.adverts, k)
		}
	}
	for _, a := range adverts {
		a.Parameters = clone(a.Parameters)
		db.adverts[advertKey{a.Tenant, a.Tool, replica}] = advertRow{advert: a, expires: stamp(expires)}
	}
	return nil
}

// ServedTools implements store.ToolCalls.
func (db *DB) ServedTools(ctx context.Context, tenant string, now time.Time, exceptReplica string) ([]store.ServedTool, error) {
	if err := db.lock(ctx); err != nil {
		return nil, err
	}
	defer db.mu.Unlock()
	var keys []advertKey
	for k, a := range db.adverts {
		if k.tenant == tenant && a.expires.After(now) && k.replica != exceptReplica {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].tool != keys[j].tool {
			return keys[i].tool < keys[j].tool
		}
		return keys[i].replica < keys[j].replica
	})
	var out []store.ServedTool
	for _, k := range keys {
		a := db.adverts[k].advert
		if n := len(out); n > 0 && out[n-1].Tool == k.tool {
			out[n-1].Replicas++
			out[n-1].Workers += a.Workers
			continue
		}
		out = append(out, store.ServedTool{Tool: k.tool, Description: a.Description, Parameters: clone(a.Parameters), Replicas: 1, Workers: a.Workers})
	}
	return out, nil
}

// EnqueueToolCall implements store.ToolCalls.
func (db *DB) EnqueueToolCall(ctx context.Context, c store.ToolCall) (store.ToolCall, bool, error) {
	if err := db.lock(ctx); err != nil {
		return store.ToolCall{}, false, err
	}
	key := runKey{c.Tenant, c.CallID}
	row, exists := db.toolCalls[key]
	if !exists {
		db.ord++
		c.Arguments, c.Deadline, c.CreateTime = clone(c.Arguments), stamp(c.Deadline), stamp(c.CreateTime)
		if c.Arguments == nil {
			c.Arguments = []byte{}
		}
		c.Owner, c.Token, c.ClaimExpires, c.Claims, c.Done, c.Result, c.CompleteTime = "", 0, time.Time{}, 0, false, store.ToolCallResult{}, time.Time{}
		row = &callRow{call: c, ord: db.ord}
		db.toolCalls[key] = row
	} else if !row.call.Done {
		if c.Deadline.IsZero() || row.call.Deadline.IsZero() {
			row.call.Deadline = time.Time{}
		} else if c.Deadline.After(row.call.Deadline) {
			row.call.Deadline = stamp(c.Deadline)
		}
	}
	stored := copyCall(row.call)
	db.mu.Unlock()
	if !stored.Done {
		db.publish(store.ToolCallsTopic(c.Tenant, c.Tool))
	}
	return stored, !exists, nil
}

// ClaimToolCalls implements store.ToolCalls.
func (db *DB) ClaimToolCalls(ctx context.Context, tenant, owner string, tools []string, now time.Time, ttl time.Duration, limit int) ([]store.ToolCall, error) {
	if len(tools) == 0 || limit <= 0 {
		return nil, nil
	}
	if err := db.lock(ctx); err != nil {
		return nil, err
	}
	defer db.mu.Unlock()
	var open []*callRow
	for _, r := range db.toolCalls {
		c := r.call
		if c.Tenant == tenant && !c.Done && slices.Contains(tools, c.Tool) && !c.ClaimExpires.After(now) && (c.Deadline.IsZero() || c.Deadline.After(now)) {
			open = append(open, r)
		}
	}
	sort.Slice(open, func(i, j int) bool { return open[i].ord < open[j].ord })
	var out []store.ToolCall
	for _, r := range open {
		if len(out) >= limit {
			break
		}
		r.call.Owner, r.call.ClaimExpires = owner, stamp(now.Add(ttl))
		r.call.Token++
		r.call.Claims++
		out = append(out, copyCall(r.call))
	}
	return out, nil
}

// claimed returns the call c's claim still holds, or nil.
func (db *DB) claimed(c store.ToolCall) *callRow {
	r, ok := db.toolCalls[runKey{c.Tenant, c.CallID}]
	if !ok || r.call.Done || r.call.Owner != c.Owner || r.call.Token != c.Token {
		return nil
	}
	return r
}

// RenewToolCall implements store.ToolCalls.
func (db *DB) RenewToolCall(ctx context.Context, c *store.ToolCall, now time.Time, ttl time.Duration) error {
	if err := db.lock(ctx); err != nil {
		return err
	}
	defer db.mu.Unlock()
	r := db.claimed(*c)
	if r == nil {
		return &errs.LeaseLost{RunID: c.RunID, WorkerID: c.Owner}
	}
	r.call.ClaimExpires = stamp(now.Add(ttl))
	c.ClaimExpires = r.call.ClaimExpires
	return nil
}

// ReleaseToolCall implements store.ToolCalls.
func (db *DB) ReleaseToolCall(ctx context.Context, c store.ToolCall) error {
	if err := db.lock(ctx); err != nil {
		return err
	}
	r := db.claimed(c)
	if r != nil {
		r.call.Owner, r.call.ClaimExpires = "", time.Time{}
	}
	db.mu.Unlock()
	if r != nil {
		db.publish(store.ToolCallsTopic(c.Tenant, c.Tool))
	}
	return nil
}

// CompleteToolCall implements store.ToolCalls.
func (db *DB) CompleteToolCall(ctx context.Context, c store.ToolCall, res store.ToolCallResult, now time.Time) error {
	if err := db.lock(ctx); err != nil {
		return err
	}
	r := db.claimed(c)
	if r == nil {
		db.mu.Unlock()
		return &errs.LeaseLost{RunID: c.RunID, WorkerID: c.Owner}
	}
	r.call.Done, r.call.CompleteTime = true, stamp(now)
	r.call.Result = copyCall(store.ToolCall{Result: res}).Result
	db.mu.Unlock()
	db.publish(store.ToolResultTopic(c.Tenant, c.CallID))
	return nil
}

// GetToolCall implements store.ToolCalls.
func (db *DB) GetToolCall(ctx context.Context, tenant, callID string) (store.ToolCall, bool, error) {
	if err := db.lock(ctx); err != nil {
		return store.ToolCall{}, false, err
	}
	defer db.mu.Unlock()
	r, ok := db.toolCalls[runKey{tenant, callID}]
	if !ok {
		return store.ToolCall{}, false, nil
	}
	return copyCall(r.call), true, nil
}

// AbandonToolCall implements store.ToolCalls.
func (db *DB) AbandonToolCall(ctx context.Context, tenant, callID string, now time.Time) (bool, error) {
	if err := db.lock(ctx); err != nil {
		return false, err
	}
	defer db.mu.Unlock()
	key := runKey{tenant, callID}
	r, ok := db.toolCalls[key]
	if !ok || r.call.Done || r.call.ClaimExpires.After(now) {
		return false, nil
	}
	delete(db.toolCalls, key)
	return true, nil
}

// PruneToolCalls implements store.ToolCalls.
func (db *DB) PruneToolCalls(ctx context.Context, now time.Time, keep time.Duration) (int, error) {
	if err := db.lock(ctx); err != nil {
		return 0, err
	}
	defer db.mu.Unlock()
	for k, a := range db.adverts {
		if !a.expires.After(now) {
			delete(db.adverts, k)
		}
	}
	before := now.Add(-keep)
	n := 0
	for k, r := range db.toolCalls {
		c := r.call
		since := c.CreateTime
		if !c.Deadline.IsZero() {
			since = c.Deadline
		}
		if (c.Done && c.CompleteTime.Before(before)) || (!c.Done && since.Before(before)) {
			delete(db.toolCalls, k)
			n++
		}
	}
	return n, nil
}
