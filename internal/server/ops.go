package server

import (
	"context"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/keepalive"

	"github.com/runsvc/runsvc/internal/engine"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/metrics"
	"github.com/runsvc/runsvc/internal/service"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/tracing"
)

// observability builds the metrics, tracing and drain machinery the
// interceptors and the engine use.
func (s *Server) observability(mapper *errdetails.Mapper) error {
	s.drainer = newDrainer()
	s.metrics = metrics.New(func(err error) string { return mapper.Describe(err).Reason })
	// Unsettled Runs by state and suspension, counted in the store on scrape.
	s.metrics.CountRuns(s.store, s.cfg.Clock, 0)
	t, err := tracing.New(context.Background(), s.cfg.Ops.OTLPEndpoint)
	if err != nil {
		return err
	}
	s.tracing = t
	return nil
}

// observeStore records one store operation's latency (the adapter's
// Options.Observe): every operation, whoever calls it, once the metrics
// exist. They are made before anything but New calls the store.
func (s *Server) observeStore(op string, d time.Duration, err error) {
	if s.metrics != nil {
		s.metrics.ObserveStore(op, d, err)
	}
}

// observer is what watches the engine: metrics, and traces when on.
func (s *Server) observer() engine.Observer {
	if s.tracing.On() {
		return engine.Observers{s.metrics, s.tracing}
	}
	return s.metrics
}

// interceptors is the chain, outermost first, each one concern: report
// (logs and metrics), map errors through the table, count open streams,
// answer requests the codec could not decode, end streams on drain,
// send heartbeats on idle streams,
// recover panics.
// Admission comes after these.
func (s *Server) interceptors(mapper *errdetails.Mapper, codec *service.Codec) ([]grpc.UnaryServerInterceptor, []grpc.StreamServerInterceptor) {
	logs := mapper.LogReporter()
	logs.Tenant = s.callerTenant
	_, observeS := errdetails.Observe(logs, s.metrics)
	recoverU, recoverS := errdetails.Recover()
	unary := []grpc.UnaryServerInterceptor{mapper.ObservedUnaryServerInterceptor(logs, s.metrics), codec.UnaryServerInterceptor(), recoverU}
	stream := []grpc.StreamServerInterceptor{observeS, mapper.StreamServerInterceptor(), codec.StreamServerInterceptor(), s.metrics.StreamServerInterceptor(), s.drainer.StreamServerInterceptor(),
		heartbeats{every: s.cfg.Ops.HeartbeatInterval}.StreamServerInterceptor(), recoverS}
	return unary, stream
}

// callerTenant is the tenant a call is logged under: with a keys file the
// caller's identity's, identified again here because the log interceptor
// runs outside the one that puts the identity on the context ("" for a
// caller with none); without one, the default tenant every caller has.
func (s *Server) callerTenant(ctx context.Context) string {
	if s.auth == nil {
		return store.DefaultTenant
	}
	id, err := s.auth.identify(ctx)
	if err != nil {
		return ""
	}
	return id.Tenant
}

// keepaliveParams are the server's pings and connection ages.
func keepaliveParams(o Ops) keepalive.ServerParameters {
	p := keepalive.ServerParameters{Time: o.KeepaliveTime, Timeout: o.KeepaliveTimeout, MaxConnectionAge: o.MaxConnectionAge, MaxConnectionAgeGrace: o.MaxConnectionAgeGrace}
	if p.Time == 0 {
		p.Time = 30 * time.Second
	}
	if p.Timeout == 0 {
		p.Timeout = 10 * time.Second
	}
	return p
}

// serviceNames are the services registered on srv, health included.
func serviceNames(srv *grpc.Server) []string {
	var names []string
	for name := range srv.GetServiceInfo() {
		names = append(names, name)
	}
	return names
}

// methodNames are the full names of every registered method.
func methodNames(srv *grpc.Server) []string {
	var names []string
	for svc, info := range srv.GetServiceInfo() {
		for _, m := range info.Methods {
			names = append(names, "/"+svc+"/"+m.Name)
		}
	}
	return names
}

// serveMetrics serves /metrics until ctx ends, when configured.
func (s *Server) serveMetrics(ctx context.Context) {
	if s.metricsLis == nil {
		return
	}
	go func() {
		if err := s.metrics.Serve(ctx, s.metricsLis); err != nil {
			s.log.Error("serving metrics failed", "err", err)
		}
	}()
}

// MetricsAddr is where /metrics is served, "" when it is not.
func (s *Server) MetricsAddr() string {
	if s.metricsLis == nil {
		return ""
	}
	return s.metricsLis.Addr().String()
}

// Metrics returns the server's collectors, for tests.
func (s *Server) Metrics() *metrics.Metrics { return s.metrics }
