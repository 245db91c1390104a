package webhook

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/netpolicy"
	"github.com/runsvc/runsvc/internal/store"
)

// Config is how deliveries are made (serve's --webhook-* flags).
type Config struct {
	// RetryPeriod is how long an event is retried before it is
	// dead-lettered. Default 72 hours.
	RetryPeriod time.Duration
	// Timeout bounds one request. Default 15 seconds.
	Timeout time.Duration
	// Backoff is the delay after the first failed attempt; each next one
	// doubles it, up to MaxBackoff, with jitter. Default 5 seconds.
	Backoff time.Duration
	// MaxBackoff bounds one delay. Default 1 hour.
	MaxBackoff time.Duration
	// PerEndpoint bounds the requests in flight to one subscription, so
	// that a slow receiver holds only its own. Default 4.
	PerEndpoint int
	// MaxInFlight bounds this replica's requests in flight. Default 64.
	MaxInFlight int
	// Poll is how often the outbox is looked at. Default 250ms.
	Poll time.Duration
	// Keep is how long a delivered event and the delivery log's lines
	// are kept. Default 7 days. Dead letters stay until redelivered or
	// their subscription is deleted.
	Keep time.Duration
}

func (c Config) withDefaults() Config {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&c.RetryPeriod, 72*time.Hour)
	def(&c.Timeout, 15*time.Second)
	def(&c.Backoff, 5*time.Second)
	def(&c.MaxBackoff, time.Hour)
	def(&c.Poll, 250*time.Millisecond)
	def(&c.Keep, 7*24*time.Hour)
	if c.PerEndpoint <= 0 {
		c.PerEndpoint = 4
	}
	if c.MaxInFlight <= 0 {
		c.MaxInFlight = 64
	}
	return c
}

// Dispatcher delivers the outbox's events: every replica runs one, and
// the store's leases keep two from sending the same attempt.
type Dispatcher struct {
	store  store.Webhooks
	subs   *Subscriptions
	cfg    Config
	clock  clock.Clock
	log    *slog.Logger
	owner  string
	sender *sender

	observer Observer

	mu sync.Mutex
	// queued counts each subscription's claimed deliveries not finished;
	// slots bounds how many of them are sent at once.
	queued map[string]int
	slots  map[string]chan struct{}
	total  int
	wg     sync.WaitGroup
}

// NewDispatcher returns a Dispatcher for owner (this replica) that sends
// through network's checked dialer.
func NewDispatcher(s store.Webhooks, subs *Subscriptions, network *netpolicy.Policy, cfg Config, clk clock.Clock, log *slog.Logger, owner string) *Dispatcher {
	if clk == nil {
		clk = clock.Real{}
	}
	if log == nil {
		log = slog.Default()
	}
	cfg = cfg.withDefaults()
	return &Dispatcher{store: s, subs: subs, cfg: cfg, clock: clk, log: log, owner: owner, sender: newSender(network, cfg.Timeout),
		queued: map[string]int{}, slots: map[string]chan struct{}{}}
}

// Observer counts deliveries: the metrics.
type Observer interface {
	// WebhookAttempt is one attempt's outcome (OutcomeDelivered,
	// OutcomeRetry, OutcomeDead or OutcomeGone) and its request's latency.
	WebhookAttempt(outcome string, latency time.Duration)
	// WebhooksPruned is how many delivered events one prune deleted.
	WebhooksPruned(n int)
}

// An attempt's outcomes, as Observer sees them.
const (
	// OutcomeDelivered: the receiver answered 2xx.
	OutcomeDelivered = "delivered"
	// OutcomeRetry: it failed and will be tried again.
	OutcomeRetry = "retry"
	// OutcomeDead: it failed and its retry period is over.
	OutcomeDead = "dead"
	// OutcomeGone: the receiver answered 410 Gone.
	OutcomeGone = "gone"
)

// SetObserver makes o count this dispatcher's attempts; call it before Run.
func (d *Dispatcher) SetObserver(o Observer) { d.observer = o }

