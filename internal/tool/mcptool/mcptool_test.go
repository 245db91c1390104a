package mcptool_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/tool"
	"github.com/runsvc/runsvc/internal/tool/mcptool"
)

// modes are the two ways a server may serve: statelessly (the protocol
// from 2026-07-28 on) or with session ids (the 2025-11-25 handshake).
var modes = []struct {
	name      string
	stateless bool
}{
	{"stateless", true},
	{"sessions", false},
}

// zeros65537 is the SHA-256 of 65537 zero bytes.
var zeros65537 = func() string {
	sum := sha256.Sum256(make([]byte, 65537))
	return hex.EncodeToString(sum[:])
}()

func newExecutor(t *testing.T) *mcptool.Executor {
	x := mcptool.New(mcptool.Options{ClientName: "runsvc-test", ClientVersion: "v0", Commands: []string{"*"}})
	t.Cleanup(x.Close)
	return x
}

func mcpCall(url, name, args string) tool.Call {
	return tool.Call{
		RunID: "run-1", CallID: "call-1", Name: name, Arguments: json.RawMessage(args),
		Tool: spec.Tool{Name: name, Kind: spec.KindMCP, MCP: &spec.MCPTool{URL: url}},
	}
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestExecuteResults(t *testing.T) {
	for _, m := range modes {
		srv := startServer(t, m.stateless)
		x := newExecutor(t)
		tests := []struct {
			name   string
			call   tool.Call
			remote string
			want   string
		}{
			{name: "text", call: mcpCall(srv.url(), "echo", `{"text":"hello"}`), want: `"hello"`},
			{name: "text parts joined", call: mcpCall(srv.url(), "lines", `{}`), want: `"one\ntwo"`},
			{name: "structured content", call: mcpCall(srv.url(), "sum", `{"a":2,"b":3}`), want: `{"sum":5}`},
			{name: "content without text", call: mcpCall(srv.url(), "pixel", ``), want: `{"content":[{"type":"image","mimeType":"image/png","bytes":1,"data":"AQ=="}]}`},
			{name: "text, image, audio over the inline limit, resources", call: mcpCall(srv.url(), "mixed", ``), want: `{"content":[` +
				`{"type":"text","text":"see"},{"type":"image","mimeType":"image/png","bytes":4,"data":"cG5nIQ=="},` +
				`{"type":"audio","mimeType":"audio/wav","bytes":65537,"sha256":"` + zeros65537 + `","omitted":"65537 bytes, over the 65536 bytes kept inline"},` +
				`{"type":"resource","text":"note","uri":"test://notes","mimeType":"text/plain"},` +
				`{"type":"resource","uri":"test://blob","mimeType":"application/octet-stream","bytes":2,"data":"AAE="},` +
				`{"type":"resource_link","uri":"test://far","name":"far","mimeType":"text/html"}]}`},
			{name: "remote name", call: mcpCall(srv.url(), "say", `{"text":"hi"}`), remote: "echo", want: `"hi"`},
			{name: "null arguments", call: mcpCall(srv.url(), "echo", `null`), want: `""`},
			{name: "no arguments", call: mcpCall(srv.url(), "lines", ``), want: `"one\ntwo"`},
		}
		for _, tt := range tests {
			t.Run(m.name+"/"+tt.name, func(t *testing.T) {
				tt.call.Tool.MCP.RemoteName = tt.remote
				out, err := x.Execute(testContext(t), tt.call)
				if err != nil {
					t.Fatalf("Execute: %v", err)
				}
				if string(out) != tt.want {
					t.Errorf("output = %s, want %s", out, tt.want)
				}
			})
		}
	}
}

func TestExecuteFailures(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) { testFailures(t, m.stateless) })
	}
}

