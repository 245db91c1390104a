package server

import (
	"context"
	"net/http"
	"time"

	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"

	"github.com/runsvc/runsvc/internal/a2a"
	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/logwriter"
	"github.com/runsvc/runsvc/internal/netpolicy"
	"github.com/runsvc/runsvc/internal/schedule"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/webhook"
)

// webhooks are the subscriptions' copy, their management and the
// dispatcher of this replica.
type webhooks struct {
	subs       *webhook.Subscriptions
	builder    *webhook.Events
	mgr        *webhook.Manager
	dispatcher *webhook.Dispatcher
}

// startupRead bounds reading the subscriptions when the server starts.
const startupRead = 30 * time.Second

// assembleWebhooks sets webhooks up when the store keeps them (a store a
// test wrapped may not): the subscriptions are read before any Run is
// written, so no event of a subscription existing at start is missed.
func (s *Server) assembleWebhooks(mapper *errdetails.Mapper, network *netpolicy.Policy) error {
	ws, ok := s.store.(store.Webhooks)
	if !ok {
		return nil
	}
	subs := webhook.NewSubscriptions(ws)
	ctx, cancel := context.WithTimeout(context.Background(), startupRead)
	defer cancel()
	if err := subs.Refresh(ctx); err != nil {
		return err
	}
	s.webhooks = &webhooks{
		subs:       subs,
		builder:    webhook.NewEvents(subs, mapper),
		mgr:        webhook.NewManager(ws, subs, network, s.cfg.Clock),
		dispatcher: webhook.NewDispatcher(ws, subs, network, s.cfg.Webhooks, s.cfg.Clock, s.log, s.cfg.WorkerID),
	}
	s.webhooks.dispatcher.SetObserver(s.metrics)
	s.webhooks.builder.SetPushBody(a2a.PushBody)
	return nil
}

// events is the log writer's hook, nil without webhooks.
func (w *webhooks) events() logwriter.Events {
	if w == nil {
		return nil
	}
	return w.builder.ForRun
}

// tickEvents is the scheduler's hook for schedule.tick_skipped, nil
// without webhooks.
func (w *webhooks) tickEvents() schedule.TickEvents {
	if w == nil {
		return nil
	}
	return w.builder.ForSkippedTick
}

// manager is the service's, nil without webhooks.
func (w *webhooks) manager() *webhook.Manager {
	if w == nil {
		return nil
	}
	return w.mgr
}

// run starts the dispatcher; the function it returns stops it and waits
// for the requests in flight.
func (w *webhooks) run(ctx context.Context) func() {
	if w == nil {
		return func() {}
	}
	return background(ctx, w.dispatcher.Run)
}

// a2aTenant is the tenant of an A2A request's caller, authenticated as
// the API authenticates a call (its bearer key, else its client
// certificate), for the push-notification configs it stores.
func (s *Server) a2aTenant(r *http.Request) (string, error) {
	if s.auth == nil {
		return store.DefaultTenant, nil
	}
	md := metadata.MD{}
	if a := r.Header.Get("Authorization"); a != "" {
		md.Set("authorization", a)
	}
	ctx := metadata.NewIncomingContext(r.Context(), md)
	if r.TLS != nil {
		ctx = peer.NewContext(ctx, &peer.Peer{AuthInfo: credentials.TLSInfo{State: *r.TLS}})
	}
	id, err := s.auth.identify(ctx)
	if err != nil {
		return "", err
	}
	return auth.Tenant(auth.WithIdentity(ctx, id)), nil
}
