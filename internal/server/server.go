// Package server assembles runsvc: the store, the domain services, the
// engine's workers and the gRPC server with health and reflection, and
// drains them in order on shutdown.
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"os"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/reflection"

	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/bus"
	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/engine"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/memory"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/model/openai"
	"github.com/runsvc/runsvc/internal/model/scripted"
	"github.com/runsvc/runsvc/internal/policy"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/secret"
	"github.com/runsvc/runsvc/internal/server/admission"
	"github.com/runsvc/runsvc/internal/service"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/spec/versions"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/sqlite"
	"github.com/runsvc/runsvc/internal/tool"
	"github.com/runsvc/runsvc/internal/tool/httptool"
	"github.com/runsvc/runsvc/internal/tool/mcptool"
	"github.com/runsvc/runsvc/internal/toolworkers"
)

// Config is everything `runsvc serve` takes.
type Config struct {
	// Listen is the gRPC address.
	Listen string
	// Data is the directory of the embedded SQLite store.
	Data string
	// Store, when set, is a postgres:// URL used instead of SQLite.
	Store string
	// PoolSize bounds the PostgreSQL connection pool.
	PoolSize int
	// ErrorDomain is the ErrorInfo domain.
	ErrorDomain string
	// DebugErrors adds causes to INTERNAL errors. Never in production.
	DebugErrors bool
	// SecretsFile is an optional JSON file of credentials.
	SecretsFile string
	// PolicyFile is an optional JSON file of policy rules.
	PolicyFile string
	// WorkerID names this process's worker; default host and pid.
	WorkerID string
	// Engine tunes the worker.
	Engine engine.Config
	// DrainTimeout bounds a graceful shutdown.
	DrainTimeout time.Duration
	// MaxUnaryCalls and MaxStreams bound the calls in flight; beyond them
	// calls fail OVERLOADED. Zero means 4096 and 16384.
	MaxUnaryCalls int
	MaxStreams    int
	// Clock is the time source; the wall clock when nil.
	Clock clock.Clock
	// Models adds model providers, or replaces the built-in ones (scripted,
	// openai) of the same name.
	Models model.Providers

	// Security (issue 12); see security.go.
	Security Security
}

// Server is a running runsvc.
type Server struct {
	cfg    Config
	log    *slog.Logger
	store  store.Store
	grpc   *grpc.Server
	health *health.Server
	engine *engine.Engine
	hub    *toolworkers.Hub
	mcp    *mcptool.Executor
	lis    net.Listener
	keys   *auth.Keys
}

// New builds a Server; Serve starts it.
func New(ctx context.Context, cfg Config, log *slog.Logger) (*Server, error) {
	if cfg.Clock == nil {
		cfg.Clock = clock.Real{}
	}
	if cfg.DrainTimeout == 0 {
		cfg.DrainTimeout = 20 * time.Second
	}
	if cfg.WorkerID == "" {
		host, _ := os.Hostname()
		cfg.WorkerID = fmt.Sprintf("%s-%d", host, os.Getpid())
	}
	cfg.Engine.WorkerID = cfg.WorkerID
	if err := cfg.Security.check(cfg.Listen, cfg.SecretsFile); err != nil {
		return nil, err
	}
	st, err := openStore(ctx, cfg)
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, log: log, store: st}
	if err := s.assemble(); err != nil {
		_ = st.Close()
		return nil, err
	}
	lis, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		_ = st.Close()
		return nil, fmt.Errorf("listening on %s: %w", cfg.Listen, err)
	}
	s.lis = lis
	return s, nil
}

func openStore(ctx context.Context, cfg Config) (store.Store, error) {
	if cfg.Store != "" && !strings.HasPrefix(cfg.Store, "sqlite:") {
		return openShared(ctx, cfg)
	}
	dir := cfg.Data
	if strings.HasPrefix(cfg.Store, "sqlite:") {
		dir = strings.TrimPrefix(cfg.Store, "sqlite:")
	}
	st, err := sqlite.Open(dir, sqlite.Options{})
	if err != nil {
		return nil, err
	}
	if err := ownerOnly(dir); err != nil {
		_ = st.Close()
		return nil, err
	}
	return st, nil
}

