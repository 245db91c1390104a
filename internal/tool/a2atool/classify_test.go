package a2atool_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/netpolicy"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/tool/a2atool"
)

// answers is an agent that answers every request with status and body.
func answers(t *testing.T, status int, body string, header ...string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func rpcErr(code int, msg, reason string) string {
	data := ""
	if reason != "" {
		data = `, "data": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "` + reason + `", "domain": "a2a-protocol.org"}]`
	}
	return `{"jsonrpc": "2.0", "id": 1, "error": {"code": ` + strconv.Itoa(code) + `, "message": "` + msg + `"` + data + `}}`
}

func task(state, text string) string {
	msg := ""
	if text != "" {
		msg = `, "message": {"messageId": "s1", "role": "ROLE_AGENT", "parts": [{"text": "` + text + `"}]}`
	}
	return `{"jsonrpc": "2.0", "id": 1, "result": {"task": {"id": "t1", "contextId": "c1", "status": {"state": "` + state + `"` + msg + `}}}}`
}

// TestClassification: how each answer of an agent (or none) is sorted:
// unreachable, 408, 429 and 5xx and JSON-RPC's internal error are
// transient (the engine retries them, with Retry-After); JSON-RPC and A2A
// errors and HTTP 4xx are rejections (never retried), with the A2A reason
// in the message; a task's FAILED is TOOL_FAILED, its REJECTED, CANCELED
// and AUTH_REQUIRED TOOL_REJECTED.
func TestClassification(t *testing.T) {
	tests := []struct {
		name      string
		status    int
		body      string
		header    []string
		binding   string
		want      string // the error's type
		contains  string
		retryWait time.Duration
	}{
		{name: "503 with Retry-After", status: 503, body: `{}`, header: []string{"Retry-After", "7"}, want: "*errs.TransientFailure", retryWait: 7 * time.Second},
		{name: "500", status: 500, body: `oops`, want: "*errs.TransientFailure"},
		{name: "429", status: 429, body: `{}`, want: "*errs.TransientFailure"},
		{name: "408", status: 408, body: `{}`, want: "*errs.TransientFailure"},
		{name: "401", status: 401, body: `{}`, want: "*errs.ToolRejected", contains: "401"},
		{name: "404 HTTP+JSON TASK_NOT_FOUND", status: 404, binding: spec.A2ABindingHTTPJSON, want: "*errs.ToolRejected", contains: "TASK_NOT_FOUND",
			body: `{"error": {"code": 404, "status": "NOT_FOUND", "message": "Task not found", "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "TASK_NOT_FOUND", "domain": "a2a-protocol.org"}]}}`},
		{name: "JSON-RPC internal error", status: 200, body: rpcErr(-32603, "boom", ""), want: "*errs.TransientFailure"},
		{name: "JSON-RPC invalid params", status: 200, body: rpcErr(-32602, "bad", ""), want: "*errs.ToolRejected", contains: "-32602"},
		{name: "JSON-RPC method not found", status: 200, body: rpcErr(-32601, "no", ""), want: "*errs.ToolRejected"},
		{name: "A2A unsupported operation", status: 200, body: rpcErr(-32004, "terminal", "UNSUPPORTED_OPERATION"), want: "*errs.ToolRejected", contains: "UNSUPPORTED_OPERATION"},
		{name: "A2A content type not supported", status: 200, body: rpcErr(-32005, "no text", "CONTENT_TYPE_NOT_SUPPORTED"), want: "*errs.ToolRejected"},
		{name: "A2A version not supported", status: 200, body: rpcErr(-32009, "1.0?", "VERSION_NOT_SUPPORTED"), want: "*errs.ToolRejected"},
		{name: "A2A invalid agent response", status: 200, body: rpcErr(-32006, "garbled", "INVALID_AGENT_RESPONSE"), want: "*errs.ToolFailed"},
		{name: "not JSON-RPC", status: 200, body: `<html>`, want: "*errs.ToolRejected"},
		{name: "task failed", status: 200, body: task("TASK_STATE_FAILED", "out of paper"), want: "*errs.ToolFailed", contains: "out of paper"},
		{name: "task rejected", status: 200, body: task("TASK_STATE_REJECTED", "no"), want: "*errs.ToolRejected", contains: "rejected"},
		{name: "task canceled", status: 200, body: task("TASK_STATE_CANCELED", ""), want: "*errs.ToolRejected", contains: "canceled"},
		{name: "task needs auth", status: 200, body: task("TASK_STATE_AUTH_REQUIRED", ""), want: "*errs.ToolRejected", contains: "authentication"},
		{name: "task in an unknown state", status: 200, body: task("TASK_STATE_DREAMING", ""), want: "*errs.ToolRejected"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := answers(t, tt.status, tt.body, tt.header...)
			_, err := a2atool.New(nil).Execute(context.Background(), call("c", "hi", spec.A2ATool{URL: srv.URL, Binding: tt.binding}))
			if got := typeName(err); got != tt.want {
				t.Fatalf("error %v (%s), want %s", err, got, tt.want)
			}
			if !strings.Contains(err.Error(), tt.contains) {
				t.Errorf("error %q does not name %q", err, tt.contains)
			}
			if delay, retryable := errs.IsRetryable(err); tt.want == "*errs.TransientFailure" && (!retryable || delay != tt.retryWait) {
				t.Errorf("IsRetryable = %s, %v; want %s, true", delay, retryable, tt.retryWait)
			}
		})
	}
}

