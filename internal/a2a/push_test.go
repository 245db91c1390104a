package a2a_test

import (
	"encoding/json"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/a2a"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/webhook"
)

// TestPushConfigErrors: the push-notification-config methods refuse, on
// both bindings, another tenant's task (TASK_NOT_FOUND, as for tasks), a
// URL the outbound network policy refuses (WEBHOOK_INVALID), a config
// that is not there (WEBHOOK_NOT_FOUND); an A2A surface whose store keeps
// no webhooks answers PUSH_NOTIFICATION_NOT_SUPPORTED.
func TestPushConfigErrors(t *testing.T) {
	ts := startTenants(t)
	base := ts.srv.HTTPURL
	sent := rpc(t, base, "echo", ts.acme, "SendMessage", `{"message": {"messageId": "p1", "role": "ROLE_USER", "parts": [{"text": "hi"}]}}`)
	var done struct {
		Result struct {
			Task struct{ ID string } `json:"task"`
		} `json:"result"`
	}
	if err := json.Unmarshal(sent.body, &done); err != nil || done.Result.Task.ID == "" {
		t.Fatalf("SendMessage: %s", sent.body)
	}
	task := done.Result.Task.ID
	bare := withoutPush(t, base)
	cases := []struct {
		name, base, key, method, params string
		restMethod, path, body          string
		reason                          string
		rpcCode, httpCode               int
	}{
		{"other tenant", base, ts.other, "CreateTaskPushNotificationConfig", `{"taskId": "` + task + `", "url": "https://example.com/hook"}`, "POST", "/tasks/" + task + "/pushNotificationConfigs", `{"url": "https://example.com/hook"}`, "TASK_NOT_FOUND", -32001, 404},
		{"other tenant list", base, ts.other, "ListTaskPushNotificationConfigs", `{"taskId": "` + task + `"}`, "GET", "/tasks/" + task + "/pushNotificationConfigs", "", "TASK_NOT_FOUND", -32001, 404},
		{"metadata address", base, ts.acme, "CreateTaskPushNotificationConfig", `{"taskId": "` + task + `", "url": "http://169.254.169.254/latest"}`, "POST", "/tasks/" + task + "/pushNotificationConfigs", `{"url": "http://169.254.169.254/latest"}`, "WEBHOOK_INVALID", 0, 400},
		{"unknown config", base, ts.acme, "GetTaskPushNotificationConfig", `{"taskId": "` + task + `", "id": "nope"}`, "GET", "/tasks/" + task + "/pushNotificationConfigs/nope", "", "WEBHOOK_NOT_FOUND", 0, 404},
		{"delete unknown config", base, ts.acme, "DeleteTaskPushNotificationConfig", `{"taskId": "` + task + `", "id": "nope"}`, "DELETE", "/tasks/" + task + "/pushNotificationConfigs/nope", "", "WEBHOOK_NOT_FOUND", 0, 404},
		{"no webhooks", bare, ts.acme, "CreateTaskPushNotificationConfig", `{"taskId": "` + task + `", "url": "https://example.com/hook"}`, "POST", "/tasks/" + task + "/pushNotificationConfigs", `{"url": "https://example.com/hook"}`, "PUSH_NOTIFICATION_NOT_SUPPORTED", -32003, 400},
	}
	for _, tc := range cases {
		t.Run(tc.name+"/JSONRPC", func(t *testing.T) {
			code, reason, _ := rpcError(t, rpc(t, tc.base, "echo", tc.key, tc.method, tc.params))
			if reason != tc.reason || (tc.rpcCode != 0 && code != tc.rpcCode) {
				t.Errorf("JSON-RPC error %d %s, want %d %s", code, reason, tc.rpcCode, tc.reason)
			}
		})
		t.Run(tc.name+"/HTTP+JSON", func(t *testing.T) {
			r := do(t, tc.restMethod, tc.base+"/a2a/echo/rest"+tc.path, tc.key, tc.body)
			if reason, _ := restError(t, r); r.code != tc.httpCode || reason != tc.reason {
				t.Errorf("HTTP %d %s, want %d %s", r.code, reason, tc.httpCode, tc.reason)
			}
		})
	}
}

// withoutPush serves an A2A surface without push configs over the API at
// base, as a server whose store keeps no webhooks does; it returns its
// URL.
func withoutPush(t *testing.T, base string) string {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	h := a2a.New(a2a.Options{API: httputil.NewSingleHostReverseProxy(u), Mapper: errdetails.New(errdetails.Options{})})
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestPushBody: a push reports a Run that waits for input or ended as an
// A2A StreamResponse with the task; a Run still working is not pushed.
func TestPushBody(t *testing.T) {
	p := webhook.Push{RunID: "run_1", ConfigID: "c", ContextID: "ctx"}
	cases := []struct {
		st         runlog.State
		state, msg string
	}{
		{runlog.State{RunID: "run_1", Status: runlog.StatusCompleted, Answer: "done"}, "TASK_STATE_COMPLETED", ""},
		{runlog.State{RunID: "run_1", Status: runlog.StatusSuspended, Suspension: &runlog.Suspended{Reason: runlog.ReasonQuestion, Question: "Which day?"}}, "TASK_STATE_INPUT_REQUIRED", "Which day?"},
		{runlog.State{RunID: "run_1", Status: runlog.StatusAborted, AbortCause: runlog.CauseInterrupted}, "TASK_STATE_CANCELED", ""},
		{runlog.State{RunID: "run_1", Status: runlog.StatusSuspended, Suspension: &runlog.Suspended{Reason: runlog.ReasonTimer}}, "", ""},
	}
	for _, tc := range cases {
		b := a2a.PushBody(p, &tc.st, time.Now())
		if tc.state == "" {
			if b != nil {
				t.Errorf("%s: pushed %s", tc.st.Status, b)
			}
			continue
		}
		var got struct {
			Task struct {
				ID, ContextID string
				Status        struct {
					State   string
					Message *struct{ Parts []struct{ Text string } }
				}
			}
		}
		if err := json.Unmarshal(b, &got); err != nil || got.Task.ID != "run_1" || got.Task.ContextID != "ctx" || got.Task.Status.State != tc.state {
			t.Errorf("%s: %s", tc.state, b)
		}
		if tc.msg != "" && (got.Task.Status.Message == nil || got.Task.Status.Message.Parts[0].Text != tc.msg) {
			t.Errorf("%s: status message %s", tc.state, b)
		}
	}
}