func (s *Server) assemble() error {
	cfg := s.cfg
	mapper := errdetails.New(errdetails.Options{Domain: cfg.ErrorDomain, Debug: cfg.DebugErrors, Logger: s.log})
	var secrets secret.Resolver = secret.Env{}
	if cfg.SecretsFile != "" {
		f, err := secret.LoadFile(cfg.SecretsFile)
		if err != nil {
			return err
		}
		secrets = secret.Chain{f, secret.Env{}}
	}
	var pol policy.Policy = policy.AllowAll{}
	if cfg.PolicyFile != "" {
		rules, err := policy.LoadRules(cfg.PolicyFile)
		if err != nil {
			return err
		}
		pol = rules
	}
	reg := versions.New(s.store, cfg.Clock)
	manager := runs.New(s.store, reg, pol, cfg.Clock, s.log)
	mem := memory.New(s.store, cfg.Clock)
	messages := bus.New(s.store, reg, cfg.Clock)
	// Workers may connect to any replica: the hub routes calls to the
	// workers of the others through the store, and serves theirs.
	hub := toolworkers.NewRouted(toolworkers.Routing{Store: s.store, Replica: cfg.WorkerID, Clock: cfg.Clock, Log: s.log})
	s.hub = hub
	s.mcp = mcptool.New(mcptool.Options{ClientName: "runsvc"})
	models := model.Providers{
		spec.ProviderScripted: scripted.New(cfg.Clock),
		spec.ProviderOpenAI:   openai.New(openai.Options{}),
	}
	maps.Copy(models, cfg.Models)
	s.engine = engine.New(engine.Deps{
		Store: s.store, Runs: manager, Specs: reg,
		Models: models,
		Tools: map[spec.Kind]tool.Executor{
			spec.KindWorker: hub,
			spec.KindHTTP:   httptool.New(nil),
			spec.KindMCP:    s.mcp,
		},
		Workers: hub, Memory: mem, Bus: messages, Secrets: secrets, Policy: pol, Clock: cfg.Clock, Log: s.log,
	}, cfg.Engine)

	if cfg.MaxUnaryCalls == 0 {
		cfg.MaxUnaryCalls = 4096
	}
	if cfg.MaxStreams == 0 {
		cfg.MaxStreams = 16384
	}
	limiter := admission.New(cfg.MaxUnaryCalls, cfg.MaxStreams)
	unary := []grpc.UnaryServerInterceptor{mapper.UnaryServerInterceptor(), limiter.UnaryServerInterceptor()}
	stream := []grpc.StreamServerInterceptor{mapper.StreamServerInterceptor(), limiter.StreamServerInterceptor()}
	secOpts, err := s.security(&unary, &stream)
	if err != nil {
		return err
	}
	s.grpc = grpc.NewServer(append(secOpts,
		grpc.ChainUnaryInterceptor(unary...),
		grpc.ChainStreamInterceptor(stream...),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: 10 * time.Second, PermitWithoutStream: true}),
	)...)
	service.New(service.Deps{Mapper: mapper, Specs: reg, Runs: manager, Engine: s.engine, Hub: hub, Memory: mem, Bus: messages}).Register(s.grpc)
	s.health = health.NewServer()
	healthpb.RegisterHealthServer(s.grpc, s.health)
	reflection.Register(s.grpc)
	return nil
}

// Store returns the server's store, for tests that look underneath.
func (s *Server) Store() store.Store { return s.store }

// Addr returns the address the server listens on.
func (s *Server) Addr() string { return s.lis.Addr().String() }

// Serve runs until ctx ends, then drains: it stops taking RPCs, lets those
// in flight finish (up to the drain timeout), stops the workers, which
// give their leases back, stops relaying tool calls between replicas
// (giving back the calls it holds and withdrawing its adverts), and
// closes the store.
func (s *Server) Serve(ctx context.Context) error {
	engineCtx, stopEngine := context.WithCancel(context.WithoutCancel(ctx))
	engineDone := make(chan struct{})
	go func() {
		defer close(engineDone)
		s.engine.Run(engineCtx)
	}()
	hubCtx, stopHub := context.WithCancel(context.WithoutCancel(ctx))
	hubDone := make(chan struct{})
	go func() {
		defer close(hubDone)
		s.hub.Run(hubCtx)
	}()
	if s.keys != nil {
		go s.keys.Watch(hubCtx, keysPoll)
	}
	serveErr := make(chan error, 1)
	go func() { serveErr <- s.grpc.Serve(s.lis) }()
	s.health.SetServingStatus("", healthpb.HealthCheckResponse_SERVING)
	s.log.Info("runsvc serving", "listen", s.Addr(), "worker", s.cfg.WorkerID)

	var err error
	select {
	case <-ctx.Done():
	case err = <-serveErr:
	}
	s.log.Info("draining")
	s.health.Shutdown()
	stopped := make(chan struct{})
	go func() {
		s.grpc.GracefulStop()
		close(stopped)
	}()
	select {
	case <-stopped:
	case <-time.After(s.cfg.DrainTimeout):
		s.log.Warn("drain timed out; closing the remaining calls")
		s.grpc.Stop()
	}
	stopEngine()
	<-engineDone
	stopHub()
	<-hubDone
	s.mcp.Close()
	if cerr := s.store.Close(); cerr != nil {
		err = errors.Join(err, cerr)
	}
	s.log.Info("stopped")
	if errors.Is(err, grpc.ErrServerStopped) {
		return nil
	}
	return err
}
