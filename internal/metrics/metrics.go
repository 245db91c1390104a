// Package metrics is runsvc's Prometheus instrumentation: RPCs by method,
// code and reason; Runs started by Spec and settled by state and Spec;
// unsettled Runs by state and suspension; attempts; model calls
// (latency, tokens, cost, errors by reason); tool calls by kind and
// outcome; open long streams. Every label is bounded: no run ids, no free
// text, and methods outside runsvc's own services count as "other".
package metrics

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"google.golang.org/grpc"

	"github.com/runsvc/runsvc/internal/engine"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/model"
)

// Metrics holds runsvc's collectors in their own registry.
type Metrics struct {
	reg      *prometheus.Registry
	reasonOf func(error) string
	methods  map[string]bool

	rpcs         *prometheus.CounterVec
	rpcDuration  *prometheus.HistogramVec
	streamsOpen  *prometheus.GaugeVec
	attempts     prometheus.Counter
	attemptsNow  prometheus.Gauge
	runsSettled  *prometheus.CounterVec
	runsStarted  *prometheus.CounterVec
	modelLatency *prometheus.HistogramVec
	modelTokens  *prometheus.CounterVec
	modelCost    *prometheus.CounterVec
	modelErrors  *prometheus.CounterVec
	toolCalls    *prometheus.CounterVec
	toolLatency  *prometheus.HistogramVec
	retries      *prometheus.CounterVec
	takeovers    prometheus.Counter
	storeLatency *prometheus.HistogramVec
	swept        *prometheus.CounterVec
	sweeps       *prometheus.HistogramVec
	webhooks     *prometheus.CounterVec
	webhookTime  *prometheus.HistogramVec
	webhookPrune *prometheus.CounterVec
	// The sides of aliases' canaries (issue 37), by Spec, alias and side
	// (PRIMARY, CANARY, THREAD): bounded, where a Version label would grow
	// with every publish.
	aliasRuns     *prometheus.CounterVec
	aliasTokens   *prometheus.CounterVec
	aliasCost     *prometheus.CounterVec
	aliasDuration *prometheus.HistogramVec
}

// New returns the collectors, registered with the Go and process
// collectors. reasonOf names an error's reason (the table's).
func New(reasonOf func(error) string) *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry(), reasonOf: reasonOf, methods: map[string]bool{}}
	f := factory{m.reg}
	m.rpcs = f.counter("runsvc_rpc_requests_total", "RPCs handled, by method, status code and ErrorInfo reason.", "method", "code", "reason")
	m.rpcDuration = f.histogram("runsvc_rpc_duration_seconds", "RPC handling time, by method.", prometheus.DefBuckets, "method")
	m.streamsOpen = f.gauge("runsvc_streams_open", "Server streams open now, by method (WatchRun, StreamText...).", "method")
	m.attempts = f.counter("runsvc_attempts_total", "Attempts this worker started.").WithLabelValues()
	m.attemptsNow = f.gauge("runsvc_attempts_active", "Attempts this worker is running now.").WithLabelValues()
	m.runsSettled = f.counter("runsvc_runs_settled_total", "Runs this worker settled, by final state and Spec.", "state", "spec")
	m.runsStarted = f.counter("runsvc_runs_started_total", "Runs this replica created (StartRun and delegations; not a StartRun that found its request id's Run), by Spec.", "spec")
	m.modelLatency = f.histogram("runsvc_model_call_duration_seconds", "Model call latency, by provider, model and outcome (ok or error).", []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120}, "provider", "model", "outcome")
	m.modelTokens = f.counter("runsvc_model_tokens_total", "Model tokens, by provider, model and direction (input or output).", "provider", "model", "direction")
	m.modelCost = f.counter("runsvc_model_cost_dollars_total", "Model cost in dollars for priced Specs, by provider and model.", "provider", "model")
	m.modelErrors = f.counter("runsvc_model_call_errors_total", "Failed model calls, by provider, model and reason.", "provider", "model", "reason")
	m.toolCalls = f.counter("runsvc_tool_calls_total", "Tool calls runsvc executed, by kind and outcome (ok or the reason).", "kind", "outcome")
	m.toolLatency = f.histogram("runsvc_tool_call_duration_seconds", "Tool call latency, by kind.", prometheus.DefBuckets, "kind")
	m.retries = f.counter("runsvc_retries_total", "Model and tool calls retried after a transient failure, by what (model or tool) and reason.", "what", "reason")
	m.takeovers = f.counter("runsvc_lease_takeovers_total", "Attempts this worker started on a Run whose earlier Attempt died, leaving it neither settled nor suspended (a crashed or drained worker's).").WithLabelValues()
	m.storeLatency = f.histogram("runsvc_store_operation_duration_seconds", "Store operation latency, by operation (the store.Store method) and outcome (ok or error).", []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5}, "operation", "outcome")
	m.swept = f.counter("runsvc_retention_runs_deleted_total", "Settled Runs the retention sweep deleted.")
	m.sweeps = f.histogram("runsvc_retention_sweep_duration_seconds", "Retention sweeps, by outcome (ok or error).", []float64{.001, .01, .1, .5, 1, 5, 15, 60, 300}, "outcome")
	m.webhooks = f.counter("runsvc_webhook_attempts_total", "Webhook delivery attempts this replica made, by outcome (delivered, retry, dead or gone).", "outcome")
	m.webhookTime = f.histogram("runsvc_webhook_attempt_duration_seconds", "Webhook delivery request latency, by outcome.", []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 15}, "outcome")
	m.webhookPrune = f.counter("runsvc_webhook_deliveries_pruned_total", "Delivered webhook events deleted after --webhook-keep.")
	m.aliasRuns = f.counter("runsvc_alias_runs_settled_total", "Runs started on an alias that this worker settled, by Spec, alias, side (PRIMARY, CANARY, THREAD), final state and failure reason.", "spec", "alias", "side", "state", "reason")
	m.aliasTokens = f.counter("runsvc_alias_tokens_total", "Tokens of the settled Runs of an alias, by Spec, alias, side and direction (input or output).", "spec", "alias", "side", "direction")
	m.aliasCost = f.counter("runsvc_alias_cost_dollars_total", "Cost of the settled Runs of an alias, by Spec, alias and side.", "spec", "alias", "side")
	m.aliasDuration = f.histogram("runsvc_alias_run_duration_seconds", "Time from start to settling of the Runs of an alias, by Spec, alias and side.", []float64{.1, .5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600}, "spec", "alias", "side")
	m.reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// factory registers collectors with one registry.
