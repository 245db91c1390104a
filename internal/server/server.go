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
	"net/http"
	"os"
	"strings"
	"time"

	// Linked so that reflection serves google/rpc/error_details.proto and
	// status.proto: clients render Run.failure and InvokeTool's error
	// from them.
	_ "google.golang.org/genproto/googleapis/rpc/errdetails"
	_ "google.golang.org/genproto/googleapis/rpc/status"
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
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/evaluation"
	"github.com/runsvc/runsvc/internal/live"
	"github.com/runsvc/runsvc/internal/memory"
	"github.com/runsvc/runsvc/internal/metrics"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/model/anthropic"
	"github.com/runsvc/runsvc/internal/model/openai"
	"github.com/runsvc/runsvc/internal/model/ratelimit"
	"github.com/runsvc/runsvc/internal/model/scripted"
	"github.com/runsvc/runsvc/internal/netpolicy"
	"github.com/runsvc/runsvc/internal/policy"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/schedule"
	"github.com/runsvc/runsvc/internal/secret"
	"github.com/runsvc/runsvc/internal/server/admission"
	"github.com/runsvc/runsvc/internal/service"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/spec/versions"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/sqlite"
	"github.com/runsvc/runsvc/internal/tool"
	"github.com/runsvc/runsvc/internal/tool/a2atool"
	"github.com/runsvc/runsvc/internal/tool/httptool"
	"github.com/runsvc/runsvc/internal/tool/mcptool"
	"github.com/runsvc/runsvc/internal/toolworkers"
	"github.com/runsvc/runsvc/internal/tracing"
	"github.com/runsvc/runsvc/internal/waiting"
	"github.com/runsvc/runsvc/internal/webhook"
)

// maxGRPCMessage is grpc-go's receive limit: well above the codec's, so a
// request between the two gets INVALID_REQUEST with details rather than
// grpc-go's bare RESOURCE_EXHAUSTED; beyond it grpc-go refuses the bytes
// before anything of runsvc runs.
const maxGRPCMessage = 16 << 20

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
	// DisableScrub lets resolved credentials into logs, Records and
	// answers. Only tests that prove the scrub is what keeps them out set
	// it; no flag does.
	DisableScrub bool
	// PolicyFile is an optional JSON file of policy rules.
	PolicyFile string
	// WorkerID names this process's worker; default host and pid.
	WorkerID string
	// Engine tunes the worker.
	Engine engine.Config
	// FairnessWeights are the fairness keys' weights (a key not named
	// weighs 1): within a priority, a key of weight w gets w times the
	// claims of a key of weight 1 while both have Runs waiting.
	FairnessWeights map[string]int
	// DrainTimeout bounds a graceful shutdown.
	DrainTimeout time.Duration
	// MaxUnaryCalls and MaxStreams bound the calls in flight; beyond them
	// calls fail OVERLOADED. Zero means 4096 and 16384.
	MaxUnaryCalls int
	MaxStreams    int
	// Clock is the time source; the wall clock when nil.
	Clock clock.Clock
	// Models adds model providers, or replaces the built-in ones (scripted,
	// openai) of the same name; a nil one removes the provider, so that
	// Specs naming it are SPEC_UNBUILDABLE. No flag sets it.
	Models model.Providers
	// RateLimits are the model providers' rate limits (--model-rate-limit);
	// what providers say about their limits is learned either way.
	RateLimits ratelimit.Config
	// WithoutToolKinds leaves the executors of these tool kinds out, as a
	// build without them would: their calls are DEPENDENCY_MISSING. No
	// flag sets it; tests stand for such a build with it.
	WithoutToolKinds []spec.Kind
	// WrapStore, when set, wraps the store the server opened. No flag sets
	// it: tests inject store faults with it.
	WrapStore func(store.Store) store.Store
	// Ops is observability and connection management.
	Ops Ops
	// Security is TLS, the keys file and the safe default; see security.go.
	Security Security
	// Console serves the web console; see console.go.
	Console Console
	// HTTP serves the API over REST, Connect and gRPC-Web; see httpserve.go.
	HTTP HTTP
	// MCP serves the Specs exposed over MCP as an MCP server; see
	// mcpserve.go.
	MCP MCP
	// Retention is the retention sweep: how long settled Runs are kept
	// when their Spec sets no retention (zero: forever), and how often it
	// looks.
	Retention runs.SweepConfig
	// AllowNetworks are the networks (CIDR prefixes) http and MCP tools
	// may connect to; empty means every address but the cloud metadata
	// ones (see netpolicy).
	AllowNetworks []string
	// MCPCommands are the programs stdio MCP servers may be run as, as
	// Specs name them, or "*" for any; none when empty.
	MCPCommands []string
	// Webhooks is how webhook deliveries are made; see webhooks.go.
	Webhooks webhook.Config
}

