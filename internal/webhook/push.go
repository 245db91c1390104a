package webhook

import (
	"context"
	"net/http"
	"slices"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/store"
)

// PushEvent is the event type of an A2A push-notification config: a
// subscription bound to one Run (one A2A task), whose events are the
// task's updates as A2A bodies. It is not one a tenant's subscription may
// name: the A2A surface creates these.
const PushEvent = "a2a.task"

// Push is an A2A push-notification config, kept in its subscription's
// secrets (opaque to the store): the Run it follows and how runsvc
// authenticates to the receiver. It is delivered unsigned, with the
// token in X-A2A-Notification-Token and the credentials, when a scheme is
// given, in Authorization.
type Push struct {
	RunID       string `json:"runId"`
	ConfigID    string `json:"configId"`
	ContextID   string `json:"contextId,omitempty"`
	Token       string `json:"token,omitempty"`
	Scheme      string `json:"scheme,omitempty"`
	Credentials string `json:"credentials,omitempty"`
}

// PushConfig is a stored push config and its URL.
type PushConfig struct {
	Push
	URL string
}

// PushBody renders the body of a push to p about a Run left in st; nil
// when this state is not one the task's receiver is told about.
type PushBody func(p Push, st *runlog.State, now time.Time) []byte

// SetPushBody makes Run writes raise push events, rendered by body.
func (e *Events) SetPushBody(body PushBody) { e.pushBody = body }

// pushEvents are the push events of a write leaving a Run in st.
func (e *Events) pushEvents(tenant string, st *runlog.State, now time.Time) []store.WebhookEvent {
	if e.pushBody == nil || len(typesOf(st)) == 0 {
		return nil
	}
	var out []store.WebhookEvent
	for _, p := range e.subs.pushesFor(tenant, st.RunID) {
		if body := e.pushBody(p.Push, st, now); body != nil {
			out = append(out, Event(tenant, p.id, PushEvent, st.RunID, body, now))
		}
	}
	return out
}

// boundPush is a push config with its subscription's id.
type boundPush struct {
	Push
	id string
}

// pushesFor are the tenant's push configs following run.
func (c *Subscriptions) pushesFor(tenant, run string) []boundPush {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.pushes[tenant+"/"+run]
}

// pushOf is a subscription's push config, ok false for a tenant's own
// subscription.
func pushOf(s store.WebhookSubscription) (Push, bool) {
	if !slices.Contains(s.EventTypes, PushEvent) {
		return Push{}, false
	}
	sec, err := decodeSecrets(s.Secrets)
	if err != nil || sec.Push == nil {
		return Push{}, false
	}
	return *sec.Push, true
}

// isPush reports whether a subscription is a push config.
func isPush(s store.WebhookSubscription) bool { return slices.Contains(s.EventTypes, PushEvent) }

// pushID is the subscription id of config of run. It is unambiguous: a
// Run id ("run_" and a base32 id) holds no '-', so the first '-' after
// "a2a-" ends it, whatever the config id holds.
func pushID(run, config string) string { return "a2a-" + run + "-" + config }

// SetPush creates or replaces the push config p.ConfigID of p.RunID to
// url; *errs.WebhookInvalid when the outbound network policy refuses url.
func (m *Manager) SetPush(ctx context.Context, tenant, url string, p Push) error {
	if bad := m.checkURL(ctx, url); len(bad) > 0 {
		return &errs.WebhookInvalid{Violations: bad}
	}
	now := m.clock.Now().UTC()
	s := store.WebhookSubscription{
		Tenant: tenant, ID: pushID(p.RunID, p.ConfigID), RunID: p.RunID, URL: url, EventTypes: []string{PushEvent},
		Enabled: true, Secrets: Secrets{Push: &p}.encode(), CreateTime: now, UpdateTime: now,
	}
	return m.put(ctx, s)
}

// GetPush returns config of run, ok false when there is none.
func (m *Manager) GetPush(ctx context.Context, tenant, run, config string) (PushConfig, bool, error) {
	s, ok, err := m.store.GetSubscription(ctx, tenant, pushID(run, config))
	if err != nil || !ok {
		return PushConfig{}, false, err
	}
	p, ok := pushOf(s)
	return PushConfig{Push: p, URL: s.URL}, ok && p.RunID == run, nil
}

// ListPush lists run's push configs, oldest first.
func (m *Manager) ListPush(ctx context.Context, tenant, run string) ([]PushConfig, error) {
	all, err := m.store.ListRunSubscriptions(ctx, tenant, run)
	if err != nil {
		return nil, err
	}
	var out []PushConfig
	for _, s := range all {
		if p, ok := pushOf(s); ok && p.RunID == run {
			out = append(out, PushConfig{Push: p, URL: s.URL})
		}
	}
	return out, nil
}

// DeletePush deletes config of run and its deliveries; false when there
// was none.
func (m *Manager) DeletePush(ctx context.Context, tenant, run, config string) (bool, error) {
	if _, ok, err := m.GetPush(ctx, tenant, run, config); err != nil || !ok {
		return false, err
	}
	found, err := m.store.DeleteSubscription(ctx, tenant, pushID(run, config))
	if err != nil || !found {
		return found, err
	}
	return true, m.subs.Refresh(ctx)
}

// NotifyPush puts one push to p in the outbox, body as it is: the state a
// task was already in when its config was set.
func (m *Manager) NotifyPush(ctx context.Context, tenant string, p Push, body []byte) error {
	now := m.clock.Now().UTC()
	return m.store.EnqueueWebhooks(ctx, []store.WebhookEvent{Event(tenant, pushID(p.RunID, p.ConfigID), PushEvent, p.RunID, body, now)})
}

// pushHeaders authenticates a push to its receiver.
func pushHeaders(h http.Header, p *Push) {
	h.Set("User-Agent", "runsvc-a2a")
	if p.Token != "" {
		h.Set("X-A2A-Notification-Token", p.Token)
	}
	if p.Scheme != "" && p.Credentials != "" {
		h.Set("Authorization", p.Scheme+" "+p.Credentials)
	}
}
