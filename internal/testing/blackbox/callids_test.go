package blackbox_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"google.golang.org/protobuf/types/known/structpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/blackbox"
	"github.com/runsvc/runsvc/internal/testing/fakeopenai"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// idWorker is a worker serving wtool that keeps the call ids it receives
// and answers them only when answer is set.
type idWorker struct {
	mu  sync.Mutex
	ids []string
}

func serveIDs(t *testing.T, tools runsvcv1.ToolServiceClient, answer bool) *idWorker {
	t.Helper()
	stream, err := tools.ServeTools(testserver.Context(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := testserver.Register(stream, &runsvcv1.ServeToolsRequest_Register{WorkerName: "ids", Tools: []*runsvcv1.ToolDefinition{{Name: "wtool"}}}); err != nil {
		t.Fatal(err)
	}
	w := &idWorker{}
	go testserver.ServeCalls(stream, func(call *runsvcv1.ServeToolsResponse_Call) bool {
		w.mu.Lock()
		w.ids = append(w.ids, call.GetCallId())
		w.mu.Unlock()
		if !answer {
			return true
		}
		res := &runsvcv1.ServeToolsRequest_Result{CallId: call.GetCallId(), Output: structpb.NewStringValue("ok")}
		return stream.Send(&runsvcv1.ServeToolsRequest{Message: &runsvcv1.ServeToolsRequest_Result_{Result: res}}) == nil
	})
	return w
}

func (w *idWorker) IDs() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.ids...)
}

// TestCallIDsSurviveTakeover: a provider that names every call call_0;
// the server is killed while the first call is at a worker. The Run's new
// owner makes that call again under the same runsvc id (it is in the
// turn's record), the next turn's call_0 gets another, and the provider
// still gets its own ids back.
func TestCallIDsSurviveTakeover(t *testing.T) {
	model := fakeopenai.Start(t,
		fakeopenai.Turn{Calls: []fakeopenai.Call{{ID: "call_0", Name: "wtool", Args: `{}`}}},
		fakeopenai.Turn{Calls: []fakeopenai.Call{{ID: "call_0", Name: "wtool", Args: `{}`}}},
		fakeopenai.Turn{Text: "done"})
	data, addr := t.TempDir(), blackbox.FreePort(t)
	args := []string{"--data", data, "--lease-ttl", "2s"}
	p := blackbox.Serve(t, addr, args...)
	conn := p.Dial(t)
	testserver.Publish(t, runsvcv1.NewSpecServiceClient(conn), fmt.Sprintf(`{"name": "repeats", "model": {"provider": "openai", "model": "fake", "baseUrl": %q},
	  "tools": [{"name": "wtool", "kind": "TOOL_KIND_WORKER"}]}`, model.URL))
	silent := serveIDs(t, runsvcv1.NewToolServiceClient(conn), false)
	resp, err := runsvcv1.NewRunServiceClient(conn).StartRun(testserver.Context(t), &runsvcv1.StartRunRequest{Spec: "repeats", Input: "go"})
	if err != nil {
		t.Fatal(err)
	}
	runID := resp.GetRun().GetRunId()
	waitUntil(t, func() bool { return len(silent.IDs()) == 1 })

	p.Kill()
	p = blackbox.Serve(t, addr, args...)
	conn = p.Dial(t)
	worker := serveIDs(t, runsvcv1.NewToolServiceClient(conn), true)
	run := waitState(t, runsvcv1.NewRunServiceClient(conn), runID, runsvcv1.RunState_RUN_STATE_COMPLETED)

	first, second := runID+"/call_1_1", runID+"/call_2_1"
	if got, want := append(silent.IDs(), worker.IDs()...), []string{first, first, second}; !slices.Equal(got, want) || run.GetAttempt() != 2 {
		t.Errorf("call ids at the workers %v after %d attempts, want %v after 2", got, run.GetAttempt(), want)
	}
	reqs := model.Requests()
	var sent []string
	for _, m := range fakeopenai.Messages(reqs[len(reqs)-1]) {
		if id, ok := m["tool_call_id"].(string); ok {
			sent = append(sent, id)
		}
	}
	if !slices.Equal(sent, []string{"call_0", "call_0"}) {
		t.Errorf("tool results sent back to the provider under ids %v, want its own [call_0 call_0]", sent)
	}
}