// Ops configures metrics, tracing and long connections.
type Ops struct {
	// MetricsListen serves Prometheus metrics at /metrics; off when empty.
	MetricsListen string
	// OTLPEndpoint exports traces over OTLP/gRPC (host:port); when empty,
	// the standard OTEL_EXPORTER_OTLP_* environment decides, and with
	// neither, tracing is off.
	OTLPEndpoint string
	// KeepaliveTime is how long a connection may be idle before the
	// server pings it; KeepaliveTimeout how long it waits for the answer.
	// Defaults 30s and 10s.
	KeepaliveTime, KeepaliveTimeout time.Duration
	// MaxConnectionAge ends a connection after this long (with a GOAWAY)
	// so that meshes and balancers can rebalance; MaxConnectionAgeGrace
	// is how long its calls then have to finish. Zero: forever.
	MaxConnectionAge, MaxConnectionAgeGrace time.Duration
	// HeartbeatInterval is how long WatchRun and StreamText may idle
	// before a heartbeat, for requests that do not ask; zero sends none.
	HeartbeatInterval time.Duration
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
	// sweeper deletes settled Runs past their retention.
	sweeper *runs.Sweeper
	// schedules fires the schedules' ticks; nil when the store keeps none.
	schedules *schedule.Scheduler
	// evals serves EvaluationService and is the alias-move gate; nil when
	// the store keeps no evaluations.
	evals *evaluation.Service
	mcp   *mcptool.Executor
	lis   net.Listener

	metrics    *metrics.Metrics
	metricsLis net.Listener
	tracing    *tracing.Tracing
	drainer    *drainer
	healthRep  *healthReporter
	keys       *auth.Keys
	auth       *authenticator // nil without a keys file
	tls        *tlsFiles      // nil without --tls-cert
	console    *consoleServer // nil without --console-listen
	http       *httpAPI       // nil without --http-listen
	webhooks   *webhooks      // nil when the store keeps no webhooks
	mcpServer  *mcpServer     // nil without --mcp-listen and --mcp-path
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
	s := &Server{cfg: cfg, log: log}
	st, err := openStore(ctx, cfg, s.observeStore)
	if err != nil {
		return nil, err
	}
	if cfg.WrapStore != nil {
		st = cfg.WrapStore(st)
	}
	s.store = st
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
	if err := s.listenConsole(); err != nil {
		_ = lis.Close()
		_ = st.Close()
		return nil, err
	}
	if err := s.listenHTTP(); err != nil {
		_ = lis.Close()
		_ = st.Close()
		return nil, err
	}
	if err := s.listenMCP(); err != nil {
		_ = lis.Close()
		_ = st.Close()
		return nil, err
	}
	if cfg.Ops.MetricsListen != "" {
		if s.metricsLis, err = net.Listen("tcp", cfg.Ops.MetricsListen); err != nil {
			_ = lis.Close()
			_ = st.Close()
			return nil, fmt.Errorf("listening for metrics on %s: %w", cfg.Ops.MetricsListen, err)
		}
	}
	return s, nil
}

// openStore opens the store the configuration names, which tells observe
// of every operation.
func openStore(ctx context.Context, cfg Config, observe store.Observer) (store.Store, error) {
	if sharedStore(cfg) {
		return openShared(ctx, cfg, observe)
	}
	dir := cfg.Data
	if strings.HasPrefix(cfg.Store, "sqlite:") {
		dir = strings.TrimPrefix(cfg.Store, "sqlite:")
	}
	st, err := sqlite.Open(dir, sqlite.Options{Observe: observe})
	if err != nil {
		return nil, err
	}
	if err := ownerOnly(dir); err != nil {
		_ = st.Close()
		return nil, err
	}
	return st, nil
}