func testFailures(t *testing.T, stateless bool) {
	srv := startServer(t, stateless)
	base := strings.TrimSuffix(srv.url(), "/mcp")
	x := newExecutor(t)
	tests := []struct {
		name       string
		call       tool.Call
		tool       bool // *errs.ToolFailed rather than *errs.MCPFailed
		retryable  bool
		retryAfter time.Duration
		message    string
	}{
		{name: "isError", call: mcpCall(srv.url(), "fail", `{}`), tool: true, message: "disk full"},
		{name: "arguments the tool refuses", call: mcpCall(srv.url(), "sum", `{"a":"x"}`), tool: true, message: "validating"},
		{name: "unknown tool", call: mcpCall(srv.url(), "nope", `{}`), message: "unknown tool"},
		{name: "arguments not an object", call: mcpCall(srv.url(), "echo", `["hello"]`), message: "not a JSON object"},
		{name: "HTTP 503", call: mcpCall(base+"/unavailable", "echo", `{}`), retryable: true, retryAfter: 7 * time.Second, message: "503"},
		{name: "HTTP 403", call: mcpCall(base+"/forbidden", "echo", `{}`), message: "403"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := x.Execute(testContext(t), tt.call)
			kind := map[[2]bool]string{{true, true}: "ToolFailed", {true, false}: "ToolRejected", {false, true}: "MCPFailed", {false, false}: "MCPRejected"}[[2]bool{tt.tool, tt.retryable}]
			typed := errs.Typed(err)
			if errs.Kind(typed) != kind {
				t.Fatalf("error = %#v, want *errs.%s", err, kind)
			}
			meta := errs.Metadata(typed)
			if meta["tool"] != tt.call.Name || (!tt.tool && meta["server"] != tt.call.Tool.MCP.URL) {
				t.Errorf("Server, Tool = %q, %q, want %q, %q", meta["server"], meta["tool"], tt.call.Tool.MCP.URL, tt.call.Name)
			}
			msg := meta["detail"]
			if !strings.Contains(msg, tt.message) {
				t.Errorf("message = %q, want it to mention %q", msg, tt.message)
			}
			delay, retryable := errs.IsRetryable(err)
			if retryable != tt.retryable || delay != tt.retryAfter {
				t.Errorf("IsRetryable = %v, %v, want %v, %v", delay, retryable, tt.retryAfter, tt.retryable)
			}
		})
	}
}

func TestMissingServer(t *testing.T) {
	x := newExecutor(t)
	c := mcpCall("", "echo", `{}`)
	c.Tool.MCP = nil
	_, err := x.Execute(testContext(t), c)
	var ci *errs.ConfigurationInvalid
	if !errors.As(err, &ci) {
		t.Fatalf("error = %#v, want *errs.ConfigurationInvalid", err)
	}
}

func TestBearerToken(t *testing.T) {
	const secret = "s3cret-t0ken"
	tests := []struct {
		name       string
		credential string
		want       string
	}{
		{name: "sent with a credential", credential: secret, want: "Bearer " + secret},
		{name: "absent without one", credential: "", want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := startServer(t, false)
			x := newExecutor(t)
			c := mcpCall(srv.url(), "echo", `{"text":"hi"}`)
			c.Credential = tt.credential
			if _, err := x.Execute(testContext(t), c); err != nil {
				t.Fatalf("Execute: %v", err)
			}
			auth, _ := srv.seen()
			if len(auth) == 0 {
				t.Fatal("the server saw no request")
			}
			for i, got := range auth {
				if got != tt.want {
					t.Errorf("request %d: Authorization = %q, want %q", i, got, tt.want)
				}
			}
		})
	}
	t.Run("redacted when echoed", func(t *testing.T) {
		srv := startServer(t, false)
		x := newExecutor(t)
		c := mcpCall(srv.url(), "leak", `{}`)
		c.Credential = secret
		_, err := x.Execute(testContext(t), c)
		var tf *errs.ToolRejected
		if !errors.As(err, &tf) {
			t.Fatalf("error = %#v, want *errs.ToolRejected", err)
		}
		if strings.Contains(err.Error(), secret) || !strings.Contains(tf.Message, "[redacted]") {
			t.Errorf("message = %q, want the credential redacted", tf.Message)
		}
	})
}

// TestIdempotencyKey: every attempt of a call carries the same
// idempotency key in the tools/call `_meta`, which is the call's global id.
func TestIdempotencyKey(t *testing.T) {
	srv := startServer(t, false)
	tests := []struct {
		name string
		x    *mcptool.Executor
	}{
		{name: "first attempt", x: newExecutor(t)},
		{name: "again on the same executor", x: nil},
		{name: "another executor, as after a takeover", x: newExecutor(t)},
	}
	shared := tests[0].x
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := tt.x
			if x == nil {
				x = shared
			}
			out, err := x.Execute(testContext(t), mcpCall(srv.url(), "idem", `{}`))
			if err != nil {
				t.Fatalf("Execute: %v", err)
			}
			if got := string(out); got != `"run-1/call-1"` {
				t.Errorf("_meta %s = %s, want \"run-1/call-1\"", mcptool.MetaIdempotencyKey, got)
			}
		})
	}
}
