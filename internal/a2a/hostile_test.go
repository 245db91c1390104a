package a2a_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// hostile is one raw request to the A2A surface.
type hostile struct {
	name, method, path, body string
	header                   []string
}

// hostileRPC are JSON-RPC bodies sent to /a2a/echo.
var hostileRPC = []hostile{
	{name: "malformed JSON", body: `{"jsonrpc": "2.0",`},
	{name: "a batch", body: `[{"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": "x"}}]`},
	{name: "not JSON at all", body: "\x00\x01garbage"},
	{name: "no jsonrpc", body: `{"id": 1, "method": "GetTask", "params": {"id": "x"}}`},
	{name: "an object id", body: `{"jsonrpc": "2.0", "id": {"a": 1}, "method": "GetTask", "params": {"id": "x"}}`},
	{name: "no method", body: `{"jsonrpc": "2.0", "id": 1}`},
	{name: "an unknown method", body: `{"jsonrpc": "2.0", "id": 1, "method": "DropTables", "params": {}}`},
	{name: "params of a wrong type", body: `{"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {"message": 5}}`},
	{name: "params as an array", body: `{"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": ["x"]}`},
	{name: "an unknown param", body: `{"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": "x", "bogus": 1}}`},
	{name: "a message without parts", body: `{"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {"message": {"messageId": "h1", "role": "ROLE_USER", "parts": []}}}`},
	{name: "an empty part", body: `{"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {"message": {"messageId": "h2", "role": "ROLE_USER", "parts": [{}]}}}`},
	{name: "raw bytes", body: `{"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {"message": {"messageId": "h3", "parts": [{"raw": "AAAA"}]}}}`},
	{name: "a context id past the limit", body: `{"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {"message": {"messageId": "h4", "contextId": "` + strings.Repeat("c", 1000) + `", "parts": [{"text": "x"}]}}}`},
	{name: "a huge message id", body: `{"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": "` + strings.Repeat("r", 100000) + `"}}`},
	{name: "nesting past any limit", body: `{"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {"message": {"messageId": "h5", "parts": [{"data": ` + strings.Repeat("[", 20000) + `}]}}}`},
	{name: "a 20 MB body", body: `{"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {"message": {"messageId": "h6", "parts": [{"text": "` + strings.Repeat("a", 20<<20) + `"}]}}}`},
	{name: "a NUL in a task id", body: `{"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": "run\u0000x"}}`},
	{name: "a traversal task id", body: `{"jsonrpc": "2.0", "id": 1, "method": "CancelTask", "params": {"id": "../../etc/passwd"}}`},
	{name: "a page size past the limit", body: `{"jsonrpc": "2.0", "id": 1, "method": "ListTasks", "params": {"pageSize": 100000}}`},
	{name: "an unknown state", body: `{"jsonrpc": "2.0", "id": 1, "method": "ListTasks", "params": {"status": "TASK_STATE_BOGUS"}}`},
	{name: "a bad page token", body: `{"jsonrpc": "2.0", "id": 1, "method": "ListTasks", "params": {"pageToken": "!!!"}}`},
	{name: "a stream of an unknown task", body: `{"jsonrpc": "2.0", "id": 1, "method": "SubscribeToTask", "params": {"id": "run_nope"}}`},
	{name: "a version from the future", body: `{"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": "x"}}`, header: []string{"A2A-Version", "9.9"}},
	{name: "output modes runsvc lacks", body: `{"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {"message": {"messageId": "h7", "parts": [{"text": "x"}]}, "configuration": {"acceptedOutputModes": ["image/png"]}}}`},
}

// hostileREST are requests to the HTTP+JSON binding and the cards.
var hostileREST = []hostile{
	{name: "malformed JSON", method: "POST", path: "/a2a/echo/rest/message:send", body: `{"message":`},
	{name: "text/plain", method: "POST", path: "/a2a/echo/rest/message:send", body: `{}`, header: []string{"Content-Type", "text/plain"}},
	{name: "a 20 MB body", method: "POST", path: "/a2a/echo/rest/message:stream", body: `{"message": {"parts": [{"text": "` + strings.Repeat("a", 20<<20) + `"}]}}`},
	{name: "an unknown field", method: "POST", path: "/a2a/echo/rest/message:send", body: `{"mesage": {}}`},
	{name: "a bad page size", method: "GET", path: "/a2a/echo/rest/tasks?pageSize=abc"},
	{name: "a negative history", method: "GET", path: "/a2a/echo/rest/tasks/run_x?historyLength=-1"},
	{name: "a bad boolean", method: "GET", path: "/a2a/echo/rest/tasks?includeArtifacts=maybe"},
	{name: "a NUL in a task id", method: "GET", path: "/a2a/echo/rest/tasks/run%00x"},
	{name: "path traversal", method: "GET", path: "/a2a/echo/rest/tasks/../../etc/passwd"},
	{name: "path traversal, escaped", method: "GET", path: "/a2a/echo/rest/tasks/..%2F..%2Fetc%2Fpasswd"},
	{name: "an unknown verb", method: "POST", path: "/a2a/echo/rest/tasks/run_x:explode"},
	{name: "a wrong method", method: "DELETE", path: "/a2a/echo/rest/tasks/run_x"},
	{name: "an unknown route", method: "GET", path: "/a2a/echo/rest/nothing"},
	{name: "no agent", method: "GET", path: "/a2a/"},
	{name: "an agent that does not exist", method: "GET", path: "/a2a/nobody/rest/tasks"},
	{name: "a traversal agent's card", method: "GET", path: "/a2a/%2e%2e/.well-known/agent-card.json"},
	{name: "a card by POST", method: "POST", path: "/a2a/echo/.well-known/agent-card.json", body: `{}`},
	{name: "the root card by POST", method: "POST", path: "/.well-known/agent-card.json", body: `{}`},
	{name: "JSON-RPC by GET", method: "GET", path: "/a2a/echo"},
	{name: "a subscription to an unknown task", method: "GET", path: "/a2a/echo/rest/tasks/run_nope:subscribe"},
	{name: "a version from the past", method: "GET", path: "/a2a/echo/rest/tasks", header: []string{"A2A-Version", "0.3"}},
}

