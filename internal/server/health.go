package server

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"time"

	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// healthProbe is how often the health of the store is probed, and how long
// one probe may take: a store outage shows as NOT_SERVING within their sum.
const (
	healthProbe        = 500 * time.Millisecond
	healthProbeTimeout = time.Second
)

// healthReporter keeps grpc.health.v1 up to date for "" and every service
// the server registered by name: SERVING while the store answers and the
// server is not draining, NOT_SERVING otherwise.
type healthReporter struct {
	srv      *health.Server
	store    pinger
	log      *slog.Logger
	services []string

	mu       sync.Mutex
	serving  bool
	checked  bool // a probe has set the status once
	draining bool
}

// pinger is what the health probe asks: whether the store answers.
type pinger interface {
	// Ping is store.Store's.
	Ping(ctx context.Context) error
}

func newHealthReporter(srv *health.Server, st pinger, log *slog.Logger, services []string) *healthReporter {
	names := append([]string{""}, services...)
	slices.Sort(names)
	h := &healthReporter{srv: srv, store: st, log: log, services: slices.Compact(names)}
	h.set(healthpb.HealthCheckResponse_NOT_SERVING)
	return h
}

// set gives every name the status.
func (h *healthReporter) set(st healthpb.HealthCheckResponse_ServingStatus) {
	for _, name := range h.services {
		h.srv.SetServingStatus(name, st)
	}
}

// run probes the store until ctx ends.
func (h *healthReporter) run(ctx context.Context) {
	t := time.NewTicker(healthProbe)
	defer t.Stop()
	for {
		h.probe(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// probe pings the store, a question whose cost does not grow with what
// the store holds, and updates the status.
func (h *healthReporter) probe(ctx context.Context) {
	pctx, cancel := context.WithTimeout(ctx, healthProbeTimeout)
	err := h.store.Ping(pctx)
	cancel()
	ok := err == nil
	h.mu.Lock()
	defer h.mu.Unlock()
	if ctx.Err() != nil || h.draining || (h.checked && h.serving == ok) {
		return
	}
	first := !h.checked
	h.serving, h.checked = ok, true
	if ok {
		h.set(healthpb.HealthCheckResponse_SERVING)
		if !first {
			h.log.Info("the store answers again; health SERVING")
		}
	} else {
		h.set(healthpb.HealthCheckResponse_NOT_SERVING)
		h.log.Warn("the store does not answer; health NOT_SERVING", "err", err)
	}
}

// drain answers NOT_SERVING from now on.
func (h *healthReporter) drain() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.draining = true
	h.set(healthpb.HealthCheckResponse_NOT_SERVING)
}
