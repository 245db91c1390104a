package webhook

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/runsvc/runsvc/internal/store"
)

// Subscriptions is this process's copy of every tenant's enabled
// subscriptions, which Run writes match their events against without a
// read. The dispatcher refreshes it (Refresh) every second and the
// management calls after each change here, so a subscription created on
// another replica receives the events raised from about a second later.
type Subscriptions struct {
	store store.Webhooks
	mu    sync.RWMutex
	// byTenant holds each tenant's enabled subscriptions.
	byTenant map[string][]store.WebhookSubscription
}

// NewSubscriptions returns an empty copy of s's subscriptions; Refresh
// fills it.
func NewSubscriptions(s store.Webhooks) *Subscriptions {
	return &Subscriptions{store: s, byTenant: map[string][]store.WebhookSubscription{}}
}

// Refresh reads every subscription again.
func (c *Subscriptions) Refresh(ctx context.Context) error {
	all, err := c.store.ListSubscriptions(ctx, "")
	if err != nil {
		return err
	}
	by := map[string][]store.WebhookSubscription{}
	for _, s := range all {
		if s.Enabled {
			by[s.Tenant] = append(by[s.Tenant], s)
		}
	}
	c.mu.Lock()
	c.byTenant = by
	c.mu.Unlock()
	return nil
}

// Any reports whether any tenant has an enabled subscription.
func (c *Subscriptions) Any() bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.byTenant) > 0
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

// refreshEvery is how often the dispatcher refreshes the copy.
const refreshEvery = time.Second
