package mcpserver_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// hostileMCP is a raw request to the MCP endpoint; session says whether
// it carries the Mcp-Session-Id of an initialized session.
type hostileMCP struct {
	name, method, contentType, body string
	session                         bool
}

func rpc(method, params string) string {
	return `{"jsonrpc": "2.0", "id": 7, "method": "` + method + `", "params": ` + params + `}`
}

var hostileCorpus = []hostileMCP{
	{"malformed JSON", "POST", "application/json", `{"jsonrpc": "2.0",`, true},
	{"not JSON at all", "POST", "application/json", "\x00\x01\x02garbage", true},
	{"invalid UTF-8", "POST", "application/json", rpc("tools/call", "{\"name\": \"\xff\xfe\", \"arguments\": {}}"), true},
	{"nesting past any limit", "POST", "application/json", rpc("tools/call", `{"name": "helper", "arguments": {"message": `+strings.Repeat("[", 20000)+`}}`), true},
	{"a 5 MB message", "POST", "application/json", rpc("tools/call", `{"name": "helper", "arguments": {"message": "`+strings.Repeat("a", 5<<20)+`"}}`), true},
	{"a 20 MB body", "POST", "application/json", rpc("tools/call", `{"name": "helper", "arguments": {"message": "`+strings.Repeat("a", 20<<20)+`"}}`), true},
	{"a message that is a number", "POST", "application/json", rpc("tools/call", `{"name": "helper", "arguments": {"message": 5}}`), true},
	{"arguments that are an array", "POST", "application/json", rpc("tools/call", `{"name": "helper", "arguments": [1, 2]}`), true},
	{"an unknown argument", "POST", "application/json", rpc("tools/call", `{"name": "helper", "arguments": {"mesage": "x"}}`), true},
	{"an unknown tool", "POST", "application/json", rpc("tools/call", `{"name": "nothing", "arguments": {}}`), true},
	{"another tenant's Spec name", "POST", "application/json", rpc("tools/call", `{"name": "hidden", "arguments": {"message": "x"}}`), true},
	{"a NUL in the tool name", "POST", "application/json", rpc("tools/call", `{"name": "help\u0000er", "arguments": {}}`), true},
	{"a traversal tool name", "POST", "application/json", rpc("tools/call", `{"name": "../../etc/passwd", "arguments": {}}`), true},
	{"params that are a string", "POST", "application/json", rpc("tools/call", `"helper"`), true},
	{"an unknown method", "POST", "application/json", rpc("tools/destroy", `{}`), true},
	{"a batch", "POST", "application/json", `[` + rpc("tools/list", `{}`) + `, ` + rpc("ping", `{}`) + `]`, true},
	{"a response nobody asked for", "POST", "application/json", `{"jsonrpc": "2.0", "id": 99, "result": {}}`, true},
	{"a huge id", "POST", "application/json", `{"jsonrpc": "2.0", "id": "` + strings.Repeat("9", 1<<20) + `", "method": "ping"}`, true},
	{"a second initialize", "POST", "application/json", rpc("initialize", `{"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "x", "version": "1"}}`), true},
	{"a call without a session", "POST", "application/json", rpc("tools/call", `{"name": "helper", "arguments": {}}`), false},
	{"text/plain", "POST", "text/plain", rpc("tools/list", `{}`), true},
	{"a form", "POST", "application/x-www-form-urlencoded", "a=b", true},
	{"an empty body", "POST", "application/json", "", true},
	{"a PUT", "PUT", "application/json", rpc("tools/list", `{}`), true},
	{"a GET without a session", "GET", "", "", false},
	{"a DELETE without a session", "DELETE", "", "", false},
}

