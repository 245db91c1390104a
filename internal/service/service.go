// Package service holds runsvc's gRPC handlers. They convert between the
// runsvc.v1 messages and the domain and do nothing else: every decision is
// a domain package's, and every error is the domain's typed error, mapped
// to a status by the errdetails interceptors.
package service

import (
	"context"

	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/alias"
	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/bus"
	"github.com/runsvc/runsvc/internal/engine"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/evaluation"
	"github.com/runsvc/runsvc/internal/memory"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/schedule"
	"github.com/runsvc/runsvc/internal/secret"
	"github.com/runsvc/runsvc/internal/spec/versions"
	"github.com/runsvc/runsvc/internal/toolworkers"
	"github.com/runsvc/runsvc/internal/webhook"
)

// Deps are the domain services the handlers call.
type Deps struct {
	Mapper *errdetails.Mapper
	Specs  *versions.Registry
	Runs   *runs.Manager
	Engine *engine.Engine
	Hub    *toolworkers.Hub
	Memory *memory.Service
	Bus    *bus.Service
	// Schedules serves ScheduleService; nil leaves it unregistered.
	Schedules *schedule.Scheduler
	// Scrubber removes resolved credentials from what InvokeTool answers;
	// nil removes nothing.
	Scrubber *secret.Scrubber
	// Codec is the server's codec, when it is a *Codec: streams then send
	// pieces encoded once for all their watchers as they are.
	Codec *Codec
	// Webhooks manages webhook subscriptions; without it WebhookService
	// is not registered.
	Webhooks *webhook.Manager
	// Aliases serves AliasService; nil leaves it unregistered.
	Aliases *alias.Registry
	// Evaluations serves EvaluationService; nil leaves it unregistered.
	Evaluations *evaluation.Service
}

// Service implements the runsvc.v1 services.
type Service struct {
	mapper *errdetails.Mapper
	specs  *versions.Registry
	runs   *runs.Manager
	engine *engine.Engine
	hub    *toolworkers.Hub
	memory *memory.Service
	bus    *bus.Service
	scrub  *secret.Scrubber
	// schedules serves ScheduleService.
	schedules *schedule.Scheduler
	// webhooks is nil when the store keeps no webhooks.
	webhooks *webhook.Manager
	// aliases serves AliasService.
	aliases *alias.Registry
	// evaluations serves EvaluationService.
	evaluations *evaluation.Service
	// records are converted Records shared by watchers.
	records recordCache
	// passThrough says the server's codec sends *Encoded as it is.
	passThrough bool
}

// New returns the handlers.
func New(d Deps) *Service {
	return &Service{mapper: d.Mapper, specs: d.Specs, runs: d.Runs, engine: d.Engine, hub: d.Hub, memory: d.Memory, bus: d.Bus, scrub: d.Scrubber, schedules: d.Schedules, webhooks: d.Webhooks, aliases: d.Aliases,
		evaluations: d.Evaluations, passThrough: d.Codec != nil}
}

// Register registers every runsvc.v1 service on srv.
func (s *Service) Register(srv grpc.ServiceRegistrar) {
	runsvcv1.RegisterSpecServiceServer(srv, specServer{Service: s})
	runsvcv1.RegisterRunServiceServer(srv, runServer{Service: s})
	runsvcv1.RegisterToolServiceServer(srv, toolServer{Service: s})
	runsvcv1.RegisterDelegationServiceServer(srv, delegationServer{Service: s})
	runsvcv1.RegisterMemoryServiceServer(srv, memoryServer{Service: s})
	runsvcv1.RegisterBusServiceServer(srv, busServer{Service: s})
	if s.schedules != nil {
		runsvcv1.RegisterScheduleServiceServer(srv, scheduleServer{Service: s})
	}
	if s.webhooks != nil {
		runsvcv1.RegisterWebhookServiceServer(srv, webhookServer{Service: s})
	}
	if s.aliases != nil {
		runsvcv1.RegisterAliasServiceServer(srv, aliasServer{Service: s})
	}
	if s.evaluations != nil {
		runsvcv1.RegisterEvaluationServiceServer(srv, evaluationServer{Service: s})
	}
}

// tenantOf returns the caller's tenant: the authenticated identity's, or
// the default tenant when the server runs without a keys file.
func tenantOf(ctx context.Context) string { return auth.Tenant(ctx) }

// traceParentOf is the W3C traceparent of the call's span (otelgrpc's,
// the child of the caller's), "" when the call is not traced.
func traceParentOf(ctx context.Context) string {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return ""
	}
	carrier := propagation.MapCarrier{}
	propagation.TraceContext{}.Inject(ctx, carrier)
	return carrier.Get("traceparent")
}