// loadPorts reads the secrets and policy files the configuration names:
// without them, secrets come from the environment and every call is allowed.
// Every secret resolved becomes known to scrub, unless it is nil.
func loadPorts(cfg Config, scrub *secret.Scrubber) (secret.Resolver, policy.Policy, error) {
	env := secret.Env{}
	if cfg.Security.KeysFile != "" {
		// Several tenants: the environment's credentials are the
		// operator's, for the default tenant's Specs only.
		env.Tenant = store.DefaultTenant
	}
	var secrets secret.Resolver = env
	if cfg.SecretsFile != "" {
		f, err := secret.LoadFile(cfg.SecretsFile)
		if err != nil {
			return nil, nil, err
		}
		secrets = secret.Chain{f, env}
	}
	if scrub != nil {
		secrets = scrub.Watch(secrets)
	}
	var pol policy.Policy = policy.AllowAll{}
	if cfg.PolicyFile != "" {
		rules, err := policy.LoadRules(cfg.PolicyFile)
		if err != nil {
			return nil, nil, err
		}
		pol = rules
	}
	return secrets, pol, nil
}

// executors are the tool executors, http and MCP connecting only where
// the outbound network policy allows (s.mcp, made before them, also lists
// the tools of the servers Specs import when they are published).
func (s *Server) executors(network *netpolicy.Policy) map[spec.Kind]tool.Executor {
	x := map[spec.Kind]tool.Executor{
		spec.KindWorker: s.hub,
		spec.KindHTTP:   httptool.New(&http.Client{Transport: network.Transport()}),
		spec.KindMCP:    s.mcp,
		spec.KindA2A:    a2atool.New(&http.Client{Transport: network.Transport()}),
	}
	for _, k := range s.cfg.WithoutToolKinds {
		delete(x, k)
	}
	return x
}

func (s *Server) assemble() error {
	cfg := s.cfg
	scrub := s.scrubLog()
	mapper := errdetails.New(errdetails.Options{Domain: cfg.ErrorDomain, Debug: cfg.DebugErrors, Logger: s.log})
	// Runs store their failures as the table maps them, once.
	errs.SetFailureEncoder(errdetails.StoredFailure)
	secrets, pol, err := loadPorts(cfg, scrub)
	if err != nil {
		return err
	}
	if err := s.observability(mapper); err != nil {
		return err
	}
	network, err := netpolicy.Parse(cfg.AllowNetworks)
	if err != nil {
		return err
	}
	// The MCP executor also lists the tools of the servers Specs import
	// when the registry publishes them.
	s.mcp = mcptool.New(mcptool.Options{ClientName: "runsvc", Network: network, Commands: cfg.MCPCommands})
	models := s.models()
	reg := s.specRegistry(network, secrets, models)
	streaming := live.NewScrubbingHub(scrub)
	waits := waiting.New()
	// A Run started here while the engine has room is admitted leased to
	// it, in one of its slots: no claim, no wake-up between StartRun and
	// the first Attempt.
	slots := engine.NewSlots(cfg.Engine)
	if err := s.assembleWebhooks(mapper, network); err != nil {
		return err
	}
	aliases := s.aliases(reg)
	manager := runs.New(runs.Deps{Store: s.store, Specs: reg, Policy: pol, Clock: cfg.Clock, Log: s.log, Scrubber: scrub, Live: streaming, Local: slots, Starts: s.metrics, Events: s.webhooks.events(), FairnessWeights: cfg.FairnessWeights, Waits: waits,
		Aliases: aliasResolver(aliases)})
	mem := memory.New(s.store, cfg.Clock)
	messages := bus.New(s.store, reg, cfg.Clock)
	s.sweeper = manager.NewSweeper(cfg.Retention, s.metrics)
	if st, ok := s.store.(store.Schedules); ok {
		s.schedules = schedule.New(schedule.Deps{Store: st, Runs: manager, Clock: cfg.Clock, Log: s.log, TickEvents: s.webhooks.tickEvents()})
	}
	// Every Run created, by whichever path, is counted (runs_started).
	// Workers may connect to any replica: the hub routes calls to the
	// workers of the others through the store, and serves theirs.
	hub := toolworkers.NewRouted(toolworkers.Routing{Store: s.store, Replica: cfg.WorkerID, Clock: cfg.Clock, Log: s.log})
	s.hub = hub
	s.engine = engine.New(engine.Deps{
		Store: s.store, Writer: manager.Writer(), Runs: manager, Specs: reg,
		Models:  models,
		Tools:   s.executors(network),
		Workers: hub, Memory: mem, Bus: messages, Secrets: secrets, Scrub: scrub, Policy: pol, Clock: cfg.Clock, Log: s.log,
		Observer: s.observer(), Live: streaming, Slots: slots, Waits: waits,
	}, cfg.Engine)
	// An interrupted Run's open a2a tasks are canceled at the agents.
	manager.AlsoAfterSettle(s.engine.CancelRemoteTasks)

	// The codec reports undecodable and oversized requests through the
	// table, and sends the live pieces of streamed answers encoded once.
	codec := service.NewCodec(service.DefaultMaxRequestBytes)
	secOpts, common, err := s.serverOptions(mapper, codec)
	if err != nil {
		return err
	}
	s.grpc = grpc.NewServer(append(secOpts, common...)...)
	svc := service.New(service.Deps{Mapper: mapper, Specs: reg, Runs: manager, Engine: s.engine, Hub: hub, Memory: mem, Bus: messages, Scrubber: scrub, Codec: codec,
		Schedules: s.schedules, Webhooks: s.webhooks.manager(), Aliases: aliases, Evaluations: s.evaluations(manager)})
	svc.Register(s.grpc)
	if err := s.assembleInProcess(common, svc); err != nil {
		return err
	}
	s.health = health.NewServer()
	healthpb.RegisterHealthServer(s.grpc, s.health)
	reflection.Register(s.grpc)
	s.healthRep = newHealthReporter(s.health, s.store, s.log, serviceNames(s.grpc))
	s.metrics.SetMethods(methodNames(s.grpc))
	if s.auth != nil {
		s.auth.setMethods(methodNames(s.grpc))
	}
	return s.assembleHTTP(mapper)
}