type factory struct{ reg *prometheus.Registry }

func (f factory) counter(name, help string, labels ...string) *prometheus.CounterVec {
	c := prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, labels)
	f.reg.MustRegister(c)
	return c
}

func (f factory) gauge(name, help string, labels ...string) *prometheus.GaugeVec {
	g := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: name, Help: help}, labels)
	f.reg.MustRegister(g)
	return g
}

func (f factory) histogram(name, help string, buckets []float64, labels ...string) *prometheus.HistogramVec {
	h := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: name, Help: help, Buckets: buckets}, labels)
	f.reg.MustRegister(h)
	return h
}

// SetMethods names the full methods that get their own label value; any
// other method counts as "other". Call it before serving.
func (m *Metrics) SetMethods(methods []string) {
	for _, name := range methods {
		m.methods[name] = true
	}
}

// Registry returns the registry, for tests and extra collectors.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler serves the metrics in the Prometheus exposition format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// Serve serves Handler at /metrics on lis until ctx ends.
func (m *Metrics) Serve(ctx context.Context, lis net.Listener) error {
	mux := http.NewServeMux()
	mux.Handle("/metrics", m.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	if err := srv.Serve(lis); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// method bounds the method label.
func (m *Metrics) method(full string) string {
	if m.methods[full] {
		return full
	}
	return "other"
}

// Report implements errdetails.Reporter: one count per RPC.
func (m *Metrics) Report(_ context.Context, c errdetails.Call) {
	method := m.method(c.Method)
	m.rpcs.WithLabelValues(method, c.Code.String(), c.Reason).Inc()
	m.rpcDuration.WithLabelValues(method).Observe(c.Duration.Seconds())
}

// StreamServerInterceptor counts open server streams by method.
func (m *Metrics) StreamServerInterceptor() grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		g := m.streamsOpen.WithLabelValues(m.method(info.FullMethod))
		g.Inc()
		defer g.Dec()
		return handler(srv, ss)
	}
}

// StartAttempt implements engine.Observer.
func (m *Metrics) StartAttempt(ctx context.Context, _ engine.AttemptInfo) (context.Context, func()) {
	m.attempts.Inc()
	m.attemptsNow.Inc()
	return ctx, m.attemptsNow.Dec
}

