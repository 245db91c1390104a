package a2a_test

import (
	"encoding/json"
	"net/http"
	"testing"
)

// TestErrorsOnEveryBinding: each A2A error type comes back on JSON-RPC
// with its A2A code and an ErrorInfo in data, and on HTTP+JSON as a
// google.rpc.Status with its HTTP status and ErrorInfo, both in the domain
// a2a-protocol.org; another tenant's task, and another agent's, is
// TASK_NOT_FOUND; runsvc's own reasons (a Spec not exposed, no key) keep
// their domain.
func TestErrorsOnEveryBinding(t *testing.T) {
	ts := startTenants(t)
	base := ts.srv.HTTPURL
	sent := rpc(t, base, "echo", ts.acme, "SendMessage", `{"message": {"messageId": "e1", "role": "ROLE_USER", "parts": [{"text": "hi"}]}}`)
	var done struct {
		Result struct {
			Task struct {
				ID     string                 `json:"id"`
				Status struct{ State string } `json:"status"`
			} `json:"task"`
		} `json:"result"`
	}
	if err := json.Unmarshal(sent.body, &done); err != nil || done.Result.Task.Status.State != "TASK_STATE_COMPLETED" {
		t.Fatalf("SendMessage: %s", sent.body)
	}
	task := done.Result.Task.ID
	file := `{"message": {"messageId": "e2", "role": "ROLE_USER", "parts": [{"url": "https://example.com/a.png", "mediaType": "image/png"}]}}`
	cases := []struct {
		reason, key, agent     string
		method, params         string // JSON-RPC
		restMethod, path, body string // HTTP+JSON, under the agent's /rest
		header                 []string
		rpcCode, httpCode      int
	}{
		{"TASK_NOT_FOUND", ts.acme, "echo", "GetTask", `{"id": "run_nope"}`, "GET", "/tasks/run_nope", "", nil, -32001, 404},
		{"TASK_NOT_FOUND", ts.other, "echo", "GetTask", `{"id": "` + task + `"}`, "GET", "/tasks/" + task, "", nil, -32001, 404},
		{"TASK_NOT_CANCELABLE", ts.acme, "echo", "CancelTask", `{"id": "` + task + `"}`, "POST", "/tasks/" + task + ":cancel", "", nil, -32002, 400},
		{"UNSUPPORTED_OPERATION", ts.acme, "echo", "SubscribeToTask", `{"id": "` + task + `"}`, "POST", "/tasks/" + task + ":subscribe", "", nil, -32004, 400},
		{"CONTENT_TYPE_NOT_SUPPORTED", ts.acme, "echo", "SendMessage", file, "POST", "/message:send", file, nil, -32005, 400},
		{"VERSION_NOT_SUPPORTED", ts.acme, "echo", "GetTask", `{"id": "` + task + `"}`, "GET", "/tasks/" + task, "", []string{"A2A-Version", "0.3"}, -32009, 400},
	}
	for _, tc := range cases {
		t.Run(tc.reason+"/JSONRPC", func(t *testing.T) {
			code, reason, domain := rpcError(t, rpc(t, base, tc.agent, tc.key, tc.method, tc.params, tc.header...))
			if code != tc.rpcCode || reason != tc.reason || domain != "a2a-protocol.org" {
				t.Errorf("JSON-RPC error %d %s/%s, want %d a2a-protocol.org/%s", code, domain, reason, tc.rpcCode, tc.reason)
			}
		})
		t.Run(tc.reason+"/HTTP+JSON", func(t *testing.T) {
			r := do(t, tc.restMethod, base+"/a2a/"+tc.agent+"/rest"+tc.path, tc.key, tc.body, tc.header...)
			reason, domain := restError(t, r)
			if r.code != tc.httpCode || reason != tc.reason || domain != "a2a-protocol.org" {
				t.Errorf("HTTP %d %s/%s, want %d a2a-protocol.org/%s", r.code, domain, reason, tc.httpCode, tc.reason)
			}
		})
	}
	t.Run("runsvc reasons", func(t *testing.T) { runsvcReasons(t, ts) })
}

// runsvcReasons: runsvc's own reasons on the A2A bindings keep runsvc's
// domain: a Spec not exposed is SPEC_NOT_FOUND, no key UNAUTHENTICATED,
// an unknown method METHOD_NOT_FOUND (JSON-RPC -32601).
func runsvcReasons(t *testing.T, ts *tenants) {
	base := ts.srv.HTTPURL
	r := do(t, http.MethodGet, base+"/a2a/hidden/.well-known/agent-card.json", ts.acme, "")
	if reason, domain := restError(t, r); r.code != 404 || reason != "SPEC_NOT_FOUND" || domain != "runsvc" {
		t.Errorf("hidden card: HTTP %d %s/%s", r.code, domain, reason)
	}
	r = do(t, http.MethodGet, base+"/a2a/echo/.well-known/agent-card.json", "", "")
	if reason, _ := restError(t, r); r.code != 401 || reason != "UNAUTHENTICATED" {
		t.Errorf("card without a key: HTTP %d %s", r.code, reason)
	}
	code, reason, domain := rpcError(t, rpc(t, base, "echo", ts.acme, "tasks/get", `{"id": "x"}`))
	if code != -32601 || reason != "METHOD_NOT_FOUND" || domain != "runsvc" {
		t.Errorf("A2A 0.3 method name: %d %s/%s", code, domain, reason)
	}
}
