package webhook

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/netpolicy"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/sqlite/sqlitetest"
)

// fixture is a dispatcher on SQLite and a fake clock, with one
// subscription to a receiver that answers what reply says.
type fixture struct {
	t     *testing.T
	clock *clock.Fake
	store store.Webhooks
	mgr   *Manager
	d     *Dispatcher
	sub   Subscription
	mu    sync.Mutex
	reply func(w http.ResponseWriter)
	hits  []*http.Request
}

var t0 = time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)

func newFixture(t *testing.T, cfg Config, reply func(w http.ResponseWriter)) *fixture {
	f := &fixture{t: t, clock: clock.NewFake(t0), reply: reply}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.hits = append(f.hits, r)
		reply := f.reply
		f.mu.Unlock()
		reply(w)
	}))
	t.Cleanup(srv.Close)
	f.store = sqlitetest.Open(t)
	network, err := netpolicy.Parse([]string{"127.0.0.0/8"})
	if err != nil {
		t.Fatal(err)
	}
	subs := NewSubscriptions(f.store)
	f.mgr = NewManager(f.store, subs, network, f.clock)
	f.d = NewDispatcher(f.store, subs, network, cfg, f.clock, nil, "replica-1")
	f.sub, _, err = f.mgr.Create(context.Background(), "default", Settings{URL: srv.URL + "/hook", EventTypes: []string{RunSettled}, Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	ev := Event("default", f.sub.ID, RunSettled, "run_1", Body(RunSettled, t0, map[string]string{"run_id": "run_1"}), t0)
	if err := f.store.EnqueueWebhooks(context.Background(), []store.WebhookEvent{ev}); err != nil {
		t.Fatal(err)
	}
	return f
}

// pass runs one dispatcher pass to its end and returns the delivery.
func (f *fixture) pass() store.WebhookDelivery {
	f.t.Helper()
	if _, err := f.d.Pass(context.Background()); err != nil {
		f.t.Fatal(err)
	}
	f.d.Wait()
	ds, err := f.store.ListDeliveries(context.Background(), "default", f.sub.ID, store.DeliveryQuery{})
	if err != nil || len(ds) != 1 {
		f.t.Fatalf("ListDeliveries = %v, %v", ds, err)
	}
	return ds[0]
}

func (f *fixture) attempts() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.hits)
}

func status(code int, header ...string) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.WriteHeader(code)
	}
}

// TestBackoffAndRetryAfter: a 500 is retried after the backoff, less up to
// half of it; a 503 or 429 with Retry-After after exactly what it asks.
func TestBackoffAndRetryAfter(t *testing.T) {
	for _, tc := range []struct {
		name     string
		reply    func(w http.ResponseWriter)
		min, max time.Duration
	}{
		{"500, first backoff", status(500), 5 * time.Second, 10 * time.Second},
		{"503 Retry-After 7", status(503, "Retry-After", "7"), 7 * time.Second, 7 * time.Second},
		{"429 Retry-After 90", status(429, "Retry-After", "90"), 90 * time.Second, 90 * time.Second},
		{"503 without Retry-After", status(503), 5 * time.Second, 10 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, Config{Backoff: 10 * time.Second}, tc.reply)
			d := f.pass()
			wait := d.NextTime.Sub(t0)
			if d.State != store.DeliveryPending || d.Attempts != 1 || wait < tc.min || wait > tc.max {
				t.Fatalf("after one attempt: %s, %d attempts, next in %v; want PENDING, 1, in [%v, %v]", d.State, d.Attempts, wait, tc.min, tc.max)
			}
			// Not due yet: nothing is sent.
			if f.pass(); f.attempts() != 1 {
				t.Fatalf("a delivery not due was sent")
			}
		})
	}
}

