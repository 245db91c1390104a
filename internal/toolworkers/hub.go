// Package toolworkers connects worker processes (in any language, over
// ToolService.ServeTools) to the tool calls of Runs. Workers register tool
// names; calls are spread over the workers serving a name, least busy
// first; a call whose worker disconnects goes to another worker, or fails
// as a transient error the engine retries.
//
// A Hub made with NewRouted also reaches the workers connected to other
// replicas sharing its store: when no local worker serves a tool that a
// live replica advertises, the call goes through the store (see
// remote.go), and the Hub's relay runs the calls other replicas enqueue
// for its own workers (see relay.go).
package toolworkers

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"sync"
	"time"

	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/ids"
	"github.com/runsvc/runsvc/internal/tool"
)

// DefaultMaxConcurrency is how many calls a worker takes at once unless it
// says otherwise.
const DefaultMaxConcurrency = 16

// maxRedispatch bounds how many workers one call is tried on when workers
// disconnect under it.
const maxRedispatch = 3

// Definition is a tool a worker serves.
type Definition struct {
	Name        string
	Description string
	Parameters  json.RawMessage
}

// Call is a call sent to a worker.
type Call struct {
	// ID is unique across Runs and stable across retries of the call.
	ID        string
	RunID     string
	Name      string
	Arguments json.RawMessage
	Deadline  time.Time
	// TraceParent is the W3C trace context of the call, "" when untraced;
	// a call routed to another replica's worker carries it there too.
	TraceParent string
}

// Hub routes calls to connected workers.
type Hub struct {
	mu      sync.Mutex
	workers map[string]*Worker
	// freed is closed and replaced whenever capacity frees up or a worker
	// connects, waking calls that wait for one.
	freed chan struct{}
	// turn rotates ties between equally busy workers.
	turn int

	// routing is nil for a Hub that only knows its own workers.
	routing *Routing
	// changed tells the advertiser, and relayKick the relay, that the
	// workers changed (or, for the relay, that capacity freed up).
	changed   chan struct{}
	relayKick chan struct{}
	// unplaced counts, per tenant, the calls the relay claimed that are not
	// on a worker yet; hungry says the relay claimed all it had room for
	// and wants to hear when capacity frees up.
	unplaced map[string]int
	hungry   bool
}

// New returns an empty Hub that serves the calls of this process only.
func New() *Hub {
	return &Hub{
		workers: map[string]*Worker{}, freed: make(chan struct{}),
		changed: make(chan struct{}, 1), relayKick: make(chan struct{}, 1), unplaced: map[string]int{},
	}
}

// Worker is one connected worker process.
type Worker struct {
	ID     string
	Name   string
	Tenant string
	tools  map[string]Definition
	max    int
	hub    *Hub
	// outbox carries calls and cancellations to the connection's sender.
	outbox chan Outgoing
	gone   chan struct{}
	// inflight maps call ids to their waiting callers.
	inflight map[string]*pending
}

type pending struct {
	name string
	ch   chan result
}

// Failure is a worker's report that its tool failed.
type Failure struct {
	Message   string
	Retryable bool
}

// Outgoing is a message for a worker: a call, or the id of a call to
// cancel.
type Outgoing struct {
	Call   *Call
	Cancel string
}

type result struct {
	output json.RawMessage
	err    error
}

// Connect registers a worker and returns it; the caller forwards its
// Outbox to the connection and calls Disconnect when the connection ends.
func (h *Hub) Connect(tenant, name string, defs []Definition, maxConcurrency int) *Worker {
	if maxConcurrency <= 0 {
		maxConcurrency = DefaultMaxConcurrency
	}
	w := &Worker{
		ID: ids.New("wkr", time.Now()), Name: name, Tenant: tenant, tools: map[string]Definition{}, max: maxConcurrency,
		hub: h, outbox: make(chan Outgoing, 2*maxConcurrency+16), gone: make(chan struct{}), inflight: map[string]*pending{},
	}
	for _, d := range defs {
		w.tools[d.Name] = d
	}
	h.mu.Lock()
	h.workers[w.ID] = w
	h.wakeLocked()
	h.mu.Unlock()
	kick(h.changed)
	kick(h.relayKick)
	return w
}

