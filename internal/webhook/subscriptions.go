package webhook

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/store"
)

// Subscriptions is this process's copy of every tenant's enabled
// subscriptions (of the A2A push configs, only those of Runs not settled),
// which Run writes match their events against without a
// read. The dispatcher refreshes it (Refresh) every second and the
// management calls after each change here, so a subscription created on
// another replica receives the events raised from about a second later.
type Subscriptions struct {
	store store.Webhooks
	mu    sync.RWMutex
	// byTenant holds each tenant's enabled subscriptions, push configs
	// excepted; pushes holds those by tenant and Run ("tenant/run"), so an
	// event looks only at its own Run's.
	byTenant map[string][]store.WebhookSubscription
	pushes   map[string][]boundPush
	// followed says a push config is stored, of a live Run or not: the
	// outbox may hold its deliveries (a settled task's last push).
	followed bool
}

// NewSubscriptions returns an empty copy of s's subscriptions; Refresh
// fills it.
func NewSubscriptions(s store.Webhooks) *Subscriptions {
	return &Subscriptions{store: s, byTenant: map[string][]store.WebhookSubscription{}, pushes: map[string][]boundPush{}}
}

// liveStates are the states of a Run that may still raise an event: a
// settled Run's push configs cannot fire again, so the copy leaves them
// out (they stay readable in the store until the Run is deleted).
var liveStates = []string{string(runlog.StatusQueued), string(runlog.StatusRunning), string(runlog.StatusSuspended)}

// Refresh reads every subscription again, but for the push configs of
// settled Runs.
func (c *Subscriptions) Refresh(ctx context.Context) error {
	all, followed, err := c.store.ListLiveSubscriptions(ctx, liveStates)
	if err != nil {
		return err
	}
	by, pushes := map[string][]store.WebhookSubscription{}, map[string][]boundPush{}
	for _, s := range all {
		if !s.Enabled {
			continue
		}
		if p, ok := pushOf(s); ok {
			pushes[s.Tenant+"/"+p.RunID] = append(pushes[s.Tenant+"/"+p.RunID], boundPush{Push: p, id: s.ID})
			continue
		}
		if !isPush(s) {
			by[s.Tenant] = append(by[s.Tenant], s)
		}
	}
	c.mu.Lock()
	c.byTenant, c.pushes, c.followed = by, pushes, followed
	c.mu.Unlock()
	return nil
}

// Any reports whether any tenant has an enabled subscription (a push
// config of a settled Run too: its last push may wait in the outbox).
func (c *Subscriptions) Any() bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.byTenant) > 0 || len(c.pushes) > 0 || c.followed
}

// Matching returns the ids of the tenant's enabled subscriptions that
// want events of type typ about spec ("" for an event about no Spec).
func (c *Subscriptions) Matching(tenant, typ, spec string) []string {
	return c.matching(tenant, typ, spec)
}

func (c *Subscriptions) matching(tenant, typ, spec string) []string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var out []string
	for _, s := range c.byTenant[tenant] {
		if slices.Contains(s.EventTypes, typ) && (s.SpecFilter == "" || spec == "" || s.SpecFilter == spec) {
			out = append(out, s.ID)
		}
	}
	return out
}

// refreshEvery is how often the dispatcher refreshes the copy without a
// signal: the store signals every change (PostgreSQL's LISTEN from every
// replica, and all topics when it reconnects), so this only bounds how
// long a lost signal could leave the copy stale.
const refreshEvery = 30 * time.Second
