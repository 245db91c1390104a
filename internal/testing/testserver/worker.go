package testserver

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// ToolFunc answers one call: a result, or a tool error.
type ToolFunc func(args map[string]any) (any, *runsvcv1.ToolError)

// Worker is a tool worker connected over ServeTools.
type Worker struct {
	mu     sync.Mutex
	calls  map[string]int
	cancel context.CancelFunc
	done   chan struct{}
}

// Calls returns how many calls of a tool this worker received.
func (w *Worker) Calls(tool string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.calls[tool]
}

// Stop disconnects the worker and waits until it is gone.
func (w *Worker) Stop() {
	w.cancel()
	<-w.done
}

// StartWorker connects a worker serving tools until the test ends or Stop.
// It returns once runsvc acknowledged the registration.
func (s *Server) StartWorker(t testing.TB, name string, tools map[string]ToolFunc) *Worker {
	t.Helper()
	return StartWorker(t, s.Tools, name, tools)
}

// StartWorker connects a worker to any runsvc; see Server.StartWorker.
func StartWorker(t testing.TB, client runsvcv1.ToolServiceClient, name string, tools map[string]ToolFunc) *Worker {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	w := &Worker{calls: map[string]int{}, cancel: cancel, done: make(chan struct{})}
	stream, err := client.ServeTools(ctx)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	reg := &runsvcv1.ServeToolsRequest_Register{WorkerName: name}
	for tool := range tools {
		reg.Tools = append(reg.Tools, &runsvcv1.ToolDefinition{Name: tool})
	}
	if err := Register(stream, reg); err != nil {
		cancel()
		t.Fatal(err)
	}
	var sendMu sync.Mutex
	go func() {
		defer close(w.done)
		ServeCalls(stream, func(call *runsvcv1.ServeToolsResponse_Call) bool {
			w.mu.Lock()
			w.calls[call.GetName()]++
			w.mu.Unlock()
			go func() {
				var args map[string]any
				b, _ := protojson.Marshal(call.GetArguments())
				_ = json.Unmarshal(b, &args)
				out, toolErr := tools[call.GetName()](args)
				res := &runsvcv1.ServeToolsRequest_Result{CallId: call.GetCallId(), Error: toolErr}
				if toolErr == nil {
					v, err := structpb.NewValue(out)
					if err != nil {
						res.Error = &runsvcv1.ToolError{Message: err.Error()}
					}
					res.Output = v
				}
				sendMu.Lock()
				defer sendMu.Unlock()
				_ = stream.Send(&runsvcv1.ServeToolsRequest{Message: &runsvcv1.ServeToolsRequest_Result_{Result: res}})
			}()
			return true
		})
	}()
	t.Cleanup(w.Stop)
	return w
}
