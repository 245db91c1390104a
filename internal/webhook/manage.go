package webhook

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/ids"
	"github.com/runsvc/runsvc/internal/netpolicy"
	"github.com/runsvc/runsvc/internal/store"
)

// Settings are what a tenant chooses for a subscription.
type Settings struct {
	URL        string
	EventTypes []string
	SpecFilter string
	Enabled    bool
}

// Subscription is a subscription as the API shows it: never its secrets,
// only until when the previous one still signs.
type Subscription struct {
	store.WebhookSubscription
	PreviousSecretExpires time.Time
}

// Manager creates, changes and reads subscriptions and their deliveries.
type Manager struct {
	store   store.Webhooks
	subs    *Subscriptions
	network *netpolicy.Policy
	clock   clock.Clock
	// lookup resolves a URL's host name at create time.
	lookup func(ctx context.Context, host string) ([]netip.Addr, error)
}

// NewManager returns a Manager of s's subscriptions, which refreshes subs
// after every change and checks URLs against network.
func NewManager(s store.Webhooks, subs *Subscriptions, network *netpolicy.Policy, clk clock.Clock) *Manager {
	if clk == nil {
		clk = clock.Real{}
	}
	return &Manager{store: s, subs: subs, network: network, clock: clk, lookup: func(ctx context.Context, host string) ([]netip.Addr, error) {
		return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	}}
}

// DefaultPreviousSecretTTL is how long a rotated-out secret still signs.
const DefaultPreviousSecretTTL = 24 * time.Hour

// Create stores a new subscription and returns it with its secret, which
// is never shown again; *errs.WebhookInvalid when the settings are not
// acceptable.
func (m *Manager) Create(ctx context.Context, tenant string, set Settings) (Subscription, string, error) {
	if err := m.check(ctx, set); err != nil {
		return Subscription{}, "", err
	}
	now := m.clock.Now().UTC()
	secret := NewSecret()
	s := store.WebhookSubscription{
		Tenant: tenant, ID: ids.New("wh", now), URL: set.URL, EventTypes: set.EventTypes, SpecFilter: set.SpecFilter,
		Enabled: set.Enabled, Secrets: Secrets{Current: secret}.encode(), CreateTime: now, UpdateTime: now,
	}
	if err := m.put(ctx, s); err != nil {
		return Subscription{}, "", err
	}
	return view(s), secret, nil
}

func (m *Manager) put(ctx context.Context, s store.WebhookSubscription) error {
	if err := m.store.PutSubscription(ctx, s); err != nil {
		return err
	}
	return m.subs.Refresh(ctx)
}

func view(s store.WebhookSubscription) Subscription {
	sec, _ := decodeSecrets(s.Secrets)
	s.Secrets = nil
	return Subscription{WebhookSubscription: s, PreviousSecretExpires: sec.PreviousExpires}
}

// get returns a stored subscription or *errs.WebhookNotFound.
func (m *Manager) get(ctx context.Context, tenant, id string) (store.WebhookSubscription, error) {
	s, ok, err := m.store.GetSubscription(ctx, tenant, id)
	if err != nil {
		return s, err
	}
	if !ok || isPush(s) {
		return s, &errs.WebhookNotFound{SubscriptionID: id}
	}
	return s, nil
}

// Get returns a subscription or *errs.WebhookNotFound.
func (m *Manager) Get(ctx context.Context, tenant, id string) (Subscription, error) {
	s, err := m.get(ctx, tenant, id)
	if err != nil {
		return Subscription{}, err
	}
	return view(s), nil
}

// List lists the tenant's subscriptions, oldest first.
func (m *Manager) List(ctx context.Context, tenant string) ([]Subscription, error) {
	all, err := m.store.ListRunSubscriptions(ctx, tenant, "")
	if err != nil {
		return nil, err
	}
	out := make([]Subscription, 0, len(all))
	for _, s := range all {
		if !isPush(s) {
			out = append(out, view(s))
		}
	}
	return out, nil
}

// The fields Update may change.
const (
	FieldURL        = "url"
	FieldEventTypes = "event_types"
	FieldSpecFilter = "spec_filter"
	FieldEnabled    = "enabled"
)

// Update changes the fields named (all of them when none is) to set's;
// enabling a subscription clears why it was disabled.
func (m *Manager) Update(ctx context.Context, tenant, id string, set Settings, fields []string) (Subscription, error) {
	s, err := m.get(ctx, tenant, id)
	if err != nil {
		return Subscription{}, err
	}
	if len(fields) == 0 {
		fields = []string{FieldURL, FieldEventTypes, FieldSpecFilter, FieldEnabled}
	}
	var bad []errs.FieldViolation
	for _, f := range fields {
		switch f {
		case FieldURL:
			s.URL = set.URL
		case FieldEventTypes:
			s.EventTypes = set.EventTypes
		case FieldSpecFilter:
			s.SpecFilter = set.SpecFilter
		case FieldEnabled:
			s.Enabled = set.Enabled
			if s.Enabled {
				s.DisabledReason = ""
			}
		default:
			bad = append(bad, errs.FieldViolation{Field: "update_mask", Description: fmt.Sprintf("%q is not a field that can be changed", f)})
		}
	}
	if len(bad) > 0 {
		return Subscription{}, &errs.WebhookInvalid{Subscription: id, Violations: bad}
	}
	if err := m.check(ctx, Settings{URL: s.URL, EventTypes: s.EventTypes, SpecFilter: s.SpecFilter}); err != nil {
		return Subscription{}, err
	}
	s.UpdateTime = m.clock.Now().UTC()
	if err := m.put(ctx, s); err != nil {
		return Subscription{}, err
	}
	return view(s), nil
}