// Run delivers until ctx ends, then waits for the requests in flight.
// It refreshes the subscriptions' copy when the store signals a change
// (any replica's) and every refreshEvery besides.
func (d *Dispatcher) Run(ctx context.Context) {
	defer d.wg.Wait()
	var changed <-chan struct{}
	if n, ok := d.store.(interface{ Notifier() store.Notifier }); ok {
		sub := n.Notifier().Subscribe(store.WebhooksTopic)
		defer sub.Close()
		changed = sub.C()
	}
	var refreshed, pruned time.Time
	for ctx.Err() == nil {
		select {
		case <-changed:
			refreshed = time.Time{}
		default:
		}
		if time.Since(refreshed) >= refreshEvery {
			if err := d.subs.Refresh(ctx); err != nil && ctx.Err() == nil {
				d.log.Warn("reading the webhook subscriptions failed", "err", err)
			}
			refreshed = time.Now()
		}
		if time.Since(pruned) >= pruneEvery {
			d.Prune(ctx)
			pruned = time.Now()
		}
		// With no enabled subscription anywhere the outbox is not read,
		// so a server without webhooks makes no store write for it; what
		// it holds then waits for the next enabled subscription.
		if d.subs.Any() {
			if n, _ := d.Pass(ctx); n > 0 {
				continue
			}
		}
		t := time.NewTimer(d.cfg.Poll)
		select {
		case <-ctx.Done():
		case <-t.C:
		case <-changed:
			refreshed = time.Time{}
		}
		t.Stop()
	}
}

// pruneEvery is how often a replica deletes what Keep no longer keeps;
// pruneBatch bounds one delete, pruneBatches one pass. Every replica
// prunes: the deletes are idempotent. No index serves the delete (it
// scans the outbox, which pruning keeps to Keep's worth of events), so it
// runs rarely.
const (
	pruneEvery   = 10 * time.Minute
	pruneBatch   = 1000
	pruneBatches = 20
)

// Prune deletes the delivered events and delivery log lines older than
// Keep, pruneBatches batches at most; it returns how many deliveries went.
// It also retires the push configs of Runs settled since the last prune,
// so the copy's refresh stops reading them.
func (d *Dispatcher) Prune(ctx context.Context) int {
	if _, err := d.store.RetireSubscriptions(ctx, liveStates); err != nil && ctx.Err() == nil {
		d.log.Warn("retiring the push configs of settled runs failed", "err", err)
	}
	before := d.clock.Now().UTC().Add(-d.cfg.Keep)
	total := 0
	for range pruneBatches {
		n, err := d.store.PruneDeliveries(ctx, before, pruneBatch)
		if err != nil {
			if ctx.Err() == nil {
				d.log.Warn("pruning delivered webhooks failed", "err", err)
			}
			break
		}
		total += n
		if d.observer != nil && n > 0 {
			d.observer.WebhooksPruned(n)
		}
		if n < pruneBatch {
			break
		}
	}
	return total
}

// claimBatch bounds one claim, so that the deliveries a claim leaves
// waiting behind their endpoint's bound are few.
const claimBatch = 16

// leaseTTL is how long a claimed delivery is this replica's: long enough
// for a batch to wait behind its endpoint's bound and be sent. A replica
// that dies holding deliveries delays them by as much.
func (d *Dispatcher) leaseTTL() time.Duration {
	return time.Duration(claimBatch/d.cfg.PerEndpoint+2) * d.cfg.Timeout
}

// Pass claims the due deliveries this replica has room for and starts
// sending them; it returns how many it claimed. Wait waits for them.
func (d *Dispatcher) Pass(ctx context.Context) (int, error) {
	d.mu.Lock()
	room := min(claimBatch, d.cfg.MaxInFlight-d.total)
	var busy []string
	for id, n := range d.queued {
		if n >= d.cfg.PerEndpoint {
			busy = append(busy, id)
		}
	}
	d.mu.Unlock()
	if room <= 0 {
		return 0, nil
	}
	got, err := d.store.ClaimDeliveries(ctx, d.owner, d.clock.Now().UTC(), d.leaseTTL(), room, busy)
	if err != nil {
		if ctx.Err() == nil {
			d.log.Warn("claiming webhook deliveries failed", "err", err)
		}
		return 0, err
	}
	for _, dl := range got {
		d.start(ctx, dl)
	}
	return len(got), nil
}

// Wait waits for every delivery started.
func (d *Dispatcher) Wait() { d.wg.Wait() }

func (d *Dispatcher) start(ctx context.Context, dl store.WebhookDelivery) {
	d.mu.Lock()
	d.queued[dl.SubscriptionID]++
	d.total++
	slot, ok := d.slots[dl.SubscriptionID]
	if !ok {
		slot = make(chan struct{}, d.cfg.PerEndpoint)
		d.slots[dl.SubscriptionID] = slot
	}
	d.mu.Unlock()
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		defer d.done(dl.SubscriptionID)
		select {
		case slot <- struct{}{}:
		case <-ctx.Done():
			return
		}
		defer func() { <-slot }()
		if err := d.attempt(ctx, dl); err != nil && ctx.Err() == nil {
			d.log.Warn("a webhook delivery failed to record", "subscription", dl.SubscriptionID, "webhook_id", dl.ID, "err", err)
		}
	}()
}

