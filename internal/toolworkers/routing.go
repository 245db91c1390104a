package toolworkers

import (
	"context"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/store"
)

// Default timings of a routed Hub.
const (
	DefaultAdvertiseEvery = 5 * time.Second
	DefaultAdvertTTL      = 15 * time.Second
	DefaultClaimTTL       = 15 * time.Second
	DefaultWaitPoll       = time.Second
	DefaultRelayPoll      = 5 * time.Second
	DefaultPruneEvery     = time.Minute
	DefaultKeepResults    = 10 * time.Minute
)

// storeTimeout bounds the store writes a Hub makes on its own behalf:
// adverts, and the results and releases of relayed calls once their
// context ended.
const storeTimeout = 10 * time.Second

// relayBatch bounds how many calls one claim takes.
const relayBatch = 32

// Store is what a routed Hub keeps in the store its replicas share.
type Store interface {
	store.ToolCalls
	// Notifier signals new calls and results, in every replica.
	Notifier() store.Notifier
}

// Routing is what a Hub needs to reach the workers of other replicas
// through a shared store, and to serve theirs.
type Routing struct {
	// Store keeps the adverts and the calls.
	Store Store
	// Replica names this process among the replicas (the server's worker
	// id); it must be unique among the live ones.
	Replica string
	// Clock gives the times written to the store; the wall clock when nil.
	Clock clock.Clock
	// Log receives the relay's troubles; slog.Default() when nil.
	Log *slog.Logger
	// AdvertiseEvery is how often the Hub advertises its workers' tools
	// while it has workers, and AdvertTTL how long an advert lives
	// unless renewed. Defaults: DefaultAdvertiseEvery, DefaultAdvertTTL.
	AdvertiseEvery time.Duration
	AdvertTTL      time.Duration
	// ClaimTTL is how long a claim on another replica's call lives unless
	// renewed (every third of it) while the call runs; a call claimed by a
	// replica that died is claimable again once it passed.
	// Default DefaultClaimTTL.
	ClaimTTL time.Duration
	// WaitPoll is how often a caller waiting for another replica's result
	// reads it without a signal, and RelayPoll how often the relay looks
	// for calls to claim without one. Defaults: DefaultWaitPoll,
	// DefaultRelayPoll.
	WaitPoll  time.Duration
	RelayPoll time.Duration
	// PruneEvery is how often the Hub deletes the calls done more than
	// KeepResults ago, and the expired adverts. Defaults:
	// DefaultPruneEvery, DefaultKeepResults.
	PruneEvery  time.Duration
	KeepResults time.Duration
}

func (r Routing) withDefaults() Routing {
	if r.Clock == nil {
		r.Clock = clock.Real{}
	}
	if r.Log == nil {
		r.Log = slog.Default()
	}
	for _, d := range []struct {
		v   *time.Duration
		def time.Duration
	}{
		{&r.AdvertiseEvery, DefaultAdvertiseEvery}, {&r.AdvertTTL, DefaultAdvertTTL}, {&r.ClaimTTL, DefaultClaimTTL},
		{&r.WaitPoll, DefaultWaitPoll}, {&r.RelayPoll, DefaultRelayPoll},
		{&r.PruneEvery, DefaultPruneEvery}, {&r.KeepResults, DefaultKeepResults},
	} {
		if *d.v <= 0 {
			*d.v = d.def
		}
	}
	return r
}

// NewRouted returns an empty Hub that also calls the workers of other
// replicas through r.Store and serves their calls with its own workers,
// once Run runs.
func NewRouted(r Routing) *Hub {
	h := New()
	r = r.withDefaults()
	h.routing = &r
	return h
}

// Run advertises this Hub's tools while it has workers, relays the calls
// other replicas enqueue for them, and prunes old calls, until ctx ends.
// Then it gives back the claims of the calls it was relaying, withdraws
// its adverts and returns. For a Hub made with New it returns at once.
func (h *Hub) Run(ctx context.Context) {
	if h.routing == nil {
		return
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		h.relay(ctx)
	}()
	go func() {
		defer wg.Done()
		h.advertise(ctx)
	}()
	wg.Wait()
}

// advertise keeps this replica's adverts up to date: at once when the
// workers change, and every AdvertiseEvery while it has workers. It
// prunes now and then too, and withdraws the adverts when ctx ends.
func (h *Hub) advertise(ctx context.Context) {
	r := h.routing
	heartbeat := time.NewTicker(r.AdvertiseEvery)
	defer heartbeat.Stop()
	prune := time.NewTicker(r.PruneEvery)
	defer prune.Stop()
	advertised := false
	for {
		if adverts := h.adverts(); len(adverts) > 0 || advertised {
			err := r.Store.AdvertiseTools(ctx, r.Replica, adverts, r.Clock.Now().Add(r.AdvertTTL))
			switch {
			case err == nil:
				advertised = len(adverts) > 0
			case ctx.Err() == nil:
				r.Log.Warn("advertising worker tools failed", "err", err)
			}
		}
		select {
		case <-heartbeat.C:
		case <-h.changed:
		case <-prune.C:
			if _, err := r.Store.PruneToolCalls(ctx, r.Clock.Now(), r.KeepResults); err != nil && ctx.Err() == nil {
				r.Log.Warn("pruning tool calls failed", "err", err)
			}
		case <-ctx.Done():
			if advertised {
				wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
				if err := r.Store.AdvertiseTools(wctx, r.Replica, nil, r.Clock.Now()); err != nil {
					r.Log.Warn("withdrawing worker tools failed; they expire", "err", err)
				}
				cancel()
			}
			return
		}
	}
}

// adverts returns what this Hub's workers serve, per tenant and tool; a
// tool's definition is the one of its first worker by id.
func (h *Hub) adverts() []store.ToolAdvert {
	h.mu.Lock()
	defer h.mu.Unlock()
	byTenant := map[string][]*Worker{}
	for _, w := range h.workers {
		byTenant[w.Tenant] = append(byTenant[w.Tenant], w)
	}
	var adverts []store.ToolAdvert
	for _, tenant := range slices.Sorted(maps.Keys(byTenant)) {
		for _, t := range served(byTenant[tenant]) {
			adverts = append(adverts, store.ToolAdvert{Tenant: tenant, Tool: t.Name, Description: t.Description, Parameters: t.Parameters, Workers: t.Workers})
		}
	}
	return adverts
}

// untilDeadline returns a context that also ends at a call's deadline, on
// the Hub's clock; a zero deadline adds none.
func (h *Hub) untilDeadline(ctx context.Context, deadline time.Time) (context.Context, context.CancelFunc) {
	if deadline.IsZero() {
		return context.WithCancel(ctx)
	}
	return clock.WithDeadline(ctx, h.routing.Clock, deadline)
}
