package cli_test

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestWebhookCommands: create prints the secret once; a Run's settle is
// delivered and shows in deliveries and the log; update, rotate,
// redeliver and delete work; a metadata URL and an unknown id exit with
// their reasons.
func TestWebhookCommands(t *testing.T) {
	srv := testserver.Start(t, func(c *server.Config) { c.AllowNetworks = []string{"127.0.0.0/8"} })
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	t.Cleanup(rcv.Close)
	c := newClient(t, srv)
	out := c.must("webhook", "create", rcv.URL+"/hook", "--event", "run.settled", "--spec", "chat")
	id := regexp.MustCompile(`wh_[0-9a-z]+`).FindString(out)
	if id == "" || !strings.Contains(out, "secret    whsec_") {
		t.Fatalf("webhook create printed:\n%s", out)
	}
	c.must("spec", "publish", writeFile(t, "chat.yaml", "name: chat\nmodel: {provider: scripted, script: {turns: [{text: ok}]}}\n"))
	c.must("run", "start", "chat", "--input", "hi", "--watch")
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(c.must("webhook", "deliveries", id), "DELIVERED") {
		if time.Now().After(deadline) {
			t.Fatal("the settle was never delivered")
		}
		time.Sleep(50 * time.Millisecond)
	}
	cases := []struct {
		name   string
		args   []string
		code   int
		stdout []string
		stderr []string
	}{
		{name: "list", args: []string{"webhook", "list"}, stdout: []string{"ID", id, rcv.URL, "run.settled", "chat", "true"}},
		{name: "get", args: []string{"webhook", "get", id}, stdout: []string{id, "events    run.settled", "state     enabled"}},
		{name: "the log", args: []string{"webhook", "deliveries", id, "--log"}, stdout: []string{"STATUS", "run.settled", "204"}},
		{name: "disable", args: []string{"webhook", "update", id, "--disable"}, stdout: []string{"state     disabled"}},
		{name: "enable", args: []string{"webhook", "update", id, "--enable", "--event", "run.failed,run.suspended"}, stdout: []string{"state     enabled", "run.failed, run.suspended"}},
		{name: "rotate", args: []string{"webhook", "rotate", id}, stdout: []string{"secret    whsec_", "previous secret signs until"}},
		{name: "nothing dead", args: []string{"webhook", "deliveries", id, "--dead"}, stdout: []string{"WEBHOOK ID"}},
		{name: "redeliver none", args: []string{"webhook", "redeliver", id}, stdout: []string{"0 deliveries pending again"}},
		{name: "metadata URL", args: []string{"webhook", "create", "http://169.254.169.254/", "--event", "run.settled"}, code: 1, stderr: []string{"WEBHOOK_INVALID", "169.254.169.254"}},
		{name: "no event", args: []string{"webhook", "create", rcv.URL}, code: 2, stderr: []string{"--event"}},
		{name: "bad event", args: []string{"webhook", "create", rcv.URL, "--event", "run.done"}, code: 1, stderr: []string{"WEBHOOK_INVALID", "run.done"}},
		{name: "nothing to update", args: []string{"webhook", "update", id}, code: 2, stderr: []string{"nothing to change"}},
		{name: "delete", args: []string{"webhook", "delete", id}, stdout: []string{"deleted " + id}},
		{name: "unknown", args: []string{"webhook", "get", id}, code: 1, stderr: []string{"WEBHOOK_NOT_FOUND"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := c.run(tc.args...)
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, tc.code, r.stdout, r.stderr)
			}
			contains(t, "stdout", r.stdout, tc.stdout...)
			contains(t, "stderr", r.stderr, tc.stderr...)
		})
	}
}