// TestHostile: hostile input to the Agent Cards and both bindings never
// gets INTERNAL (nor an HTTP 500, nor a JSON-RPC -32603), and every error
// carries an ErrorInfo.
func TestHostile(t *testing.T) {
	s := testserver.Start(t, testserver.WithHTTP())
	publish(t, s, "", echoSpec)
	for _, h := range hostileRPC {
		t.Run("JSONRPC/"+h.name, func(t *testing.T) {
			r := do(t, http.MethodPost, s.HTTPURL+"/a2a/echo", "", h.body, h.header...)
			if r.code == http.StatusInternalServerError {
				t.Fatalf("HTTP %d: %.300s", r.code, r.body)
			}
			body := r.body
			if strings.HasPrefix(r.header.Get("Content-Type"), "text/event-stream") {
				_, data, _ := strings.Cut(string(r.body), "data: ")
				body = []byte(strings.TrimSpace(data))
			}
			code, reason, _ := rpcError(t, reply{code: r.code, body: body})
			if code == -32603 || reason == "" || reason == "INTERNAL" {
				t.Errorf("JSON-RPC error %d %q: %.300s", code, reason, r.body)
			}
		})
	}
	for _, h := range hostileREST {
		t.Run("REST/"+h.name, func(t *testing.T) {
			r := do(t, h.method, s.HTTPURL+h.path, "", h.body, h.header...)
			if h.path == "/a2a/echo" {
				if code, reason, _ := rpcError(t, r); code == -32603 || reason == "" {
					t.Errorf("JSON-RPC error %d %q", code, reason)
				}
				return
			}
			if r.code < 400 || r.code == http.StatusInternalServerError {
				t.Fatalf("HTTP %d, want an error that is not INTERNAL: %.300s", r.code, r.body)
			}
			if reason, _ := restError(t, r); reason == "" || reason == "INTERNAL" {
				t.Errorf("reason %q: %.300s", reason, r.body)
			}
		})
	}
}

// TestHostileCredentials: with a keys file, every surface of an agent
// (the root and the agent's card, JSON-RPC, HTTP+JSON) refuses a missing,
// empty, unknown, oversized or malformed credential UNAUTHENTICATED: HTTP
// 401, or a JSON-RPC error in an HTTP 200 (400 and 431 where HTTP itself
// refuses the header), never a 5xx or INTERNAL.
func TestHostileCredentials(t *testing.T) {
	ts := startTenants(t)
	base := ts.srv.HTTPURL
	surfaces := []struct{ name, method, path, body string }{
		{"the root card", http.MethodGet, "/.well-known/agent-card.json", ""},
		{"the agent's card", http.MethodGet, "/a2a/echo/.well-known/agent-card.json", ""},
		{"JSON-RPC", http.MethodPost, "/a2a/echo", `{"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": "x"}}`},
		{"HTTP+JSON", http.MethodGet, "/a2a/echo/rest/tasks", ""},
	}
	credentials := map[string]string{
		"none": "", "an empty bearer": "Bearer ", "an unknown key": "Bearer sk-not-a-key-of-anyone",
		"basic": "Basic dXNlcjpwYXNz", "no scheme": ts.acme, "a 64 KB key": "Bearer " + strings.Repeat("k", 64<<10),
		"a NUL in the key": "Bearer a\x00b", "two keys": "Bearer " + ts.acme + " " + ts.other,
	}
	for _, s := range surfaces {
		for name, cred := range credentials {
			t.Run(s.name+"/"+name, func(t *testing.T) {
				req, err := http.NewRequestWithContext(testserver.Context(t), s.method, base+s.path, strings.NewReader(s.body))
				if err != nil {
					t.Fatal(err)
				}
				req.Header.Set("Content-Type", "application/json")
				if cred != "" {
					req.Header["Authorization"] = []string{cred}
				}
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					return // Go's client will not send it
				}
				b, _ := io.ReadAll(res.Body)
				_ = res.Body.Close()
				// JSON-RPC answers its errors in an HTTP 200.
				want := http.StatusUnauthorized
				if s.name == "JSON-RPC" {
					want = http.StatusOK
				}
				switch res.StatusCode {
				case want:
				case http.StatusBadRequest, http.StatusRequestHeaderFieldsTooLarge:
					return // refused by HTTP before runsvc reads it
				default:
					t.Fatalf("HTTP %d, want %d: %.300s", res.StatusCode, want, b)
				}
				r := reply{code: res.StatusCode, header: res.Header, body: b}
				reason := ""
				if s.name == "JSON-RPC" {
					_, reason, _ = rpcError(t, r)
				} else {
					reason, _ = restError(t, r)
				}
				if reason != "UNAUTHENTICATED" {
					t.Errorf("reason %q, want UNAUTHENTICATED: %.300s", reason, b)
				}
			})
		}
	}
}
