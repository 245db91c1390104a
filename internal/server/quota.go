package server

import (
	"context"
	"sync"
	"time"

	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/store"
)

// quotaRetry is the RetryInfo delay of a spent concurrent-Runs quota: Runs
// settle on their own time, so this is a polite interval, not a promise.
const quotaRetry = time.Second

// quotas applies each tenant's Quota to StartRun: the Runs of the tenant
// that have not settled (read from the store, so every replica sees them)
// and the starts in the last minute (counted by this replica).
type quotas struct {
	store runLister
	clock clock.Clock
	mu    sync.Mutex
	// tenants serialises the check and the start per tenant, so two starts
	// cannot both take the last slot on this replica.
	tenants map[string]*sync.Mutex
	starts  map[string][]time.Time
}

// runLister is what quotas read: the tenant's unsettled Runs.
type runLister interface {
	// ListRuns is store.Runs'.
	ListRuns(ctx context.Context, tenant string, q store.RunQuery) ([]store.Run, string, error)
}

func newQuotas(st runLister, c clock.Clock) *quotas {
	return &quotas{store: st, clock: c, tenants: map[string]*sync.Mutex{}, starts: map[string][]time.Time{}}
}

func (q *quotas) lock(tenant string) *sync.Mutex {
	q.mu.Lock()
	defer q.mu.Unlock()
	m, ok := q.tenants[tenant]
	if !ok {
		m = &sync.Mutex{}
		q.tenants[tenant] = m
	}
	return m
}

// admit refuses a start beyond the identity's quota with QUOTA_EXCEEDED;
// otherwise it returns the func that ends the start.
func (q *quotas) admit(ctx context.Context, id auth.Identity) (func(), error) {
	if id.Quota.MaxConcurrentRuns == 0 && id.Quota.StartsPerMinute == 0 {
		return func() {}, nil
	}
	m := q.lock(id.Tenant)
	m.Lock()
	if err := q.rate(id); err != nil {
		m.Unlock()
		return nil, err
	}
	if err := q.concurrent(ctx, id); err != nil {
		m.Unlock()
		return nil, err
	}
	return m.Unlock, nil
}

// rate counts this start against the per-minute quota.
func (q *quotas) rate(id auth.Identity) error {
	limit := id.Quota.StartsPerMinute
	if limit == 0 {
		return nil
	}
	now := q.clock.Now()
	q.mu.Lock()
	defer q.mu.Unlock()
	kept := q.starts[id.Tenant][:0]
	for _, t := range q.starts[id.Tenant] {
		if now.Sub(t) < time.Minute {
			kept = append(kept, t)
		}
	}
	q.starts[id.Tenant] = kept
	if len(kept) >= limit {
		return &errs.QuotaExceeded{Tenant: id.Tenant, Dimension: "starts_per_minute", Limit: limit, RetryAfter: kept[0].Add(time.Minute).Sub(now)}
	}
	q.starts[id.Tenant] = append(kept, now)
	return nil
}

// concurrent refuses a start when the tenant already has its limit of
// unsettled Runs.
func (q *quotas) concurrent(ctx context.Context, id auth.Identity) error {
	limit := id.Quota.MaxConcurrentRuns
	if limit == 0 {
		return nil
	}
	states := []string{string(runlog.StatusQueued), string(runlog.StatusRunning), string(runlog.StatusSuspended)}
	runs, _, err := q.store.ListRuns(ctx, id.Tenant, store.RunQuery{States: states, PageSize: limit})
	if err != nil {
		return err
	}
	if len(runs) >= limit {
		return &errs.QuotaExceeded{Tenant: id.Tenant, Dimension: "concurrent_runs", Limit: limit, RetryAfter: quotaRetry}
	}
	return nil
}
