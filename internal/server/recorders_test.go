package server_test

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// recordingWorker is a worker on ServeTools that registers definitions
// with descriptions and schemas, answers every call {"ok": true}, and
// keeps the call ids it received.
type recordingWorker struct {
	mu  sync.Mutex
	ids []string
}

func startRecordingWorker(t *testing.T, srv *testserver.Server, defs ...*runsvcv1.ToolDefinition) *recordingWorker {
	t.Helper()
	stream, err := srv.Tools.ServeTools(testserver.Context(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := testserver.Register(stream, &runsvcv1.ServeToolsRequest_Register{WorkerName: "recorder", Tools: defs}); err != nil {
		t.Fatal(err)
	}
	w := &recordingWorker{}
	go testserver.ServeCalls(stream, func(call *runsvcv1.ServeToolsResponse_Call) bool {
		w.mu.Lock()
		w.ids = append(w.ids, call.GetCallId())
		w.mu.Unlock()
		out, _ := structpb.NewValue(map[string]any{"ok": true})
		res := &runsvcv1.ServeToolsRequest_Result{CallId: call.GetCallId(), Output: out}
		return stream.Send(&runsvcv1.ServeToolsRequest{Message: &runsvcv1.ServeToolsRequest_Result_{Result: res}}) == nil
	})
	return w
}

// IDs returns the call ids the worker received.
func (w *recordingWorker) IDs() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.ids...)
}

// recordingHTTPTool is an http tool on 127.0.0.1 that keeps the call ids
// (Runsvc-Call-Id) of the calls it receives.
type recordingHTTPTool struct {
	URL   string
	mu    sync.Mutex
	ids   []string
	calls atomic.Int32
}

func startRecordingHTTPTool(t *testing.T) *recordingHTTPTool {
	h := &recordingHTTPTool{}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.calls.Add(1)
		h.mu.Lock()
		h.ids = append(h.ids, r.Header.Get("Runsvc-Call-Id"))
		h.mu.Unlock()
		_, _ = w.Write([]byte(`{"ok": true}`))
	}))
	t.Cleanup(ts.Close)
	h.URL = ts.URL
	return h
}

// IDs returns the call ids the tool received.
func (h *recordingHTTPTool) IDs() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.ids...)
}

// mustStruct is a JSON object as a Struct.
func mustStruct(t *testing.T, js string) *structpb.Struct {
	t.Helper()
	s := &structpb.Struct{}
	if err := protojson.Unmarshal([]byte(js), s); err != nil {
		t.Fatal(err)
	}
	return s
}
