package server_test

import (
	"encoding/json"
	"fmt"
	"io"
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

// fakeCall is a tool call a fake OpenAI turn asks for.
type fakeCall struct {
	ID, Name, Args string
}

// fakeTurn is one response of the fake OpenAI server.
type fakeTurn struct {
	Text  string
	Calls []fakeCall
}

// fakeOpenAI is an OpenAI-compatible chat-completions server on 127.0.0.1
// that answers the i-th request with turns[i] (the last one once they run
// out) and keeps every request body. It streams (SSE) when asked to.
type fakeOpenAI struct {
	URL      string
	mu       sync.Mutex
	requests []map[string]any
}

func startFakeOpenAI(t *testing.T, turns ...fakeTurn) *fakeOpenAI {
	t.Helper()
	f := &fakeOpenAI{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req map[string]any
		if err := json.Unmarshal(body, &req); err != nil {
			http.Error(w, `{"error":{"message":"bad json"}}`, http.StatusBadRequest)
			return
		}
		f.mu.Lock()
		f.requests = append(f.requests, req)
		turn := turns[min(len(f.requests), len(turns))-1]
		f.mu.Unlock()
		if stream, _ := req["stream"].(bool); stream {
			writeStream(w, turn)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-1", "object": "chat.completion", "created": 1764400000, "model": "fake",
			"choices": []any{map[string]any{"index": 0, "finish_reason": finish(turn), "message": turn.message(false)}},
			"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
		})
	}))
	t.Cleanup(srv.Close)
	f.URL = srv.URL + "/v1"
	return f
}

func finish(turn fakeTurn) string {
	if len(turn.Calls) > 0 {
		return "tool_calls"
	}
	return "stop"
}

// message is the turn as an assistant message, or as a stream delta.
func (turn fakeTurn) message(delta bool) map[string]any {
	m := map[string]any{"role": "assistant", "content": turn.Text}
	var calls []any
	for i, c := range turn.Calls {
		call := map[string]any{"id": c.ID, "type": "function", "function": map[string]any{"name": c.Name, "arguments": c.Args}}
		if delta {
			call["index"] = i
		}
		calls = append(calls, call)
	}
	if len(calls) > 0 {
		m["tool_calls"] = calls
	}
	return m
}

// writeStream sends the turn as chat.completion.chunk events.
func writeStream(w http.ResponseWriter, turn fakeTurn) {
	w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(v map[string]any) {
		v["id"], v["object"], v["created"], v["model"] = "chatcmpl-1", "chat.completion.chunk", 1764400000, "fake"
		b, _ := json.Marshal(v)
		_, _ = fmt.Fprintf(w, "data: %s\n\n", b)
	}
	chunk(map[string]any{"choices": []any{map[string]any{"index": 0, "delta": turn.message(true)}}})
	chunk(map[string]any{"choices": []any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": finish(turn)}}})
	chunk(map[string]any{"choices": []any{}, "usage": map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})
	_, _ = io.WriteString(w, "data: [DONE]\n\n")
}

// Requests returns the request bodies received so far.
func (f *fakeOpenAI) Requests() []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]map[string]any(nil), f.requests...)
}

// messages returns a request's messages.
func messages(req map[string]any) []map[string]any {
	raw, _ := req["messages"].([]any)
	out := make([]map[string]any, 0, len(raw))
	for _, m := range raw {
		mm, _ := m.(map[string]any)
		out = append(out, mm)
	}
	return out
}

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
