package console_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestSpecPageShowsAliasesAndRollouts: a Spec's page shows each alias,
// its split, who moved it, and its sides compared.
func TestSpecPageShowsAliasesAndRollouts(t *testing.T) {
	s := startSite(t, false)
	ctx := testserver.Context(t)
	specs := runsvcv1.NewSpecServiceClient(s.srv.Conn)
	v1 := testserver.Publish(t, specs, `{"name": "greet", "model": {"provider": "scripted", "script": {"turns": [{"text": "one"}]}}}`).GetVersion()
	v2 := testserver.Publish(t, specs, `{"name": "greet", "model": {"provider": "scripted", "script": {"turns": [{"text": "two"}]}}}`).GetVersion()
	if _, err := runsvcv1.NewAliasServiceClient(s.srv.Conn).MoveAlias(ctx, &runsvcv1.MoveAliasRequest{Spec: "greet", Alias: "prod", Version: v1, CanaryVersion: v2, CanaryPercent: 10}); err != nil {
		t.Fatal(err)
	}
	run, err := s.srv.Runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "greet@prod", Input: "hi", StickyKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	s.srv.Settled(t, run.GetRun().GetRunId())
	token := s.csrf(t)
	s.post(t, "/login", url.Values{"csrf": {token}, "key": {s.keys[auth.RoleRunner]}})
	resp, body := s.get(t, "/specs/greet")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /specs/greet: %d\n%s", resp.StatusCode, body)
	}
	side := strings.ToLower(strings.TrimPrefix(run.GetRun().GetAliasSide().String(), "ALIAS_SIDE_"))
	for _, want := range []string{`id="alias-prod"`, "90% + canary", "10%", "primary", "canary", v1, v2, "<td>" + side + "</td><td><code>" + run.GetRun().GetVersion() + "</code></td><td>1</td><td>1</td>"} {
		if !strings.Contains(body, want) {
			t.Errorf("the page does not show %q:\n%s", want, body)
		}
	}
}
