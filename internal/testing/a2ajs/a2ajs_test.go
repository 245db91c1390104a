package a2ajs_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/encoding/protojson"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/a2ajs"
	"github.com/runsvc/runsvc/internal/testing/testserver"
	"github.com/runsvc/runsvc/internal/testing/tlstest"
)

// agents are the Specs the suite talks to, all exposed over A2A.
var agents = []string{
	`{"name": "echo", "exposure": {"a2a": true, "description": "says hello"}, "model": {"provider": "scripted", "script": {"turns": [{"text": "Hello there, friend."}]}}}`,
	`{"name": "slow", "exposure": {"a2a": true}, "model": {"provider": "scripted", "script": {"turns": [{"text": "One two three four five.", "delay": "0.5s"}]}}}`,
	`{"name": "asker", "exposure": {"a2a": true}, "model": {"provider": "scripted", "script": {"turns": [{"toolCalls": [{"name": "ask_user", "arguments": {"question": "Which day?"}}]}, {"text": "Booked."}]}},
	  "tools": [{"name": "ask_user", "kind": "TOOL_KIND_BUILTIN"}]}`,
	`{"name": "sleeper", "exposure": {"a2a": true}, "model": {"provider": "scripted", "script": {"turns": [{"text": "late", "delay": "600s"}]}}}`,
}

// TestClient: @a2a-js/sdk's client, over JSON-RPC and over HTTP+JSON,
// with a runner's API key: fetches the card, sends a message and gets the
// completed task, streams a Run's text, answers a question the task asks
// (INPUT_REQUIRED, then COMPLETED), cancels, and reads TASK_NOT_FOUND
// (with ErrorInfo in the A2A domain), TASK_NOT_CANCELABLE and
// UNSUPPORTED_OPERATION as the SDK's typed errors.
func TestClient(t *testing.T) {
	a2ajs.Available(t)
	path := filepath.Join(t.TempDir(), "keys.json")
	key, entry := tlstest.Key(t, "acme-runner", "acme", auth.RoleRunner, auth.RolePublisher)
	tlstest.WriteKeys(t, path, []auth.Entry{entry})
	s := testserver.Start(t, testserver.WithHTTP(), func(c *server.Config) { c.Security.KeysFile = path })
	publish(t, s, key, agents)
	for _, binding := range []string{"JSONRPC", "HTTP+JSON"} {
		t.Run(binding, func(t *testing.T) {
			var out struct{ Checks []a2ajs.Check }
			a2ajs.Run(t, a2ajs.Config{Base: s.HTTPURL, Key: key, Binding: binding, Op: "suite"}, &out)
			if len(out.Checks) < 10 {
				t.Fatalf("only %d checks ran: %+v", len(out.Checks), out.Checks)
			}
			for _, c := range out.Checks {
				t.Logf("%s ok=%v", c.Name, c.OK)
				if !c.OK {
					t.Errorf("%s: %s", c.Name, c.Detail)
				}
			}
		})
	}
}

// publish publishes specs with key.
func publish(t *testing.T, s *testserver.Server, key string, specs []string) {
	t.Helper()
	ctx := metadata.AppendToOutgoingContext(testserver.Context(t), "authorization", "Bearer "+key)
	for _, j := range specs {
		sp := &runsvcv1.Spec{}
		if err := protojson.Unmarshal([]byte(j), sp); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Specs.PublishSpec(ctx, &runsvcv1.PublishSpecRequest{Spec: sp}); err != nil {
			t.Fatalf("publishing %s: %v", sp.GetName(), err)
		}
	}
}

// pushed is what a push receiver got: each request's token header and
// body.
type pushed struct {
	mu   sync.Mutex
	got  []push
	seen chan struct{}
}

type push struct {
	path, token string
	body        []byte
}

func (p *pushed) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	p.mu.Lock()
	p.got = append(p.got, push{path: r.URL.Path, token: r.Header.Get("X-A2A-Notification-Token"), body: b})
	p.mu.Unlock()
	select {
	case p.seen <- struct{}{}:
	default:
	}
}

// final waits for a push to path about task in a terminal state and
// returns its token and state.
func (p *pushed) final(t *testing.T, path, task string) (string, string) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		p.mu.Lock()
		for _, g := range p.got {
			var b struct {
				Task struct {
					ID     string                 `json:"id"`
					Status struct{ State string } `json:"status"`
				} `json:"task"`
			}
			if json.Unmarshal(g.body, &b) == nil && g.path == path && b.Task.ID == task && b.Task.Status.State != "" {
				p.mu.Unlock()
				return g.token, b.Task.Status.State
			}
		}
		p.mu.Unlock()
		select {
		case <-p.seen:
		case <-time.After(200 * time.Millisecond):
		case <-deadline:
			t.Fatalf("no push about task %s to %s came", task, path)
		}
	}
}

// TestPushNotifications: over JSON-RPC and HTTP+JSON, the SDK's client
// sets push configs on a working task (a loopback receiver, which the
// outbound network policy allows), gets, lists and deletes them; the
// receiver gets the task's final state, COMPLETED, with the config's
// token, through the webhook outbox; so do a config set after the task
// ended and one inline in a SendMessage's configuration.
func TestPushNotifications(t *testing.T) {
	a2ajs.Available(t)
	path := filepath.Join(t.TempDir(), "keys.json")
	key, entry := tlstest.Key(t, "acme-runner", "acme", auth.RoleRunner, auth.RolePublisher)
	tlstest.WriteKeys(t, path, []auth.Entry{entry})
	s := testserver.Start(t, testserver.WithHTTP(), func(c *server.Config) {
		c.Security.KeysFile = path
		c.AllowNetworks = []string{"127.0.0.0/8"}
	})
	publish(t, s, key, []string{`{"name": "pusher", "exposure": {"a2a": true}, "model": {"provider": "scripted", "script": {"turns": [{"text": "Pushed.", "delay": "1.5s"}]}}}`})
	rx := &pushed{seen: make(chan struct{}, 1)}
	hook := httptest.NewServer(rx)
	t.Cleanup(hook.Close)
	for _, binding := range []string{"JSONRPC", "HTTP+JSON"} {
		t.Run(binding, func(t *testing.T) {
			var out struct {
				Checks   []a2ajs.Check
				ID       string
				InlineID string
			}
			token := "tok-" + strings.ReplaceAll(binding, "+", "")
			a2ajs.Run(t, a2ajs.Config{Base: s.HTTPURL, Key: key, Binding: binding, Op: "push", Agent: "pusher", URL: hook.URL + "/" + token, Token: token}, &out)
			for _, c := range out.Checks {
				if !c.OK {
					t.Errorf("%s: %s", c.Name, c.Detail)
				}
			}
			if len(out.Checks) < 6 || out.ID == "" {
				t.Fatalf("the client did not finish: %+v", out)
			}
			for _, p := range []struct{ path, task string }{{"/" + token, out.ID}, {"/" + token + "/late", out.ID}, {"/" + token + "/inline", out.InlineID}} {
				got, state := rx.final(t, p.path, p.task)
				if got != token || state != "TASK_STATE_COMPLETED" {
					t.Errorf("push to %s: token %q state %s, want %q TASK_STATE_COMPLETED", p.path, got, state, token)
				}
			}
		})
	}
}