// TestHostile: hostile input to the MCP endpoint never gets an HTTP 5xx,
// a JSON-RPC internal error, or a tool error saying INTERNAL; the server
// answers a well-formed call afterwards.
func TestHostile(t *testing.T) {
	s := testserver.Start(t, testserver.WithMCP())
	for _, sp := range Specs[:2] {
		s.Publish(t, sp)
	}
	url := s.MCPURL + "/mcp"
	session := initialize(t, url)
	for _, h := range hostileCorpus {
		t.Run(h.name, func(t *testing.T) {
			r, err := http.NewRequestWithContext(testserver.Context(t), h.method, url, strings.NewReader(h.body))
			if err != nil {
				t.Fatal(err)
			}
			if h.contentType != "" {
				r.Header.Set("Content-Type", h.contentType)
			}
			r.Header.Set("Accept", "application/json, text/event-stream")
			if h.session {
				r.Header.Set("Mcp-Session-Id", session)
				r.Header.Set("Mcp-Protocol-Version", "2025-11-25")
			}
			checkNotInternal(t, r)
		})
	}
	t.Run("still serving", func(t *testing.T) {
		r, _ := http.NewRequestWithContext(testserver.Context(t), "POST", url, strings.NewReader(rpc("tools/call", `{"name": "helper", "arguments": {"message": "hi"}}`)))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		r.Header.Set("Mcp-Session-Id", session)
		r.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		if body := checkNotInternal(t, r); !strings.Contains(body, "Glad to help.") {
			t.Fatalf("a call after the corpus: %s", body)
		}
	})
}

// TestHostileAuth: hostile credentials are refused, never a 5xx.
func TestHostileAuth(t *testing.T) {
	k := startKeyed(t)
	url := k.srv.MCPURL + "/mcp"
	for name, header := range map[string]string{
		"empty bearer": "Bearer ", "a 1 MB key": "Bearer " + strings.Repeat("k", 1<<20), "basic": "Basic dXNlcjpwYXNz",
		"a NUL in the key": "Bearer a\x00b", "no scheme": k.keys["acme/admin"],
	} {
		t.Run(name, func(t *testing.T) {
			r, _ := http.NewRequestWithContext(testserver.Context(t), "POST", url, strings.NewReader(rpc("initialize", `{"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "x", "version": "1"}}`)))
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("Accept", "application/json, text/event-stream")
			r.Header["Authorization"] = []string{header}
			resp, err := http.DefaultClient.Do(r)
			if err != nil {
				return // the client would not send it
			}
			_ = resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusBadRequest && resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
				t.Fatalf("HTTP %d, want 401", resp.StatusCode)
			}
		})
	}
}

// initialize opens a session over raw HTTP and returns its id.
func initialize(t *testing.T, url string) string {
	t.Helper()
	r, _ := http.NewRequestWithContext(testserver.Context(t), "POST", url, strings.NewReader(rpc("initialize", `{"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "hostile", "version": "1"}}`)))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	id := resp.Header.Get("Mcp-Session-Id")
	note, _ := http.NewRequestWithContext(testserver.Context(t), "POST", url, strings.NewReader(`{"jsonrpc": "2.0", "method": "notifications/initialized"}`))
	note.Header.Set("Content-Type", "application/json")
	note.Header.Set("Accept", "application/json, text/event-stream")
	note.Header.Set("Mcp-Session-Id", id)
	note.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	if resp, err := http.DefaultClient.Do(note); err == nil {
		_ = resp.Body.Close()
	}
	if id == "" {
		t.Fatalf("initialize: HTTP %d and no session id", resp.StatusCode)
	}
	return id
}

// checkNotInternal sends r and fails on a 5xx, a JSON-RPC internal error
// (-32603) or a result that says INTERNAL; it returns the messages.
func checkNotInternal(t *testing.T, r *http.Request) string {
	t.Helper()
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode >= 500 {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
		t.Fatalf("HTTP %d: %s", resp.StatusCode, b)
	}
	var all strings.Builder
	for _, msg := range messages(resp) {
		all.WriteString(msg + "\n")
		var m struct {
			Error *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal([]byte(msg), &m) == nil && m.Error != nil && m.Error.Code == -32603 {
			t.Fatalf("a JSON-RPC internal error: %s", msg)
		}
		if strings.Contains(msg, "INTERNAL") {
			t.Fatalf("an answer saying INTERNAL: %.500s", msg)
		}
	}
	return all.String()
}

// messages are the JSON-RPC messages of a response: its JSON body, or the
// data of its SSE events.
func messages(resp *http.Response) []string {
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		return []string{string(b)}
	}
	var out []string
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 4<<20)
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			out = append(out, data)
			if strings.Contains(data, `"id":`) && (strings.Contains(data, `"result"`) || strings.Contains(data, `"error"`)) {
				break
			}
		}
	}
	return out
}
