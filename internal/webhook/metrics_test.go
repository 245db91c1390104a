package webhook_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestAttemptsAreCounted: /metrics counts each delivery attempt by outcome
// (a 503 then a 2xx is one retry and one delivered) with its latency.
func TestAttemptsAreCounted(t *testing.T) {
	srv := testserver.Start(t, allowLoopback, func(c *server.Config) { c.Ops.MetricsListen = "127.0.0.1:0" })
	var calls atomic.Int32
	hookSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if calls.Add(1) == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(hookSrv.Close)
	hooks := runsvcv1.NewWebhookServiceClient(srv.Conn)
	if _, err := hooks.CreateWebhook(testserver.Context(t), &runsvcv1.CreateWebhookRequest{Subscription: &runsvcv1.WebhookSubscription{
		Url: hookSrv.URL + "/hook", EventTypes: []string{"run.settled"}}}); err != nil {
		t.Fatal(err)
	}
	srv.Publish(t, `{"name": "quick", "model": {"provider": "scripted", "script": {"turns": [{"text": "done"}]}}}`)
	srv.Start(t, "quick", "go")
	want := []string{
		`runsvc_webhook_attempts_total{outcome="retry"} 1`,
		`runsvc_webhook_attempts_total{outcome="delivered"} 1`,
		`runsvc_webhook_attempt_duration_seconds_count{outcome="delivered"} 1`,
	}
	var page string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		page = scrape(t, srv.MetricsAddr)
		if containsAll(page, want) {
			return
		}
	}
	t.Fatalf("/metrics lacks %q:\n%s", want, grepLines(page, "runsvc_webhook"))
}

func scrape(t *testing.T, addr string) string {
	t.Helper()
	resp, err := http.Get(fmt.Sprintf("http://%s/metrics", addr))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func containsAll(s string, subs []string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}

func grepLines(s, prefix string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
