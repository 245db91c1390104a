package server

import (
	"context"
	"time"

	"github.com/runsvc/runsvc/internal/store"
)

// storeObserver hears of each store operation's latency, and of each
// Run created (every Run, a StartRun's or a delegation's, is created
// through the store).
type storeObserver interface {
	ObserveStore(op string, d time.Duration, err error)
	RunStarted(spec string)
}

// timedStore is a store.Store whose every operation's latency is observed
// (the store_operation_duration_seconds metric), by method name.
type timedStore struct {
	store.Store
	obs storeObserver
}

// observe records the operation op that began at start.
func (t timedStore) observe(op string, start time.Time, err error) {
	t.obs.ObserveStore(op, time.Since(start), err)
}

// PutSpec implements store.Store, timed.
func (t timedStore) PutSpec(ctx context.Context, s store.Spec) (store.Spec, bool, error) {
	start := time.Now()
	r0, r1, err := t.Store.PutSpec(ctx, s)
	t.observe("PutSpec", start, err)
	return r0, r1, err
}

// GetSpec implements store.Store, timed.
func (t timedStore) GetSpec(ctx context.Context, tenant, name, version string) (store.Spec, error) {
	start := time.Now()
	r0, err := t.Store.GetSpec(ctx, tenant, name, version)
	t.observe("GetSpec", start, err)
	return r0, err
}

// ListSpecs implements store.Store, timed.
func (t timedStore) ListSpecs(ctx context.Context, tenant string, q store.SpecQuery) ([]store.Spec, string, error) {
	start := time.Now()
	r0, r1, err := t.Store.ListSpecs(ctx, tenant, q)
	t.observe("ListSpecs", start, err)
	return r0, r1, err
}

// CreateRun implements store.Store, timed.
func (t timedStore) CreateRun(ctx context.Context, r store.NewRun) (store.Run, bool, error) {
	start := time.Now()
	r0, r1, err := t.Store.CreateRun(ctx, r)
	t.observe("CreateRun", start, err)
	if err == nil && r1 {
		t.obs.RunStarted(r.Spec)
	}
	return r0, r1, err
}

// Append implements store.Store, timed.
func (t timedStore) Append(ctx context.Context, a store.Append) error {
	start := time.Now()
	err := t.Store.Append(ctx, a)
	t.observe("Append", start, err)
	return err
}

// ReadLog implements store.Store, timed.
func (t timedStore) ReadLog(ctx context.Context, tenant, runID string, from int64, limit int) ([]store.Record, error) {
	start := time.Now()
	r0, err := t.Store.ReadLog(ctx, tenant, runID, from, limit)
	t.observe("ReadLog", start, err)
	return r0, err
}

// GetRun implements store.Store, timed.
func (t timedStore) GetRun(ctx context.Context, tenant, runID string) (store.Run, error) {
	start := time.Now()
	r0, err := t.Store.GetRun(ctx, tenant, runID)
	t.observe("GetRun", start, err)
	return r0, err
}

// GetRunByDelegation implements store.Store, timed.
func (t timedStore) GetRunByDelegation(ctx context.Context, tenant, delegationID string) (store.Run, error) {
	start := time.Now()
	r0, err := t.Store.GetRunByDelegation(ctx, tenant, delegationID)
	t.observe("GetRunByDelegation", start, err)
	return r0, err
}

// ListRuns implements store.Store, timed.
func (t timedStore) ListRuns(ctx context.Context, tenant string, q store.RunQuery) ([]store.Run, string, error) {
	start := time.Now()
	r0, r1, err := t.Store.ListRuns(ctx, tenant, q)
	t.observe("ListRuns", start, err)
	return r0, r1, err
}

// GetThread implements store.Store, timed.
func (t timedStore) GetThread(ctx context.Context, tenant, threadID string) (store.Thread, bool, error) {
	start := time.Now()
	r0, r1, err := t.Store.GetThread(ctx, tenant, threadID)
	t.observe("GetThread", start, err)
	return r0, r1, err
}

// ListThreads implements store.Store, timed.
func (t timedStore) ListThreads(ctx context.Context, tenant string, q store.ThreadQuery) ([]store.Thread, string, error) {
	start := time.Now()
	r0, r1, err := t.Store.ListThreads(ctx, tenant, q)
	t.observe("ListThreads", start, err)
	return r0, r1, err
}

// PutHistoryParts implements store.Store, timed.
func (t timedStore) PutHistoryParts(ctx context.Context, parts []store.HistoryPart) error {
	start := time.Now()
	err := t.Store.PutHistoryParts(ctx, parts)
	t.observe("PutHistoryParts", start, err)
	return err
}

// HistoryParts implements store.Store, timed.
func (t timedStore) HistoryParts(ctx context.Context, tenant, threadID string, before int) ([]store.HistoryPart, error) {
	start := time.Now()
	r0, err := t.Store.HistoryParts(ctx, tenant, threadID, before)
	t.observe("HistoryParts", start, err)
	return r0, err
}

