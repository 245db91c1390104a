package console_test

import (
	"net/http"
	"strings"
	"testing"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestRunPageShowsTheKeyWait: a Run waiting for a slot of its concurrency
// key shows the key, its place and what it waits on.
func TestRunPageShowsTheKeyWait(t *testing.T) {
	srv := testserver.Start(t, func(c *server.Config) { c.Console.Listen = "127.0.0.1:0" })
	testserver.Publish(t, srv.Specs, `{"name": "ticket", "model": {"provider": "scripted", "script": {"turns": [{"text": "ok", "delay": "10s"}]}},
		"concurrency": {"key": "input.ticket", "limit": 1}}`)
	var ids []string
	for range 2 {
		run, err := srv.Runs.StartRun(testserver.Context(t), &runsvcv1.StartRunRequest{Spec: "ticket", Input: `{"ticket": "T-1"}`})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, run.GetRun().GetRunId())
	}
	code, page := get(t, srv.ConsoleURL+"/runs/"+ids[1])
	for _, want := range []string{`id="run-key"`, "input.ticket=T-1 (waiting for a slot, place 1)", `id="run-waiting-on"`, "concurrency:input.ticket=T-1 since"} {
		if code != http.StatusOK || !strings.Contains(page, want) {
			t.Fatalf("the waiting Run's page (%d) lacks %q:\n%s", code, want, page)
		}
	}
}
