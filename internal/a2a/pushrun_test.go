package a2a_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/metadata"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/testing/testserver"
	"github.com/runsvc/runsvc/internal/testing/tlstest"
)

const slowSpec = `{"name": "slow", "exposure": {"a2a": true}, "model": {"provider": "scripted", "script": {"turns": [{"text": "Late but here.", "delay": "1s"}]}}}`

// TestPushConfigsGoWithTheirTask: a task's push config is deleted with
// its Run: once the Run is deleted, GetTaskPushNotificationConfig answers
// TASK_NOT_FOUND and the store keeps neither the config nor its
// deliveries; a live task's config set afterwards still gets its push.
func TestPushConfigsGoWithTheirTask(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.json")
	key, entry := tlstest.Key(t, "acme", "acme", auth.RoleAdmin)
	tlstest.WriteKeys(t, path, []auth.Entry{entry})
	s := testserver.Start(t, testserver.WithHTTP(), func(c *server.Config) {
		c.Security.KeysFile = path
		c.AllowNetworks = []string{"127.0.0.0/8"}
	})
	publish(t, s, key, echoSpec, slowSpec)
	rx := &receiver{seen: make(chan struct{}, 1)}
	hook := httptest.NewServer(rx)
	t.Cleanup(hook.Close)
	base := s.HTTPURL

	done := sendTask(t, base, "echo", key, false)
	setPush(t, base, "echo", key, done, "late", hook.URL+"/done")
	rx.wait(t, "/done", done)
	ctx := metadata.AppendToOutgoingContext(testserver.Context(t), "authorization", "Bearer "+key)
	if _, err := s.Runs.DeleteRun(ctx, &runsvcv1.DeleteRunRequest{RunId: done}); err != nil {
		t.Fatalf("DeleteRun: %v", err)
	}
	code, reason, _ := rpcError(t, rpc(t, base, "echo", key, "GetTaskPushNotificationConfig", `{"taskId": "`+done+`", "id": "late"}`))
	if code != -32001 || reason != "TASK_NOT_FOUND" {
		t.Errorf("GetTaskPushNotificationConfig of a deleted task: %d %s, want -32001 TASK_NOT_FOUND", code, reason)
	}
	w := s.Store.(store.Webhooks)
	if _, ok, err := w.GetSubscription(ctx, "acme", "a2a-"+done+"-late"); ok || err != nil {
		t.Errorf("the deleted task's config is still stored (%v, %v)", ok, err)
	}
	if ds, err := w.ListDeliveries(ctx, "acme", "a2a-"+done+"-late", store.DeliveryQuery{Limit: 10}); len(ds) != 0 || err != nil {
		t.Errorf("the deleted task's config keeps %d deliveries (%v)", len(ds), err)
	}

	live := sendTask(t, base, "slow", key, true)
	setPush(t, base, "slow", key, live, "final", hook.URL+"/live")
	if state := rx.wait(t, "/live", live); state != "TASK_STATE_COMPLETED" {
		t.Errorf("the live task's push says %s, want TASK_STATE_COMPLETED", state)
	}
}

// sendTask sends agent a message and returns the task's id: at once when
// early, else once the task ended.
func sendTask(t *testing.T, base, agent, key string, early bool) string {
	t.Helper()
	params := `{"message": {"messageId": "m1", "role": "ROLE_USER", "parts": [{"text": "go"}]}}`
	if early {
		params = `{"message": {"messageId": "m2", "role": "ROLE_USER", "parts": [{"text": "go"}]}, "configuration": {"returnImmediately": true}}`
	}
	r := rpc(t, base, agent, key, "SendMessage", params)
	var res struct {
		Result struct {
			Task struct{ ID string } `json:"task"`
		} `json:"result"`
	}
	if err := json.Unmarshal(r.body, &res); err != nil || res.Result.Task.ID == "" {
		t.Fatalf("SendMessage: %s", r.body)
	}
	return res.Result.Task.ID
}

// setPush creates the push config id of task to url.
func setPush(t *testing.T, base, agent, key, task, id, url string) {
	t.Helper()
	r := rpc(t, base, agent, key, "CreateTaskPushNotificationConfig", `{"taskId": "`+task+`", "id": "`+id+`", "url": "`+url+`"}`)
	var res struct {
		Result *struct{ ID string } `json:"result"`
	}
	if err := json.Unmarshal(r.body, &res); err != nil || res.Result == nil || res.Result.ID != id {
		t.Fatalf("CreateTaskPushNotificationConfig: %s", r.body)
	}
}

// receiver is a push receiver: the path and body of each push it got.
type receiver struct {
	mu   sync.Mutex
	got  map[string][][]byte
	seen chan struct{}
}

func (rx *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	rx.mu.Lock()
	if rx.got == nil {
		rx.got = map[string][][]byte{}
	}
	rx.got[r.URL.Path] = append(rx.got[r.URL.Path], b)
	rx.mu.Unlock()
	select {
	case rx.seen <- struct{}{}:
	default:
	}
}

// wait waits for a push to path about task with a state, and returns it.
func (rx *receiver) wait(t *testing.T, path, task string) string {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		rx.mu.Lock()
		for _, b := range rx.got[path] {
			var p struct {
				Task struct {
					ID     string                 `json:"id"`
					Status struct{ State string } `json:"status"`
				} `json:"task"`
			}
			if json.Unmarshal(b, &p) == nil && p.Task.ID == task && p.Task.Status.State != "" {
				rx.mu.Unlock()
				return p.Task.Status.State
			}
		}
		rx.mu.Unlock()
		select {
		case <-rx.seen:
		case <-time.After(200 * time.Millisecond):
		case <-deadline:
			t.Fatalf("no push about task %s to %s came", task, path)
		}
	}
}