// TestUnreachable: an agent nobody listens for is transient; a dial the
// network policy refuses is ACCESS_DENIED and reaches nothing.
func TestUnreachable(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := lis.Addr().String()
	_ = lis.Close()
	_, err = a2atool.New(nil).Execute(context.Background(), call("c", "hi", spec.A2ATool{URL: "http://" + addr + "/a2a"}))
	if got := typeName(err); got != "*errs.TransientFailure" {
		t.Errorf("nobody listening: %v, want a transient failure", err)
	}
	srv := answers(t, 200, task("TASK_STATE_COMPLETED", "hi"))
	pol, _ := netpolicy.Parse([]string{"10.0.0.0/8"})
	x := a2atool.New(&http.Client{Transport: pol.Transport()})
	_, err = x.Execute(context.Background(), call("c", "hi", spec.A2ATool{CardURL: srv.URL + "/card"}))
	var denied *errs.AccessDenied
	if !errors.As(err, &denied) {
		t.Errorf("a refused network: %v, want ACCESS_DENIED", err)
	}
}

// TestBearerAndCard: the credential goes as a bearer token and never
// comes back in an error; a card without the tool's binding is a
// rejection.
func TestBearerAndCard(t *testing.T) {
	var auth, version string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth, version = r.Header.Get("Authorization"), r.Header.Get("A2A-Version")
		if r.URL.Path == "/card" {
			_, _ = w.Write([]byte(`{"supportedInterfaces": [{"url": "http://x/rest", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"}]}`))
			return
		}
		_, _ = w.Write([]byte(rpcErr(-32602, "bad token s3cret", "")))
	}))
	t.Cleanup(srv.Close)
	c := call("c", "hi", spec.A2ATool{URL: srv.URL})
	c.Credential = "s3cret"
	_, err := a2atool.New(nil).Execute(context.Background(), c)
	if auth != "Bearer s3cret" || version != "1.0" {
		t.Errorf("headers Authorization %q, A2A-Version %q", auth, version)
	}
	if err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("error %v, want one without the credential", err)
	}
	_, err = a2atool.New(nil).Execute(context.Background(), call("c", "hi", spec.A2ATool{CardURL: srv.URL + "/card"}))
	if typeName(err) != "*errs.ToolRejected" || !strings.Contains(err.Error(), "no JSONRPC interface") {
		t.Errorf("a card without JSON-RPC: %v", err)
	}
}