// Outbox returns what to send to the worker.
func (w *Worker) Outbox() <-chan Outgoing { return w.outbox }

// Done is closed when the worker disconnected.
func (w *Worker) Done() <-chan struct{} { return w.gone }

// Disconnect removes the worker; its calls in flight go to other workers.
func (h *Hub) Disconnect(w *Worker) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.workers[w.ID]; !ok {
		return
	}
	delete(h.workers, w.ID)
	close(w.gone)
	for id, p := range w.inflight {
		p.ch <- result{err: errWorkerGone}
		delete(w.inflight, id)
	}
	h.wakeLocked()
	kick(h.changed)
	kick(h.relayKick)
}

// kick signals ch without blocking; signals coalesce.
func kick(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

var errWorkerGone = fmt.Errorf("worker disconnected")

// Deliver hands a worker's answer to the call waiting for it: its output,
// or its failure, which the caller sees as *errs.ToolFailed. An answer for
// a call not in flight (cancelled, or answered already) is dropped.
func (h *Hub) Deliver(w *Worker, callID string, output json.RawMessage, failure *Failure) {
	h.mu.Lock()
	p, ok := w.inflight[callID]
	delete(w.inflight, callID)
	h.wakeLocked()
	h.mu.Unlock()
	if !ok {
		return
	}
	if failure != nil {
		p.ch <- result{err: errs.ToolFailure(p.name, failure.Message, failure.Retryable, 0)}
		return
	}
	p.ch <- result{output: output}
}

// wakeLocked wakes the calls waiting for a worker, and the relay when it
// waits for capacity to claim more calls.
func (h *Hub) wakeLocked() {
	close(h.freed)
	h.freed = make(chan struct{})
	if h.hungry {
		h.hungry = false
		kick(h.relayKick)
	}
}

// Execute runs a call on a worker serving its tool: it implements
// tool.Executor. A worker connected to this process takes it when one
// serves the tool; otherwise, for a routed Hub, a worker connected to
// another live replica, through the store. With no worker serving the
// tool anywhere it fails with a retryable *errs.TransientFailure; a
// worker's own error is *errs.ToolFailed.
func (h *Hub) Execute(ctx context.Context, c tool.Call) (json.RawMessage, error) {
	wc := Call{ID: c.GlobalID(), RunID: c.RunID, Name: c.Name, Arguments: c.Arguments, Deadline: c.Deadline, TraceParent: traceParentOf(ctx)}
	if h.routing != nil && !h.Serves(c.Tenant, c.Name) {
		return h.executeRemote(ctx, c.Tenant, wc)
	}
	return h.executeLocal(ctx, c.Tenant, wc, nil)
}

// executeLocal runs a call on a worker connected to this process, moving
// it to another one when its worker disconnects, a few times at most.
// placed, when set, is called each time the call is handed to a worker.
func (h *Hub) executeLocal(ctx context.Context, tenant string, wc Call, placed func()) (json.RawMessage, error) {
	for try := 1; ; try++ {
		out, err := h.dispatch(ctx, tenant, wc, placed)
		if err != errWorkerGone {
			return out, err
		}
		if try >= maxRedispatch {
			return nil, &errs.TransientFailure{Operation: "tool " + wc.Name, Message: "the worker running the call disconnected", RetryAfter: time.Second}
		}
	}
}

// noWorker is the failure of a call whose tool no worker serves.
func noWorker(name string) error {
	return &errs.TransientFailure{Operation: "tool " + name, Message: "no worker serving tool " + name + " is connected", RetryAfter: time.Second}
}

func (h *Hub) dispatch(ctx context.Context, tenant string, c Call, placed func()) (json.RawMessage, error) {
	ch := make(chan result, 1)
	var w *Worker
	for {
		h.mu.Lock()
		var serving int
		w, serving = h.pickLocked(tenant, c.Name)
		if w != nil {
			w.inflight[c.ID] = &pending{name: c.Name, ch: ch}
			h.mu.Unlock()
			if placed != nil {
				placed()
			}
			break
		}
		freed := h.freed
		h.mu.Unlock()
		if serving == 0 {
			return nil, noWorker(c.Name)
		}
		select {
		case <-freed:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	select {
	case w.outbox <- Outgoing{Call: &c}:
	case <-w.gone:
		return nil, errWorkerGone
	case <-ctx.Done():
		h.forget(w, c.ID)
		return nil, ctx.Err()
	}
	select {
	case r := <-ch:
		return r.output, r.err
	case <-ctx.Done():
		if h.forget(w, c.ID) {
			select {
			case w.outbox <- Outgoing{Cancel: c.ID}:
			default:
			}
		}
		return nil, ctx.Err()
	}
}

// forget drops a call in flight and reports whether it was still there.
func (h *Hub) forget(w *Worker, id string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	_, ok := w.inflight[id]
	delete(w.inflight, id)
	h.wakeLocked()
	return ok
}

// pickLocked returns, of the tenant's workers serving tool that have
// room, the least busy (taking turns between equals), and how many serve
// the tool at all.
func (h *Hub) pickLocked(tenant, name string) (*Worker, int) {
	var least []*Worker
	serving := 0
	for _, w := range h.workers {
		if w.Tenant != tenant {
			continue
		}
		if _, ok := w.tools[name]; !ok {
			continue
		}
		serving++
		switch {
		case len(w.inflight) >= w.max:
		case len(least) == 0 || len(w.inflight) < len(least[0].inflight):
			least = []*Worker{w}
		case len(w.inflight) == len(least[0].inflight):
			least = append(least, w)
		}
	}
	if len(least) == 0 {
		return nil, serving
	}
	sort.Slice(least, func(i, j int) bool { return least[i].ID < least[j].ID })
	h.turn++
	return least[h.turn%len(least)], serving
}

// ToolInfo is a tool served by connected workers.
type ToolInfo struct {
	Definition
	Workers int
}

// Tools lists the tools a tenant's connected workers serve, by name; a
// tool's definition is the one of its first worker by id.
func (h *Hub) Tools(tenant string) []ToolInfo {
	h.mu.Lock()
	defer h.mu.Unlock()
	var workers []*Worker
	for _, w := range h.workers {
		if w.Tenant == tenant {
			workers = append(workers, w)
		}
	}
	return served(workers)
}

// served lists, by name, the tools workers serve, each with the definition
// of its first worker by id and how many of them serve it. It sorts
// workers by id.
func served(workers []*Worker) []ToolInfo {
	sort.Slice(workers, func(i, j int) bool { return workers[i].ID < workers[j].ID })
	byName := map[string]*ToolInfo{}
	for _, w := range workers {
		for name, d := range w.tools {
			if info, ok := byName[name]; ok {
				info.Workers++
				continue
			}
			byName[name] = &ToolInfo{Definition: d, Workers: 1}
		}
	}
	return sortedByName(byName)
}

// sortedByName returns the tools of byName sorted by name.
func sortedByName(byName map[string]*ToolInfo) []ToolInfo {
	out := make([]ToolInfo, 0, len(byName))
	for _, info := range byName {
		out = append(out, *info)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Serves reports whether a connected worker of the tenant serves a tool.
func (h *Hub) Serves(tenant, name string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, w := range h.workers {
		if _, ok := w.tools[name]; ok && w.Tenant == tenant {
			return true
		}
	}
	return false
}

// ToolNames lists the names of the tools a tenant's workers serve.
func (h *Hub) ToolNames(tenant string) []string {
	return names(h.Tools(tenant))
}

// names returns the names of tools, nil for none.
func names(tools []ToolInfo) []string {
	var out []string
	for _, t := range tools {
		out = append(out, t.Name)
	}
	return out
}

// traceParentOf is the W3C traceparent of ctx's span, "" when untraced.
func traceParentOf(ctx context.Context) string {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return ""
	}
	carrier := propagation.MapCarrier{}
	propagation.TraceContext{}.Inject(ctx, carrier)
	return carrier.Get("traceparent")
}
