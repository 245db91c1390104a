package mcpserver_test

import (
	"testing"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestExposureAlias: a tool whose Spec's exposure names an alias runs the
// alias's Version, not the newest; moving the alias moves the tool.
func TestExposureAlias(t *testing.T) {
	s := testserver.Start(t, testserver.WithMCP())
	v1 := s.Publish(t, `{"name": "pinned", "exposure": {"mcp": true, "alias": "prod"}, "model": {"provider": "scripted", "script": {"turns": [{"text": "one"}]}}}`)
	aliases := runsvcv1.NewAliasServiceClient(s.Conn)
	ctx := testserver.Context(t)
	if _, err := aliases.MoveAlias(ctx, &runsvcv1.MoveAliasRequest{Spec: "pinned", Alias: "prod", Version: v1.GetVersion()}); err != nil {
		t.Fatal(err)
	}
	v2 := s.Publish(t, `{"name": "pinned", "exposure": {"mcp": true, "alias": "prod"}, "model": {"provider": "scripted", "script": {"turns": [{"text": "two"}]}}}`)
	cs, err := connect(t, s.MCPURL, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := text(call(t, cs, "pinned", "go")); got != "one" {
		t.Fatalf("the tool on prod = v1 answered %q, want one", got)
	}
	if _, err := aliases.MoveAlias(ctx, &runsvcv1.MoveAliasRequest{Spec: "pinned", Alias: "prod", Version: v2.GetVersion()}); err != nil {
		t.Fatal(err)
	}
	if got := text(call(t, cs, "pinned", "go")); got != "two" {
		t.Fatalf("after moving prod to v2 the tool answered %q, want two", got)
	}
}
