package replicas_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
	"github.com/runsvc/runsvc/internal/testing/blackbox"
	"github.com/runsvc/runsvc/internal/testing/testserver"
	"github.com/runsvc/runsvc/internal/tool/mcptool"
)

// keyLog records the idempotency key of every attempt a tool saw, and
// holds each key's first attempt until release is closed, so that the
// attempt is in flight when its replica dies.
type keyLog struct {
	mu      sync.Mutex
	keys    map[string][]string // by tool
	held    chan string
	release chan struct{}
	opened  sync.Once
}

func newKeyLog() *keyLog {
	return &keyLog{keys: map[string][]string{}, held: make(chan string, 16), release: make(chan struct{})}
}

// open releases the held attempts.
func (k *keyLog) open() { k.opened.Do(func() { close(k.release) }) }

// seen records an attempt of tool with key and holds it if it is the
// key's first.
func (k *keyLog) seen(ctx context.Context, tool, key string) {
	k.mu.Lock()
	first := true
	for _, other := range k.keys[tool] {
		first = first && other != key
	}
	k.keys[tool] = append(k.keys[tool], key)
	k.mu.Unlock()
	if first {
		k.held <- tool
		select {
		case <-k.release:
		case <-ctx.Done():
		}
	}
}

func (k *keyLog) of(tool string) []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return append([]string(nil), k.keys[tool]...)
}

// keyTools serves the http tool (keys from Idempotency-Key, which must
// equal Runsvc-Call-Id) and the MCP tool (keys from tools/call `_meta`).
func keyTools(t *testing.T, k *keyLog) (httpURL, mcpURL string) {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "keys", Version: "v0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "k_mcp"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		key, _ := req.Params.GetMeta()[mcptool.MetaIdempotencyKey].(string)
		k.seen(ctx, "k_mcp", key)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "mcp done"}}}, nil, nil
	})
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	mux.HandleFunc("/http", func(w http.ResponseWriter, r *http.Request) {
		key := r.Header.Get("Idempotency-Key")
		if key != r.Header.Get("Runsvc-Call-Id") {
			t.Errorf("Idempotency-Key %q, Runsvc-Call-Id %q: want them equal", key, r.Header.Get("Runsvc-Call-Id"))
		}
		k.seen(r.Context(), "k_http", key)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`"http done"`))
	})
	hs := httptest.NewServer(mux)
	t.Cleanup(hs.Close)
	t.Cleanup(k.open) // first: Close waits for the held requests
	return hs.URL + "/http", hs.URL + "/mcp"
}

// TestIdempotencyKeyAcrossTakeover is issue 20's "the idempotency key is
// identical across all attempts of a call, including across takeover by
// another replica on PostgreSQL": replica A is SIGKILLed while an http,
// an MCP and a worker call are each in flight; replica B takes the Runs
// over and makes each call again, with the same key, which is the
// Run's id and the call's id.
func TestIdempotencyKeyAcrossTakeover(t *testing.T) {
	cluster := pgtest.Start(t)
	args := func(id string) []string {
		return []string{"--store", cluster.DSN(), "--lease-ttl", "2s", "--worker-id", id}
	}
	k := newKeyLog()
	httpURL, mcpURL := keyTools(t, k)
	a := blackbox.Serve(t, blackbox.FreePort(t), args("replica-a")...)
	connA := a.Dial(t)
	work := func(map[string]any) (any, *runsvcv1.ToolError) { return "worker done", nil }
	held := func(map[string]any) (any, *runsvcv1.ToolError) {
		k.held <- "k_worker"
		<-k.release
		return "worker done", nil
	}
	workerA := testserver.StartWorker(t, runsvcv1.NewToolServiceClient(connA), "worker-a", map[string]testserver.ToolFunc{"k_worker": held})
	tools := map[string]string{
		"k_http":   fmt.Sprintf(`"kind": "TOOL_KIND_HTTP", "http": {"url": %q}`, httpURL),
		"k_mcp":    fmt.Sprintf(`"kind": "TOOL_KIND_MCP", "mcp": {"url": %q}`, mcpURL),
		"k_worker": `"kind": "TOOL_KIND_WORKER"`,
	}
	ids := map[string]string{}
	for tool, decl := range tools {
		testserver.Publish(t, runsvcv1.NewSpecServiceClient(connA), fmt.Sprintf(`{"name": %q, "model": {"provider": "scripted", "script": {"turns": [
		  {"toolCalls": [{"name": %q, "arguments": {}}]}, {"text": "done"}]}},
		  "tools": [{"name": %q, %s}], "limits": {"transientRetryBudget": 100}}`, tool, tool, tool, decl))
		resp, err := runsvcv1.NewRunServiceClient(connA).StartRun(testserver.Context(t), &runsvcv1.StartRunRequest{Spec: tool, Input: "go"})
		if err != nil {
			t.Fatal(err)
		}
		ids[tool] = resp.GetRun().GetRunId()
	}
	for range tools {
		select {
		case <-k.held:
		case <-time.After(time.Minute):
			t.Fatal("not every call reached its tool on replica A")
		}
	}
	// Every Run is leased by A, so B, started now, can only take them over.
	b := blackbox.Serve(t, blackbox.FreePort(t), args("replica-b")...)
	connB := b.Dial(t)
	workerB := testserver.StartWorker(t, runsvcv1.NewToolServiceClient(connB), "worker-b", map[string]testserver.ToolFunc{"k_worker": work})
	a.Kill()
	k.open()
	runsB := runsvcv1.NewRunServiceClient(connB)
	for tool, id := range ids {
		t.Run(tool, func(t *testing.T) {
			run := waitSettled(t, runsB, id)
			if run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED {
				t.Fatalf("run settled %v: %v", run.GetState(), run.GetFailure())
			}
			var ranOn []string
			for _, r := range testserver.Records(t, runsB, id) {
				if s := r.GetAttemptStarted(); s != nil {
					ranOn = append(ranOn, s.GetWorkerId())
				}
			}
			if fmt.Sprint(ranOn) != "[replica-a replica-b]" {
				t.Errorf("attempts ran on %v, want replica-a then replica-b", ranOn)
			}
			key := id + "/call_1_1"
			if tool == "k_worker" {
				// Each worker counts the calls it got by call id.
				if onA, onB := workerA.Received(key), workerB.Received(key); onA != 1 || onB != 1 {
					t.Errorf("the worker on A got call id %q %d times, the one on B %d times: want once each", key, onA, onB)
				}
				return
			}
			if keys := k.of(tool); fmt.Sprint(keys) != fmt.Sprint([]string{key, key}) {
				t.Errorf("keys of the attempts %q, want %q twice", keys, key)
			}
		})
	}
}
