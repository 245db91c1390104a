package webhook

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/netpolicy"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/sqlite/sqlitetest"
)

// TestASlowReceiverHoldsOnlyItsOwn: a receiver that does not answer gets
// at most PerEndpoint requests at once, and another subscription's event
// is delivered meanwhile.
func TestASlowReceiverHoldsOnlyItsOwn(t *testing.T) {
	release := make(chan struct{})
	var inSlow, maxSlow atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/slow") {
			n := inSlow.Add(1)
			for m := maxSlow.Load(); n > m && !maxSlow.CompareAndSwap(m, n); m = maxSlow.Load() {
			}
			<-release
			inSlow.Add(-1)
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(srv.Close)
	st := sqlitetest.Open(t)
	network, _ := netpolicy.Parse([]string{"127.0.0.0/8"})
	subs := NewSubscriptions(st)
	clk := clock.NewFake(t0)
	mgr := NewManager(st, subs, network, clk)
	d := NewDispatcher(st, subs, network, Config{PerEndpoint: 2, Timeout: time.Minute}, clk, nil, "r1")
	t.Cleanup(func() {
		close(release)
		d.Wait()
	})
	ctx := context.Background()
	slow, _, err := mgr.Create(ctx, "default", Settings{URL: srv.URL + "/slow", EventTypes: []string{RunSettled}, Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	fast, _, err := mgr.Create(ctx, "default", Settings{URL: srv.URL + "/fast", EventTypes: []string{RunSettled}, Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	var events []store.WebhookEvent
	for range 10 {
		events = append(events, Event("default", slow.ID, RunSettled, "run_s", []byte(`{}`), t0))
	}
	events = append(events, Event("default", fast.ID, RunSettled, "run_f", []byte(`{}`), t0.Add(time.Second)))
	if err := st.EnqueueWebhooks(ctx, events); err != nil {
		t.Fatal(err)
	}
	clk.Advance(2 * time.Second)
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := d.Pass(ctx); err != nil {
			t.Fatal(err)
		}
		ds, err := st.ListDeliveries(ctx, "default", fast.ID, store.DeliveryQuery{})
		if err == nil && len(ds) == 1 && ds[0].State == store.DeliveryDelivered {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the fast subscription's event was not delivered behind the slow one: %+v, %v", ds, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n := maxSlow.Load(); n > 2 {
		t.Errorf("%d requests at once to the slow receiver, want at most 2", n)
	}
}