// SetIndex implements store.Store, timed.
func (t timedStore) SetIndex(ctx context.Context, tenant, runID string, lastSeq int64, idx store.Index, now time.Time) error {
	start := time.Now()
	err := t.Store.SetIndex(ctx, tenant, runID, lastSeq, idx, now)
	t.observe("SetIndex", start, err)
	return err
}

// CountRuns implements store.Store, timed.
func (t timedStore) CountRuns(ctx context.Context, states []string) ([]store.RunCount, error) {
	start := time.Now()
	r0, err := t.Store.CountRuns(ctx, states)
	t.observe("CountRuns", start, err)
	return r0, err
}

// Claim implements store.Store, timed.
func (t timedStore) Claim(ctx context.Context, owner string, now time.Time, ttl time.Duration, limit int) ([]*store.Lease, error) {
	start := time.Now()
	r0, err := t.Store.Claim(ctx, owner, now, ttl, limit)
	t.observe("Claim", start, err)
	return r0, err
}

// Renew implements store.Store, timed.
func (t timedStore) Renew(ctx context.Context, l *store.Lease, now time.Time, ttl time.Duration) error {
	start := time.Now()
	err := t.Store.Renew(ctx, l, now, ttl)
	t.observe("Renew", start, err)
	return err
}

// Release implements store.Store, timed.
func (t timedStore) Release(ctx context.Context, l *store.Lease) error {
	start := time.Now()
	err := t.Store.Release(ctx, l)
	t.observe("Release", start, err)
	return err
}

// NextWake implements store.Store, timed.
func (t timedStore) NextWake(ctx context.Context) (time.Time, bool, error) {
	start := time.Now()
	r0, r1, err := t.Store.NextWake(ctx)
	t.observe("NextWake", start, err)
	return r0, r1, err
}

// Ping implements store.Store, timed.
func (t timedStore) Ping(ctx context.Context) error {
	start := time.Now()
	err := t.Store.Ping(ctx)
	t.observe("Ping", start, err)
	return err
}

// SetValue implements store.Store, timed.
func (t timedStore) SetValue(ctx context.Context, tenant, namespace, key string, value []byte, now time.Time) (store.Entry, error) {
	start := time.Now()
	r0, err := t.Store.SetValue(ctx, tenant, namespace, key, value, now)
	t.observe("SetValue", start, err)
	return r0, err
}

// GetValues implements store.Store, timed.
func (t timedStore) GetValues(ctx context.Context, tenant, namespace string, keys []string) ([]store.Entry, error) {
	start := time.Now()
	r0, err := t.Store.GetValues(ctx, tenant, namespace, keys)
	t.observe("GetValues", start, err)
	return r0, err
}

// Changes implements store.Store, timed.
func (t timedStore) Changes(ctx context.Context, tenant, namespace string, after int64) ([]store.Entry, error) {
	start := time.Now()
	r0, err := t.Store.Changes(ctx, tenant, namespace, after)
	t.observe("Changes", start, err)
	return r0, err
}

// DeclareChannels implements store.Store, timed.
func (t timedStore) DeclareChannels(ctx context.Context, tenant, owner string, channels []string) error {
	start := time.Now()
	err := t.Store.DeclareChannels(ctx, tenant, owner, channels)
	t.observe("DeclareChannels", start, err)
	return err
}

// ChannelExists implements store.Store, timed.
func (t timedStore) ChannelExists(ctx context.Context, tenant, channel string) (bool, error) {
	start := time.Now()
	r0, err := t.Store.ChannelExists(ctx, tenant, channel)
	t.observe("ChannelExists", start, err)
	return r0, err
}

// SendBus implements store.Store, timed.
func (t timedStore) SendBus(ctx context.Context, m store.BusMessage) error {
	start := time.Now()
	err := t.Store.SendBus(ctx, m)
	t.observe("SendBus", start, err)
	return err
}

// DeliverBus implements store.Store, timed.
func (t timedStore) DeliverBus(ctx context.Context, tenant, channel, inReplyTo string, now time.Time, ackTimeout time.Duration, limit int) ([]store.BusMessage, error) {
	start := time.Now()
	r0, err := t.Store.DeliverBus(ctx, tenant, channel, inReplyTo, now, ackTimeout, limit)
	t.observe("DeliverBus", start, err)
	return r0, err
}

// AckBus implements store.Store, timed.
func (t timedStore) AckBus(ctx context.Context, tenant, channel string, ids []string) (int, error) {
	start := time.Now()
	r0, err := t.Store.AckBus(ctx, tenant, channel, ids)
	t.observe("AckBus", start, err)
	return r0, err
}

// NextRedelivery implements store.Store, timed.
func (t timedStore) NextRedelivery(ctx context.Context, tenant, channel string) (time.Time, bool, error) {
	start := time.Now()
	r0, r1, err := t.Store.NextRedelivery(ctx, tenant, channel)
	t.observe("NextRedelivery", start, err)
	return r0, r1, err
}