// TestBackoffDoublesUpToTheMaximum: each failed attempt doubles the delay,
// up to MaxBackoff, with at most half taken off by jitter.
func TestBackoffDoublesUpToTheMaximum(t *testing.T) {
	d := NewDispatcher(nil, nil, nil, Config{Backoff: time.Second, MaxBackoff: 10 * time.Second}, nil, nil, "r")
	for attempts, full := range map[int]time.Duration{1: time.Second, 2: 2 * time.Second, 3: 4 * time.Second, 4: 8 * time.Second, 5: 10 * time.Second, 30: 10 * time.Second} {
		for range 20 {
			if got := d.delay(attempts, 0); got < full/2 || got > full {
				t.Fatalf("delay after %d attempts = %v, want in [%v, %v]", attempts, got, full/2, full)
			}
		}
	}
}

// Test410DisablesTheSubscription: a 410 dead-letters the delivery and
// disables the subscription, saying why.
func Test410DisablesTheSubscription(t *testing.T) {
	f := newFixture(t, Config{}, status(http.StatusGone))
	if d := f.pass(); d.State != store.DeliveryDead || d.LastStatus != 410 {
		t.Fatalf("after a 410: %+v", d)
	}
	sub, err := f.mgr.Get(context.Background(), "default", f.sub.ID)
	if err != nil || sub.Enabled || !strings.Contains(sub.DisabledReason, "410") {
		t.Fatalf("subscription after a 410: %+v, %v", sub, err)
	}
	if got := f.d.subs.Matching("default", RunSettled, ""); len(got) != 0 {
		t.Errorf("a disabled subscription still matches events: %v", got)
	}
}

