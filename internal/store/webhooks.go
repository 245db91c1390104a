package store

import (
	"context"
	"time"
)

// The states of a WebhookDelivery.
const (
	// DeliveryPending is a delivery still being tried.
	DeliveryPending = "PENDING"
	// DeliveryDelivered is a delivery a receiver answered 2xx.
	DeliveryDelivered = "DELIVERED"
	// DeliveryDead is a delivery given up after the retry period (or on a
	// disabled subscription): dead-lettered, redeliverable by hand.
	DeliveryDead = "DEAD"
)

// WebhookSubscription is a tenant's webhook endpoint. Secrets is opaque to
// the store (the webhook package's signing secrets).
type WebhookSubscription struct {
	Tenant     string
	ID         string
	URL        string
	EventTypes []string
	// SpecFilter, when set, limits Run events to Runs of that Spec.
	SpecFilter string
	Enabled    bool
	// DisabledReason says why a subscription is disabled ("" when enabled).
	DisabledReason string
	Secrets        []byte
	// RunID is the Run an A2A push-notification config follows; empty for
	// a tenant's own subscription. Such a subscription is deleted with its
	// Run (Lifecycle.DeleteRuns), and ListLiveSubscriptions leaves it out
	// once the Run is settled.
	RunID      string
	CreateTime time.Time
	UpdateTime time.Time
}

// WebhookEvent is one event for one subscription: an outbox row, written
// in the transaction of the Record that causes it. ID is the webhook-id
// the receiver deduplicates by: the same for every attempt.
type WebhookEvent struct {
	Tenant         string
	ID             string
	SubscriptionID string
	Type           string
	RunID          string
	Body           []byte
	CreateTime     time.Time
}

// WebhookDelivery is an outbox row and where its delivery stands.
type WebhookDelivery struct {
	WebhookEvent
	State    string
	Attempts int
	// PeriodStart is when the current retry period began: the event's
	// creation, or its last redelivery by hand.
	PeriodStart time.Time
	// NextTime is when it is next due.
	NextTime     time.Time
	LeaseOwner   string
	LeaseExpires time.Time
	LastStatus   int
	LastError    string
}

// WebhookAttempt is one line of a subscription's delivery log. It never
// holds a secret.
type WebhookAttempt struct {
	Tenant         string
	SubscriptionID string
	DeliveryID     string
	Type           string
	Attempt        int
	// Status is the receiver's HTTP status, 0 when none came.
	Status  int
	Latency time.Duration
	Error   string
	Time    time.Time
}

// DeliveryQuery selects a subscription's deliveries, newest first.
type DeliveryQuery struct {
	// State, when set, keeps only deliveries in it.
	State string
	Limit int
}

// Webhooks keeps webhook subscriptions, the outbox and the delivery log.
// It is not part of Store: both adapters implement it, and the webhook
// package asks for it. Enqueueing from an adapter's own transaction is
// each adapter's EnqueueWebhooksTx (Append.Events does it for a Run's
// Records).
type Webhooks interface {
	// PutSubscription creates or replaces a subscription.
	PutSubscription(ctx context.Context, s WebhookSubscription) error
	// GetSubscription returns a subscription, ok false when none.
	GetSubscription(ctx context.Context, tenant, id string) (WebhookSubscription, bool, error)
	// ListSubscriptions lists a tenant's subscriptions, or every tenant's
	// when tenant is empty, oldest first.
	ListSubscriptions(ctx context.Context, tenant string) ([]WebhookSubscription, error)
	// ListRunSubscriptions lists a tenant's subscriptions that follow the
	// Run runID (its A2A push configs), or, when runID is empty, the
	// tenant's own, oldest first: a read of those alone, however many
	// other Runs' configs are stored.
	ListRunSubscriptions(ctx context.Context, tenant, runID string) ([]WebhookSubscription, error)
	// ListLiveSubscriptions lists every tenant's subscriptions that follow
	// no Run, and those whose Run is in one of the states live, oldest
	// first: what can still raise an event, read at a cost that follows the
	// configs not retired (RetireSubscriptions), neither the settled Runs'
	// nor the live Runs without one. followed says whether any
	// enabled subscription follows a Run at all, live or not: the outbox
	// may hold a delivery of one whose Run settled.
	ListLiveSubscriptions(ctx context.Context, live []string) (subs []WebhookSubscription, followed bool, err error)
	// RetireSubscriptions marks the subscriptions that follow a Run no
	// longer in one of the states live (or gone) so that
	// ListLiveSubscriptions no longer reads them, and returns how many it
	// marked. Until then it reads them and leaves them out; run now and
	// then, it keeps that read to the configs of Runs settled since.
	RetireSubscriptions(ctx context.Context, live []string) (int, error)
	// DeleteSubscription deletes a subscription and its outbox rows and
	// log; false when there was none.
	DeleteSubscription(ctx context.Context, tenant, id string) (bool, error)
	// EnqueueWebhooks writes events on their own (not beside Records).
	EnqueueWebhooks(ctx context.Context, events []WebhookEvent) error
	// ClaimDeliveries leases up to limit PENDING deliveries due at now to
	// owner until now+ttl, oldest due first, skipping leased ones and
	// those of the subscriptions busy names (the claimer's endpoints at
	// their concurrency bound).
	ClaimDeliveries(ctx context.Context, owner string, now time.Time, ttl time.Duration, limit int, busy []string) ([]WebhookDelivery, error)
	// FinishAttempt stores d's new State, Attempts, NextTime, LastStatus
	// and LastError, gives its lease up and logs a, if d is still leased
	// to d.LeaseOwner; false (nothing written) when it is not.
	FinishAttempt(ctx context.Context, d WebhookDelivery, a WebhookAttempt) (bool, error)
	// ListDeliveries lists a subscription's deliveries, newest first.
	ListDeliveries(ctx context.Context, tenant, subscriptionID string, q DeliveryQuery) ([]WebhookDelivery, error)
	// ListAttempts lists a subscription's delivery log, newest first.
	ListAttempts(ctx context.Context, tenant, subscriptionID string, limit int) ([]WebhookAttempt, error)
	// Redeliver makes DEAD deliveries of a subscription PENDING again, due
	// now with a new retry period: the one named, or every one when
	// deliveryID is empty. It returns how many.
	Redeliver(ctx context.Context, tenant, subscriptionID, deliveryID string, now time.Time) (int, error)
	// PruneDeliveries deletes up to limit DELIVERED deliveries created
	// before before, and the delivery log's lines older than it; it
	// returns how many deliveries it deleted. PENDING and DEAD ones stay:
	// a dead letter waits for a person (or its subscription's deletion).
	PruneDeliveries(ctx context.Context, before time.Time, limit int) (int, error)
}