func (d *Dispatcher) done(sub string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.total--
	if d.queued[sub]--; d.queued[sub] <= 0 {
		delete(d.queued, sub)
	}
}

// attempt makes one attempt of dl and stores its outcome.
func (d *Dispatcher) attempt(ctx context.Context, dl store.WebhookDelivery) error {
	sub, ok, err := d.store.GetSubscription(ctx, dl.Tenant, dl.SubscriptionID)
	if err != nil {
		return err // the lease expires and another pass tries again
	}
	now := d.clock.Now().UTC()
	if !ok || !sub.Enabled {
		reason := "the subscription was deleted"
		if ok {
			reason = "the subscription is disabled: " + sub.DisabledReason
		}
		dl.State, dl.LastError = store.DeliveryDead, reason
		_, err := d.store.FinishAttempt(ctx, dl, store.WebhookAttempt{Tenant: dl.Tenant, SubscriptionID: dl.SubscriptionID, DeliveryID: dl.ID, Type: dl.Type, Attempt: dl.Attempts, Error: reason, Time: now})
		return err
	}
	secrets, err := decodeSecrets(sub.Secrets)
	if err != nil {
		return err
	}
	res := d.sender.send(ctx, sub.URL, dl, secrets, now)
	return d.finish(ctx, dl, sub, res, now)
}

// finish stores an attempt's outcome: delivered, retried later, or dead
// (the period is over, or the receiver answered 410 Gone, which also
// disables the subscription).
func (d *Dispatcher) finish(ctx context.Context, dl store.WebhookDelivery, sub store.WebhookSubscription, res result, now time.Time) error {
	dl.Attempts++
	dl.LastStatus, dl.LastError = res.status, res.err
	switch {
	case res.status >= 200 && res.status < 300:
		dl.State = store.DeliveryDelivered
	case res.status == 410:
		dl.State = store.DeliveryDead
		if err := d.disable(ctx, sub, now); err != nil {
			return err
		}
	default:
		dl.State, dl.NextTime = store.DeliveryPending, now.Add(d.delay(dl.Attempts, res.retryAfter))
		if dl.NextTime.After(dl.PeriodStart.Add(d.cfg.RetryPeriod)) {
			dl.State = store.DeliveryDead
		}
	}
	a := store.WebhookAttempt{Tenant: dl.Tenant, SubscriptionID: dl.SubscriptionID, DeliveryID: dl.ID, Type: dl.Type, Attempt: dl.Attempts,
		Status: res.status, Latency: res.latency, Error: res.err, Time: now}
	held, err := d.store.FinishAttempt(ctx, dl, a)
	if err == nil && held && d.observer != nil {
		d.observer.WebhookAttempt(outcome(dl.State, res.status), res.latency)
	}
	if err == nil && held && dl.State == store.DeliveryDead {
		d.log.Warn("webhook dead-lettered", "subscription", dl.SubscriptionID, "webhook_id", dl.ID, "type", dl.Type, "attempts", dl.Attempts, "status", res.status, "err", res.err)
	}
	return err
}

// outcome names a finished attempt for the Observer.
func outcome(state string, status int) string {
	switch {
	case state == store.DeliveryDelivered:
		return OutcomeDelivered
	case status == 410:
		return OutcomeGone
	case state == store.DeliveryDead:
		return OutcomeDead
	default:
		return OutcomeRetry
	}
}

// disable turns a subscription off after its receiver answered 410 Gone.
func (d *Dispatcher) disable(ctx context.Context, sub store.WebhookSubscription, now time.Time) error {
	sub.Enabled, sub.UpdateTime = false, now
	sub.DisabledReason = "the receiver answered 410 Gone at " + now.Format(time.RFC3339)
	if err := d.store.PutSubscription(ctx, sub); err != nil {
		return err
	}
	d.log.Warn("webhook subscription disabled: its receiver answered 410 Gone", "subscription", sub.ID)
	return d.subs.Refresh(ctx)
}

// delay is how long to wait after the attempts-th failed attempt: the
// receiver's Retry-After when it gave one (429, 503), otherwise Backoff
// doubled per attempt up to MaxBackoff, less up to half at random (jitter).
func (d *Dispatcher) delay(attempts int, retryAfter time.Duration) time.Duration {
	if retryAfter > 0 {
		return retryAfter
	}
	b := d.cfg.Backoff
	for i := 1; i < attempts && b < d.cfg.MaxBackoff; i++ {
		b *= 2
	}
	b = min(b, d.cfg.MaxBackoff)
	return b - time.Duration(rand.Int64N(int64(b/2)+1))
}
