package webhook_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

func allowLoopback(c *server.Config) {
	c.AllowNetworks = []string{"127.0.0.0/8"}
	c.Webhooks.Backoff = 50 * time.Millisecond
}

// TestMetadataURLsAreRefused: a subscription whose URL is a cloud
// metadata address is refused at create (and update) with WEBHOOK_INVALID
// and a BadRequest naming the url field.
func TestMetadataURLsAreRefused(t *testing.T) {
	srv := testserver.Start(t, allowLoopback)
	hooks := runsvcv1.NewWebhookServiceClient(srv.Conn)
	for _, u := range []string{"https://169.254.169.254/latest/meta-data/", "http://169.254.169.254/", "https://[::ffff:169.254.169.254]/", "https://[fd00:ec2::254]/"} {
		_, err := hooks.CreateWebhook(testserver.Context(t), &runsvcv1.CreateWebhookRequest{Subscription: &runsvcv1.WebhookSubscription{Url: u, EventTypes: []string{"run.settled"}}})
		st := status.Convert(err)
		var field string
		for _, d := range st.Details() {
			if br, ok := d.(*errdetails.BadRequest); ok && len(br.GetFieldViolations()) > 0 {
				field = br.GetFieldViolations()[0].GetField()
			}
		}
		if st.Code() != codes.InvalidArgument || reason(st) != "WEBHOOK_INVALID" || field != "url" {
			t.Errorf("CreateWebhook(%s) = %v %q (field %q), want INVALID_ARGUMENT WEBHOOK_INVALID on url", u, st.Code(), st.Message(), field)
		}
	}
	created, err := hooks.CreateWebhook(testserver.Context(t), &runsvcv1.CreateWebhookRequest{Subscription: &runsvcv1.WebhookSubscription{Url: "http://127.0.0.1:9/hook", EventTypes: []string{"run.settled"}}})
	if err != nil {
		t.Fatal(err)
	}
	sub := created.GetSubscription()
	sub.Url = "https://169.254.169.254/"
	if _, err := hooks.UpdateWebhook(testserver.Context(t), &runsvcv1.UpdateWebhookRequest{Subscription: sub}); reason(status.Convert(err)) != "WEBHOOK_INVALID" {
		t.Errorf("UpdateWebhook to the metadata address = %v", err)
	}
}

func reason(st *status.Status) string {
	for _, d := range st.Details() {
		if ei, ok := d.(*errdetails.ErrorInfo); ok {
			return ei.GetReason()
		}
	}
	return ""
}

// refusingModel is an OpenAI-compatible server that refuses every call
// with the API key in its error message.
func refusingModel(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
			"message": "Incorrect API key provided: " + key + " " + base64.StdEncoding.EncodeToString([]byte(key)), "type": "invalid_request_error", "code": "invalid_api_key"}})
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

// collector records the bodies delivered to it.
type collector struct {
	mu     sync.Mutex
	bodies []string
}

func (c *collector) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	c.mu.Lock()
	c.bodies = append(c.bodies, string(b))
	c.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

func (c *collector) all() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.bodies...)
}

// TestASecretInAFailureNeverReachesAWebhook: a Run fails with the model's
// error, which echoes the Spec's credential; its run.failed webhook
// carries the failure's google.rpc.Status with the credential redacted,
// and neither the credential nor the signing secret appears in a body,
// the delivery log or the server's log.
func TestASecretInAFailureNeverReachesAWebhook(t *testing.T) {
	const credential = "sk-webhook-secret-0123456789abcdef"
	t.Setenv("RUNSVC_SECRET_HOOK_KEY", credential)
	srv := testserver.Start(t, allowLoopback)
	rcv := &collector{}
	hookSrv := httptest.NewServer(rcv)
	t.Cleanup(hookSrv.Close)
	hooks := runsvcv1.NewWebhookServiceClient(srv.Conn)
	created, err := hooks.CreateWebhook(testserver.Context(t), &runsvcv1.CreateWebhookRequest{Subscription: &runsvcv1.WebhookSubscription{
		Url: hookSrv.URL + "/hook", EventTypes: []string{"run.failed"}, SpecFilter: "leaky"}})
	if err != nil {
		t.Fatal(err)
	}
	testserver.Publish(t, srv.Specs, fmt.Sprintf(`{"name": "leaky", "credentials": [{"name": "hook_key"}],
	  "model": {"provider": "openai", "model": "gpt-4o-mini", "baseUrl": %q, "apiKeyCredential": "hook_key"}}`, refusingModel(t)))
	run, err := srv.Runs.StartRun(testserver.Context(t), &runsvcv1.StartRunRequest{Spec: "leaky", Input: "go"})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for len(rcv.all()) == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	bodies := rcv.all()
	if len(bodies) != 1 {
		t.Fatalf("got %d deliveries, want the one run.failed", len(bodies))
	}
	var ev struct {
		Type string `json:"type"`
		Data struct {
			RunID  string `json:"run_id"`
			State  string `json:"state"`
			Status struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
				Details []struct {
					Type   string `json:"@type"`
					Reason string `json:"reason"`
				} `json:"details"`
			} `json:"status"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(bodies[0]), &ev); err != nil {
		t.Fatal(err)
	}
	if ev.Type != "run.failed" || ev.Data.RunID != run.GetRun().GetRunId() || ev.Data.State != "FAILED" || ev.Data.Status.Code == 0 ||
		len(ev.Data.Status.Details) == 0 || ev.Data.Status.Details[0].Reason == "" || !strings.Contains(ev.Data.Status.Message, "[redacted]") {
		t.Errorf("the run.failed body %s", bodies[0])
	}
	attempts, err := hooks.ListWebhookAttempts(testserver.Context(t), &runsvcv1.ListWebhookAttemptsRequest{Id: created.GetSubscription().GetId()})
	if err != nil {
		t.Fatal(err)
	}
	deliveries, err := hooks.ListWebhookDeliveries(testserver.Context(t), &runsvcv1.ListWebhookDeliveriesRequest{Id: created.GetSubscription().GetId()})
	if err != nil {
		t.Fatal(err)
	}
	kept := map[string]string{"the body": bodies[0], "the server's log": srv.Log.String(), "the delivery log": fmt.Sprint(attempts, deliveries)}
	for where, text := range kept {
		for _, leak := range []string{credential, base64.StdEncoding.EncodeToString([]byte(credential)), url.QueryEscape(credential), created.GetSecret()} {
			if strings.Contains(text, leak) {
				t.Errorf("%s holds a secret (%.12s...)", where, leak)
			}
		}
	}
}