// Delete deletes a subscription, its deliveries and its log.
func (m *Manager) Delete(ctx context.Context, tenant, id string) error {
	if _, err := m.get(ctx, tenant, id); err != nil {
		return err
	}
	found, err := m.store.DeleteSubscription(ctx, tenant, id)
	if err != nil {
		return err
	}
	if !found {
		return &errs.WebhookNotFound{SubscriptionID: id}
	}
	return m.subs.Refresh(ctx)
}

// Rotate gives a subscription a new secret, returned this once; the
// current one signs too until ttl has passed.
func (m *Manager) Rotate(ctx context.Context, tenant, id string, ttl time.Duration) (Subscription, string, error) {
	s, err := m.get(ctx, tenant, id)
	if err != nil {
		return Subscription{}, "", err
	}
	old, err := decodeSecrets(s.Secrets)
	if err != nil {
		return Subscription{}, "", err
	}
	now := m.clock.Now().UTC()
	secret := NewSecret()
	next := Secrets{Current: secret}
	if ttl > 0 {
		next.Previous, next.PreviousExpires = old.Current, now.Add(ttl)
	}
	s.Secrets, s.UpdateTime = next.encode(), now
	if err := m.put(ctx, s); err != nil {
		return Subscription{}, "", err
	}
	return view(s), secret, nil
}

// Deliveries lists a subscription's deliveries, newest first; deadOnly
// lists the dead-lettered ones.
func (m *Manager) Deliveries(ctx context.Context, tenant, id string, deadOnly bool, limit int) ([]store.WebhookDelivery, error) {
	if _, err := m.get(ctx, tenant, id); err != nil {
		return nil, err
	}
	q := store.DeliveryQuery{Limit: limit}
	if deadOnly {
		q.State = store.DeliveryDead
	}
	return m.store.ListDeliveries(ctx, tenant, id, q)
}

// Attempts is a subscription's delivery log, newest first.
func (m *Manager) Attempts(ctx context.Context, tenant, id string, limit int) ([]store.WebhookAttempt, error) {
	if _, err := m.get(ctx, tenant, id); err != nil {
		return nil, err
	}
	return m.store.ListAttempts(ctx, tenant, id, limit)
}

// Redeliver makes a dead delivery (every dead one when deliveryID is
// empty) pending again, with a new retry period.
func (m *Manager) Redeliver(ctx context.Context, tenant, id, deliveryID string) (int, error) {
	if _, err := m.get(ctx, tenant, id); err != nil {
		return 0, err
	}
	return m.store.Redeliver(ctx, tenant, id, deliveryID, m.clock.Now().UTC())
}

// check refuses settings with *errs.WebhookInvalid.
func (m *Manager) check(ctx context.Context, set Settings) error {
	bad := m.checkURL(ctx, set.URL)
	if len(set.EventTypes) == 0 {
		bad = append(bad, errs.FieldViolation{Field: "event_types", Description: "name at least one event type: " + strings.Join(EventTypes, ", ")})
	}
	for i, t := range set.EventTypes {
		if !slices.Contains(EventTypes, t) {
			bad = append(bad, errs.FieldViolation{Field: fmt.Sprintf("event_types[%d]", i), Description: fmt.Sprintf("%q is not an event type; the types are %s", t, strings.Join(EventTypes, ", "))})
		}
	}
	if len(set.SpecFilter) > 256 || strings.ContainsAny(set.SpecFilter, " \t\n") {
		bad = append(bad, errs.FieldViolation{Field: "spec_filter", Description: "a Spec name: up to 256 characters, no spaces"})
	}
	if len(bad) > 0 {
		return &errs.WebhookInvalid{Violations: bad}
	}
	return nil
}

// lookupTimeout bounds resolving a URL's host at create time.
const lookupTimeout = 2 * time.Second

// checkURL is what is wrong with a subscription's URL: not https (http
// only to networks --allow-network lists), or an address the outbound
// network policy refuses, literal or resolved now. A host that does not
// resolve yet passes: every delivery's dial is checked again.
func (m *Manager) checkURL(ctx context.Context, raw string) []errs.FieldViolation {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return []errs.FieldViolation{{Field: "url", Description: "an absolute https URL (http only to networks --allow-network lists)"}}
	}
	addrs := []netip.Addr{}
	if a, err := netip.ParseAddr(u.Hostname()); err == nil {
		addrs = append(addrs, a)
	} else {
		lctx, cancel := context.WithTimeout(ctx, lookupTimeout)
		found, _ := m.lookup(lctx, u.Hostname())
		cancel()
		addrs = append(addrs, found...)
	}
	for _, a := range addrs {
		if !m.network.Allows(a) {
			return []errs.FieldViolation{{Field: "url", Description: (&netpolicy.Refused{Addr: a.Unmap()}).Error()}}
		}
	}
	if u.Scheme == "http" && !m.listed(addrs) {
		return []errs.FieldViolation{{Field: "url", Description: "http is allowed only to an address in a network --allow-network lists; use https"}}
	}
	return nil
}

// listed reports whether addrs are all in networks the operator listed.
func (m *Manager) listed(addrs []netip.Addr) bool {
	if m.network == nil || len(m.network.Networks()) == 0 || len(addrs) == 0 {
		return false
	}
	for _, a := range addrs {
		if !slices.ContainsFunc(m.network.Networks(), func(p netip.Prefix) bool { return p.Contains(a.Unmap()) }) {
			return false
		}
	}
	return true
}