// specRegistry is the registry of Specs and their Versions: publishing
// checks tools against the network policy, imports MCP servers' tools,
// and refuses a model provider runsvc cannot build.
func (s *Server) specRegistry(network *netpolicy.Policy, secrets secret.Resolver, models model.Providers) *versions.Registry {
	return versions.New(s.store, s.cfg.Clock, versions.Options{
		Network:   network,
		Importer:  mcptool.Importer{Executor: s.mcp, Secrets: secrets},
		Buildable: &versions.Buildable{Providers: providerNames(models)},
		// Only a shared store makes remembering the newest worth it.
		RememberNewest: sharedStore(s.cfg),
	})
}

// serverOptions are the gRPC server's options: creds, its transport
// security, and common, the rest (the interceptor chain, keepalives, the
// codec and its limits), which the console's in-process server shares.
func (s *Server) serverOptions(mapper *errdetails.Mapper, codec *service.Codec) (creds, common []grpc.ServerOption, err error) {
	cfg := s.cfg
	if cfg.MaxUnaryCalls == 0 {
		cfg.MaxUnaryCalls = 4096
	}
	if cfg.MaxStreams == 0 {
		cfg.MaxStreams = 16384
	}
	limiter := admission.New(cfg.MaxUnaryCalls, cfg.MaxStreams)
	// grpc's own limit sits above the codec's so that the codec sees
	// oversized requests first. Its interceptors run right inside the mapper's, so
	// that every request it refused is answered (and forgotten) before
	// admission can turn the call away. Authentication comes last.
	unary, stream := s.interceptors(mapper, codec)
	unary, stream = append(unary, limiter.UnaryServerInterceptor()), append(stream, limiter.StreamServerInterceptor())
	creds, err = s.security(&unary, &stream)
	if err != nil {
		return nil, nil, err
	}
	common = append(s.tracing.ServerOptions(),
		grpc.ChainUnaryInterceptor(unary...),
		grpc.ChainStreamInterceptor(stream...),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: 10 * time.Second, PermitWithoutStream: true}),
		grpc.KeepaliveParams(keepaliveParams(cfg.Ops)),
		grpc.ForceServerCodecV2(codec),
		grpc.MaxRecvMsgSize(maxGRPCMessage),
		grpc.UnknownServiceHandler(service.UnknownMethod),
	)
	return creds, common, nil
}