// AdvertiseTools implements store.Store, timed.
func (t timedStore) AdvertiseTools(ctx context.Context, replica string, adverts []store.ToolAdvert, expires time.Time) error {
	start := time.Now()
	err := t.Store.AdvertiseTools(ctx, replica, adverts, expires)
	t.observe("AdvertiseTools", start, err)
	return err
}

// ServedTools implements store.Store, timed.
func (t timedStore) ServedTools(ctx context.Context, tenant string, now time.Time, exceptReplica string) ([]store.ServedTool, error) {
	start := time.Now()
	r0, err := t.Store.ServedTools(ctx, tenant, now, exceptReplica)
	t.observe("ServedTools", start, err)
	return r0, err
}

// EnqueueToolCall implements store.Store, timed.
func (t timedStore) EnqueueToolCall(ctx context.Context, c store.ToolCall) (store.ToolCall, bool, error) {
	start := time.Now()
	r0, r1, err := t.Store.EnqueueToolCall(ctx, c)
	t.observe("EnqueueToolCall", start, err)
	return r0, r1, err
}

// ClaimToolCalls implements store.Store, timed.
func (t timedStore) ClaimToolCalls(ctx context.Context, tenant, owner string, tools []string, now time.Time, ttl time.Duration, limit int) ([]store.ToolCall, error) {
	start := time.Now()
	r0, err := t.Store.ClaimToolCalls(ctx, tenant, owner, tools, now, ttl, limit)
	t.observe("ClaimToolCalls", start, err)
	return r0, err
}

// RenewToolCall implements store.Store, timed.
func (t timedStore) RenewToolCall(ctx context.Context, c *store.ToolCall, now time.Time, ttl time.Duration) error {
	start := time.Now()
	err := t.Store.RenewToolCall(ctx, c, now, ttl)
	t.observe("RenewToolCall", start, err)
	return err
}

// ReleaseToolCall implements store.Store, timed.
func (t timedStore) ReleaseToolCall(ctx context.Context, c store.ToolCall) error {
	start := time.Now()
	err := t.Store.ReleaseToolCall(ctx, c)
	t.observe("ReleaseToolCall", start, err)
	return err
}

// CompleteToolCall implements store.Store, timed.
func (t timedStore) CompleteToolCall(ctx context.Context, c store.ToolCall, r store.ToolCallResult, now time.Time) error {
	start := time.Now()
	err := t.Store.CompleteToolCall(ctx, c, r, now)
	t.observe("CompleteToolCall", start, err)
	return err
}

// GetToolCall implements store.Store, timed.
func (t timedStore) GetToolCall(ctx context.Context, tenant, callID string) (store.ToolCall, bool, error) {
	start := time.Now()
	r0, r1, err := t.Store.GetToolCall(ctx, tenant, callID)
	t.observe("GetToolCall", start, err)
	return r0, r1, err
}

// AbandonToolCall implements store.Store, timed.
func (t timedStore) AbandonToolCall(ctx context.Context, tenant, callID string, now time.Time) (bool, error) {
	start := time.Now()
	r0, err := t.Store.AbandonToolCall(ctx, tenant, callID, now)
	t.observe("AbandonToolCall", start, err)
	return r0, err
}

// PruneToolCalls implements store.Store, timed.
func (t timedStore) PruneToolCalls(ctx context.Context, now time.Time, keep time.Duration) (int, error) {
	start := time.Now()
	r0, err := t.Store.PruneToolCalls(ctx, now, keep)
	t.observe("PruneToolCalls", start, err)
	return r0, err
}

var _ store.Store = timedStore{}

// DeleteRuns implements store.Store, timed.
func (t timedStore) DeleteRuns(ctx context.Context, ds []store.RunDeletion) ([]string, error) {
	start := time.Now()
	r0, err := t.Store.DeleteRuns(ctx, ds)
	t.observe("DeleteRuns", start, err)
	return r0, err
}

// DeleteThread implements store.Store, timed.
func (t timedStore) DeleteThread(ctx context.Context, tenant, threadID string, ds []store.RunDeletion) ([]string, bool, error) {
	start := time.Now()
	r0, r1, err := t.Store.DeleteThread(ctx, tenant, threadID, ds)
	t.observe("DeleteThread", start, err)
	return r0, r1, err
}

// SettledGroups implements store.Store, timed.
func (t timedStore) SettledGroups(ctx context.Context, settled []string) ([]store.RunGroup, error) {
	start := time.Now()
	r0, err := t.Store.SettledGroups(ctx, settled)
	t.observe("SettledGroups", start, err)
	return r0, err
}

// ExpiredRuns implements store.Store, timed.
func (t timedStore) ExpiredRuns(ctx context.Context, q store.ExpiryQuery) ([]store.Run, error) {
	start := time.Now()
	r0, err := t.Store.ExpiredRuns(ctx, q)
	t.observe("ExpiredRuns", start, err)
	return r0, err
}

// Compact implements store.Store, timed.
func (t timedStore) Compact(ctx context.Context) error {
	start := time.Now()
	err := t.Store.Compact(ctx)
	t.observe("Compact", start, err)
	return err
}