// Attempting implements engine.Observer.
func (m *Metrics) Attempting(ctx context.Context, _ engine.AttemptInfo) context.Context { return ctx }

// StartModelCall implements engine.Observer.
func (m *Metrics) StartModelCall(ctx context.Context, c engine.ModelCallInfo) (context.Context, func(model.Response, error)) {
	start := time.Now()
	provider, name := c.Model.Provider, c.Model.Model
	return ctx, func(resp model.Response, err error) {
		outcome := "ok"
		if err != nil {
			outcome = "error"
			m.modelErrors.WithLabelValues(provider, name, m.reasonOf(err)).Inc()
		}
		m.modelLatency.WithLabelValues(provider, name, outcome).Observe(time.Since(start).Seconds())
		if err != nil {
			return
		}
		m.modelTokens.WithLabelValues(provider, name, "input").Add(float64(resp.Usage.InputTokens))
		m.modelTokens.WithLabelValues(provider, name, "output").Add(float64(resp.Usage.OutputTokens))
		if p := c.Model.Pricing; p != nil {
			m.modelCost.WithLabelValues(provider, name).Add(p.Cost(resp.Usage.InputTokens, resp.Usage.OutputTokens))
		}
	}
}

// StartToolCall implements engine.Observer.
func (m *Metrics) StartToolCall(ctx context.Context, c engine.ToolCallInfo) (context.Context, func(error)) {
	start := time.Now()
	kind := string(c.Kind)
	return ctx, func(err error) {
		outcome := "ok"
		if err != nil {
			outcome = m.reasonOf(err)
		}
		m.toolCalls.WithLabelValues(kind, outcome).Inc()
		m.toolLatency.WithLabelValues(kind).Observe(time.Since(start).Seconds())
	}
}

// RunSettled implements engine.Observer.
func (m *Metrics) RunSettled(_ context.Context, r engine.SettledInfo) {
	m.runsSettled.WithLabelValues(r.State, r.Spec).Inc()
	if r.Alias == "" {
		return
	}
	m.aliasRuns.WithLabelValues(r.Spec, r.Alias, r.AliasSide, r.State, r.Reason).Inc()
	m.aliasTokens.WithLabelValues(r.Spec, r.Alias, r.AliasSide, "input").Add(float64(r.Usage.InputTokens))
	m.aliasTokens.WithLabelValues(r.Spec, r.Alias, r.AliasSide, "output").Add(float64(r.Usage.OutputTokens))
	m.aliasCost.WithLabelValues(r.Spec, r.Alias, r.AliasSide).Add(r.Usage.Cost)
	m.aliasDuration.WithLabelValues(r.Spec, r.Alias, r.AliasSide).Observe(r.Took.Seconds())
}

// RunStarted counts a Run created for spec.
func (m *Metrics) RunStarted(spec string) { m.runsStarted.WithLabelValues(spec).Inc() }

// Retrying implements engine.Observer.
func (m *Metrics) Retrying(_ context.Context, r engine.RetryInfo) {
	m.retries.WithLabelValues(r.What, m.reasonOf(r.Err)).Inc()
}

// TookOver implements engine.TakeoverObserver.
func (m *Metrics) TookOver(context.Context, engine.AttemptInfo) { m.takeovers.Inc() }

// ObserveStore records one store operation's latency; op is a store.Store
// method name, a bounded set.
func (m *Metrics) ObserveStore(op string, d time.Duration, err error) {
	outcome := "ok"
	if err != nil {
		outcome = "error"
	}
	m.storeLatency.WithLabelValues(op, outcome).Observe(d.Seconds())
}

// WebhookAttempt implements webhook.Observer: one delivery attempt.
func (m *Metrics) WebhookAttempt(outcome string, latency time.Duration) {
	m.webhooks.WithLabelValues(outcome).Inc()
	m.webhookTime.WithLabelValues(outcome).Observe(latency.Seconds())
}

// WebhooksPruned implements webhook.Observer: delivered events pruned.
func (m *Metrics) WebhooksPruned(n int) { m.webhookPrune.WithLabelValues().Add(float64(n)) }

// Swept implements runs.SweepReporter: one retention sweep.
func (m *Metrics) Swept(deleted int, took time.Duration, err error) {
	outcome := "ok"
	if err != nil {
		outcome = "error"
	}
	m.swept.WithLabelValues().Add(float64(deleted))
	m.sweeps.WithLabelValues(outcome).Observe(took.Seconds())
}
