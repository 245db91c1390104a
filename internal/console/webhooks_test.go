package console_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// TestWebhookPages: the Webhooks page lists the subscriptions, and a
// subscription's page its deliveries and delivery log, never its secret.
func TestWebhookPages(t *testing.T) {
	srv := testserver.Start(t, func(c *server.Config) {
		c.Console.Listen = "127.0.0.1:0"
		c.AllowNetworks = []string{"127.0.0.0/8"}
	})
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusAccepted) }))
	t.Cleanup(rcv.Close)
	hooks := runsvcv1.NewWebhookServiceClient(srv.Conn)
	created, err := hooks.CreateWebhook(testserver.Context(t), &runsvcv1.CreateWebhookRequest{Subscription: &runsvcv1.WebhookSubscription{
		Url: rcv.URL + "/hook", EventTypes: []string{"run.settled"}}})
	if err != nil {
		t.Fatal(err)
	}
	id := created.GetSubscription().GetId()
	testserver.Publish(t, srv.Specs, `{"name": "chat", "model": {"provider": "scripted", "script": {"turns": [{"text": "ok"}]}}}`)
	run, err := srv.Runs.StartRun(testserver.Context(t), &runsvcv1.StartRunRequest{Spec: "chat", Input: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		ds, err := hooks.ListWebhookDeliveries(testserver.Context(t), &runsvcv1.ListWebhookDeliveriesRequest{Id: id})
		if err == nil && len(ds.GetDeliveries()) == 1 && ds.GetDeliveries()[0].GetState() == "DELIVERED" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("never delivered: %v, %v", ds, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	code, list := get(t, srv.ConsoleURL+"/webhooks")
	if code != http.StatusOK || !strings.Contains(list, id) || !strings.Contains(list, rcv.URL) || !strings.Contains(list, "run.settled") {
		t.Errorf("/webhooks: %d %s", code, excerpt(list))
	}
	code, page := get(t, srv.ConsoleURL+"/webhooks/"+id)
	for _, want := range []string{rcv.URL, "DELIVERED", run.GetRun().GetRunId(), "202", "Delivery log"} {
		if code != http.StatusOK || !strings.Contains(page, want) {
			t.Errorf("/webhooks/%s lacks %q: %d %s", id, want, code, excerpt(page))
		}
	}
	if strings.Contains(page+list, created.GetSecret()) {
		t.Error("a page shows the signing secret")
	}
	if code, page := get(t, srv.ConsoleURL+"/webhooks/wh_nope"); code != http.StatusNotFound || !strings.Contains(page, "WEBHOOK_NOT_FOUND") {
		t.Errorf("/webhooks/wh_nope: %d %s", code, excerpt(page))
	}
}