// models are the built-in model providers with the configuration's
// added, replaced or (nil) removed.
func (s *Server) models() model.Providers {
	models := model.Providers{
		spec.ProviderScripted:  scripted.New(s.cfg.Clock),
		spec.ProviderOpenAI:    openai.New(openai.Options{}),
		spec.ProviderAnthropic: anthropic.New(anthropic.Options{}),
	}
	maps.Copy(models, s.cfg.Models)
	maps.DeleteFunc(models, func(_ string, m model.Model) bool { return m == nil })
	limits := s.cfg.RateLimits
	if limits.Clock == nil {
		limits.Clock = s.cfg.Clock
	}
	return ratelimit.Wrap(models, limits)
}

// providerNames are the names of the model providers this server has.
func providerNames(models model.Providers) map[string]bool {
	out := make(map[string]bool, len(models))
	for name := range models {
		out[name] = true
	}
	return out
}

// Store returns the server's store, for tests that look underneath.
func (s *Server) Store() store.Store { return s.store }

// Addr returns the address the server listens on.
func (s *Server) Addr() string { return s.lis.Addr().String() }

// background runs fn in a goroutine until the returned stop is called;
// stop returns once fn has.
func background(ctx context.Context, fn func(context.Context)) (stop func()) {
	bctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(bctx)
	}()
	return func() {
		cancel()
		<-done
	}
}

// fireSchedules runs this replica's firing loop of schedules, if the
// store keeps schedules.
func (s *Server) fireSchedules(ctx context.Context) {
	if s.schedules != nil {
		s.schedules.Run(ctx)
	}
}

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
		go s.keys.Watch(hubCtx, keysPoll, s.auth.revalidate)
	}
	stopWebhooks := s.webhooks.run(ctx)
	stopSweep := background(ctx, s.sweeper.Run)
	stopSchedules := background(ctx, s.fireSchedules)
	opsCtx, stopOps := context.WithCancel(context.WithoutCancel(ctx))
	defer stopOps()
	// Probe once before serving, so the first health check already says
	// SERVING when the store answers.
	s.healthRep.probe(opsCtx)
	serveErr := make(chan error, 1)
	go func() { serveErr <- s.grpc.Serve(s.lis) }()
	go s.healthRep.run(opsCtx)
	s.serveMetrics(opsCtx)
	s.serveConsole(opsCtx)
	s.serveHTTP(opsCtx)
	s.serveMCP(opsCtx)
	s.log.Info("runsvc serving", "listen", s.Addr(), "worker", s.cfg.WorkerID, "metrics", s.MetricsAddr(), "console", s.ConsoleURL())

	var err error
	select {
	case <-ctx.Done():
	case err = <-serveErr:
	}
	s.log.Info("draining")
	s.healthRep.drain()
	s.drainer.drain()
	stopped := make(chan struct{})
	go func() {
		s.stopConsole()
		s.stopHTTP()
		s.stopMCP()
		s.grpc.GracefulStop()
		close(stopped)
	}()
	select {
	case <-stopped:
	case <-time.After(s.cfg.DrainTimeout):
		s.log.Warn("drain timed out; closing the remaining calls")
		s.stopHTTPNow()
		s.stopMCPNow()
		s.grpc.Stop()
		s.stopConsoleNow()
	}
	stopSchedules()
	stopSweep()
	stopEngine()
	<-engineDone
	stopWebhooks()
	stopHub()
	<-hubDone
	s.mcp.Close()
	stopOps()
	if terr := s.tracing.Shutdown(context.WithoutCancel(ctx)); terr != nil {
		s.log.Warn("flushing traces failed", "err", terr)
	}
	if cerr := s.store.Close(); cerr != nil {
		err = errors.Join(err, cerr)
	}
	s.log.Info("stopped")
	if errors.Is(err, grpc.ErrServerStopped) {
		return nil
	}
	return err
}

// evaluations is the replay evaluation service over the store, nil when
// the store keeps no evaluations.
func (s *Server) evaluations(manager *runs.Manager) *evaluation.Service {
	st, ok := s.store.(store.Evaluations)
	if !ok {
		return nil
	}
	s.evals = evaluation.New(evaluation.Deps{Store: st, Runs: manager, Logs: s.store, Clock: s.cfg.Clock})
	return s.evals
}

// Evaluations returns the replay evaluation service, which is also the
// alias-move gate (evaluation.Gate); nil when the store keeps none.
func (s *Server) Evaluations() *evaluation.Service { return s.evals }
