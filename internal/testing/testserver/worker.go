package testserver

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/lru"
)

// ToolFunc answers one call: a result, or a tool error.
type ToolFunc func(args map[string]any) (any, *runsvcv1.ToolError)

// resultCacheSize is how many results a Worker remembers by call id.
const resultCacheSize = 4096

// Worker is a tool worker connected over ServeTools, the Go counterpart
// of the Python and Node worker helpers.
//
// A call sent again with a call id the Worker has seen (runsvc died, or
// lost the connection, after the call reached the worker, and the Run's
// next Attempt makes it again) is answered from the Worker's cache of
// results by call id: the tool does not run twice. A call still running
// when it comes again is answered when its one run ends. Retryable tool
// errors are not cached, so a call sent again after one runs again.
type Worker struct {
	name  string
	tools map[string]ToolFunc
	// reconnect makes the worker connect again when its stream ends.
	reconnect bool
	// cache is nil when results are not remembered (WithoutResultCache).
	cache *lru.Cache[*outcome]

	mu sync.Mutex
	// calls counts the calls received by tool; received and ran, the
	// calls received and the tool's runs by call id; connections, the
	// registrations acknowledged.
	calls       map[string]int
	received    map[string]int
	ran         map[string]int
	connections int

	cancel context.CancelFunc
	done   chan struct{}
}

// outcome is one run of a call: done is closed once res is set.
type outcome struct {
	done chan struct{}
	res  *runsvcv1.ServeToolsRequest_Result
}

// WorkerOption changes how StartWorker's Worker behaves.
type WorkerOption func(*Worker)

// Reconnecting makes the Worker connect and register again, with a short
// backoff, whenever its stream ends (runsvc restarted or was killed),
// until Stop or the end of the test.
func Reconnecting() WorkerOption { return func(w *Worker) { w.reconnect = true } }

// WithoutResultCache makes the Worker run every call it receives, even
// one it already ran: a helper without item 4 of issue 20, for
// measuring what the cache saves.
func WithoutResultCache() WorkerOption { return func(w *Worker) { w.cache = nil } }

// Calls returns how many calls of a tool this worker received.
func (w *Worker) Calls(tool string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.calls[tool]
}

// Received returns how many times runsvc sent the worker the call with
// this call id.
func (w *Worker) Received(callID string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.received[callID]
}

// Ran returns how many times the worker ran the tool for a call id (the
// ServeTools call id, which is the call's idempotency key).
func (w *Worker) Ran(callID string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.ran[callID]
}

// Connections returns how many times runsvc acknowledged the worker's
// registration.
func (w *Worker) Connections() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.connections
}

// Stop disconnects the worker and waits until it is gone.
func (w *Worker) Stop() {
	w.cancel()
	<-w.done
}

// StartWorker connects a worker serving tools until the test ends or Stop.
// It returns once runsvc acknowledged the registration.
func (s *Server) StartWorker(t testing.TB, name string, tools map[string]ToolFunc, opts ...WorkerOption) *Worker {
	t.Helper()
	return StartWorker(t, s.Tools, name, tools, opts...)
}

// StartWorker connects a worker to any runsvc; see Server.StartWorker.
func StartWorker(t testing.TB, client runsvcv1.ToolServiceClient, name string, tools map[string]ToolFunc, opts ...WorkerOption) *Worker {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	w := &Worker{
		name: name, tools: tools, cache: lru.New[*outcome](resultCacheSize),
		calls: map[string]int{}, received: map[string]int{}, ran: map[string]int{}, cancel: cancel, done: make(chan struct{}),
	}
	for _, o := range opts {
		o(w)
	}
	stream, err := w.connect(ctx, client)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	go func() {
		defer close(w.done)
		for backoff := 50 * time.Millisecond; ; {
			w.serve(stream)
			if !w.reconnect {
				return
			}
			for stream = nil; stream == nil; {
				select {
				case <-ctx.Done():
					return
				case <-time.After(backoff):
				}
				if stream, err = w.connect(ctx, client); err != nil {
					stream, backoff = nil, min(2*backoff, time.Second)
				}
			}
			backoff = 50 * time.Millisecond
		}
	}()
	t.Cleanup(w.Stop)
	return w
}

// connect opens a ServeTools stream and registers the worker's tools.
func (w *Worker) connect(ctx context.Context, client runsvcv1.ToolServiceClient) (runsvcv1.ToolService_ServeToolsClient, error) {
	stream, err := client.ServeTools(ctx)
	if err != nil {
		return nil, err
	}
	reg := &runsvcv1.ServeToolsRequest_Register{WorkerName: w.name}
	for tool := range w.tools {
		reg.Tools = append(reg.Tools, &runsvcv1.ToolDefinition{Name: tool})
	}
	if err := Register(stream, reg); err != nil {
		return nil, err
	}
	w.mu.Lock()
	w.connections++
	w.mu.Unlock()
	return stream, nil
}

// serve answers the calls of one stream until it ends, each on the
// stream it came on.
func (w *Worker) serve(stream runsvcv1.ToolService_ServeToolsClient) {
	var sendMu sync.Mutex
	ServeCalls(stream, func(call *runsvcv1.ServeToolsResponse_Call) bool {
		o, mine := w.outcomeOf(call)
		go func() {
			if mine {
				w.run(call, o)
			}
			<-o.done
			sendMu.Lock()
			defer sendMu.Unlock()
			_ = stream.Send(&runsvcv1.ServeToolsRequest{Message: &runsvcv1.ServeToolsRequest_Result_{Result: o.res}})
		}()
		return true
	})
}

// outcomeOf returns the run answering call: the cached one for a call id
// seen before, or a new one, which the caller must run (mine).
func (w *Worker) outcomeOf(call *runsvcv1.ServeToolsResponse_Call) (o *outcome, mine bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.calls[call.GetName()]++
	w.received[call.GetCallId()]++
	key := lru.Key{ID: call.GetCallId()}
	if w.cache != nil {
		if o, ok := w.cache.Get(key); ok {
			return o, false
		}
	}
	o = &outcome{done: make(chan struct{})}
	if w.cache != nil {
		w.cache.Add(key, o)
	}
	w.ran[call.GetCallId()]++
	return o, true
}

// run runs the tool for call and completes o; a retryable failure leaves
// the cache, so that the call runs again when it is sent again.
func (w *Worker) run(call *runsvcv1.ServeToolsResponse_Call, o *outcome) {
	var args map[string]any
	b, _ := protojson.Marshal(call.GetArguments())
	_ = json.Unmarshal(b, &args)
	out, toolErr := w.tools[call.GetName()](args)
	res := &runsvcv1.ServeToolsRequest_Result{CallId: call.GetCallId(), Error: toolErr}
	if toolErr == nil {
		v, err := structpb.NewValue(out)
		if err != nil {
			res.Error = &runsvcv1.ToolError{Message: err.Error()}
		}
		res.Output = v
	}
	o.res = res
	close(o.done)
	if res.GetError().GetRetryable() && w.cache != nil {
		w.mu.Lock()
		if cur, ok := w.cache.Get(lru.Key{ID: call.GetCallId()}); ok && cur == o {
			w.cache.Remove(lru.Key{ID: call.GetCallId()})
		}
		w.mu.Unlock()
	}
}