// TestDeadLetterAfterThePeriodThenRedeliver: on a fake clock, a receiver
// failing for the whole retry period dead-letters the event; a redelivery
// by hand sends it again under the same webhook-id, and it is delivered.
func TestDeadLetterAfterThePeriodThenRedeliver(t *testing.T) {
	f := newFixture(t, Config{RetryPeriod: time.Hour, Backoff: time.Minute, MaxBackoff: 10 * time.Minute}, status(503))
	var d store.WebhookDelivery
	for d = f.pass(); d.State == store.DeliveryPending; d = f.pass() {
		f.clock.Advance(d.NextTime.Sub(f.clock.Now()))
		if f.clock.Now().Sub(t0) > 2*time.Hour {
			t.Fatalf("still pending at %v", f.clock.Now())
		}
	}
	if d.State != store.DeliveryDead || f.clock.Now().Sub(t0) > time.Hour || d.Attempts < 5 {
		t.Fatalf("after the period: %+v at %v", d, f.clock.Now().Sub(t0))
	}
	log, err := f.mgr.Attempts(context.Background(), "default", f.sub.ID, 0)
	if err != nil || len(log) != d.Attempts || log[0].Status != 503 {
		t.Fatalf("delivery log = %+v, %v", log, err)
	}
	f.mu.Lock()
	f.reply = status(http.StatusNoContent)
	f.mu.Unlock()
	if n, err := f.mgr.Redeliver(context.Background(), "default", f.sub.ID, ""); n != 1 || err != nil {
		t.Fatalf("Redeliver = %d, %v", n, err)
	}
	if d = f.pass(); d.State != store.DeliveryDelivered {
		t.Fatalf("after the redelivery: %+v", d)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.hits {
		if r.Header.Get("webhook-id") != d.ID {
			t.Errorf("an attempt had webhook-id %q, want %q", r.Header.Get("webhook-id"), d.ID)
		}
	}
}

// TestDeliveryDialIsChecked: the network policy is applied when a delivery
// dials, whatever the URL was when the subscription was made.
func TestDeliveryDialIsChecked(t *testing.T) {
	f := newFixture(t, Config{}, status(http.StatusNoContent))
	closed, err := netpolicy.Parse([]string{"10.0.0.0/8"})
	if err != nil {
		t.Fatal(err)
	}
	f.d.sender = newSender(closed, time.Second)
	d := f.pass()
	if d.State != store.DeliveryPending || !strings.Contains(d.LastError, "does not allow connecting to 127.0.0.1") || f.attempts() != 0 {
		t.Fatalf("delivery to a refused address: %+v, %d requests", d, f.attempts())
	}
}

// TestRedirectsAreNotFollowed: a 3xx is a failed attempt.
func TestRedirectsAreNotFollowed(t *testing.T) {
	f := newFixture(t, Config{}, status(http.StatusFound, "Location", "http://169.254.169.254/"))
	if d := f.pass(); d.State != store.DeliveryPending || d.LastStatus != http.StatusFound || f.attempts() != 1 {
		t.Fatalf("after a redirect: %+v, %d requests", d, f.attempts())
	}
}

// TestPruneKeepsWhatIsYoung: a delivered event and its log lines are
// deleted once older than Keep, not before; a dead letter stays.
func TestPruneKeepsWhatIsYoung(t *testing.T) {
	tests := []struct {
		name      string
		reply     func(w http.ResponseWriter)
		cfg       Config
		age       time.Duration
		wantGone  bool
		wantState string
	}{
		{"delivered, younger than Keep", status(http.StatusNoContent), Config{Keep: 24 * time.Hour}, 23 * time.Hour, false, store.DeliveryDelivered},
		{"delivered, older than Keep", status(http.StatusNoContent), Config{Keep: 24 * time.Hour}, 25 * time.Hour, true, ""},
		{"default Keep is a week", status(http.StatusNoContent), Config{}, 6 * 24 * time.Hour, false, store.DeliveryDelivered},
		{"dead, older than Keep", status(http.StatusBadRequest), Config{Keep: time.Hour, RetryPeriod: time.Nanosecond}, 2 * time.Hour, false, store.DeliveryDead},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, tt.cfg, tt.reply)
			if d := f.pass(); d.State != tt.wantState && tt.wantState != "" {
				t.Fatalf("delivery %+v, want %s", d, tt.wantState)
			}
			f.clock.Advance(tt.age)
			n := f.d.Prune(context.Background())
			ds, err := f.store.ListDeliveries(context.Background(), "default", f.sub.ID, store.DeliveryQuery{})
			if err != nil {
				t.Fatal(err)
			}
			log, err := f.mgr.Attempts(context.Background(), "default", f.sub.ID, 0)
			if err != nil {
				t.Fatal(err)
			}
			if tt.wantGone {
				if n != 1 || len(ds) != 0 || len(log) != 0 {
					t.Fatalf("Prune = %d; left %d deliveries and %d log lines, want none", n, len(ds), len(log))
				}
				return
			}
			if n != 0 || len(ds) != 1 || ds[0].State != tt.wantState {
				t.Fatalf("Prune = %d; left %+v, want the %s delivery", n, ds, tt.wantState)
			}
		})
	}
}

// TestCopiesFollowTheStoresSignal: a subscription made through one
// replica's manager reaches another replica's copy on the store's signal,
// long before the 30 s refresh that would otherwise find it.
func TestCopiesFollowTheStoresSignal(t *testing.T) {
	f := newFixture(t, Config{}, status(http.StatusNoContent))
	other := NewSubscriptions(f.store)
	network, err := netpolicy.Parse([]string{"127.0.0.0/8"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		NewDispatcher(f.store, other, network, Config{}, f.clock, nil, "replica-2").Run(ctx)
		close(done)
	}()
	t.Cleanup(func() { cancel(); <-done })
	sees := func(id string) bool { return slices.Contains(other.Matching("default", RunSettled, ""), id) }
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !ok(); time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("replica-2's copy never %s (refreshEvery is %s)", what, refreshEvery)
			}
		}
	}
	waitFor("read the first subscription", func() bool { return sees(f.sub.ID) })
	second, _, err := f.mgr.Create(context.Background(), "default", Settings{URL: "http://127.0.0.1:9/other", EventTypes: []string{RunSettled}, Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	waitFor("saw the second subscription", func() bool { return sees(second.ID) })
	if err := f.mgr.Delete(context.Background(), "default", second.ID); err != nil {
		t.Fatal(err)
	}
	waitFor("saw the deletion", func() bool { return !sees(second.ID) })
}
