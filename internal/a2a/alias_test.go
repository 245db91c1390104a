package a2a_test

import (
	"encoding/json"
	"testing"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestExposureAlias: an agent whose exposure names an alias runs the
// alias's Version, not the newest; moving the alias moves the agent.
func TestExposureAlias(t *testing.T) {
	s := testserver.Start(t, testserver.WithHTTP())
	v1 := s.Publish(t, `{"name": "pinned", "exposure": {"a2a": true, "alias": "prod"}, "model": {"provider": "scripted", "script": {"turns": [{"text": "one"}]}}}`)
	aliases := runsvcv1.NewAliasServiceClient(s.Conn)
	ctx := testserver.Context(t)
	if _, err := aliases.MoveAlias(ctx, &runsvcv1.MoveAliasRequest{Spec: "pinned", Alias: "prod", Version: v1.GetVersion()}); err != nil {
		t.Fatal(err)
	}
	v2 := s.Publish(t, `{"name": "pinned", "exposure": {"a2a": true, "alias": "prod"}, "model": {"provider": "scripted", "script": {"turns": [{"text": "two"}]}}}`)
	send := func(id string) string {
		r := rpc(t, s.HTTPURL, "pinned", "", "SendMessage", `{"message": {"messageId": "`+id+`", "parts": [{"text": "go"}]}}`)
		var res struct {
			Result struct{ Task taskReply } `json:"result"`
		}
		if err := json.Unmarshal(r.body, &res); err != nil || len(res.Result.Task.Artifacts) == 0 || res.Result.Task.Artifacts[0].Parts[0].Text == nil {
			t.Fatalf("SendMessage: %s", r.body)
		}
		return *res.Result.Task.Artifacts[0].Parts[0].Text
	}
	if got := send("m1"); got != "one" {
		t.Fatalf("the agent on prod = v1 answered %q, want one", got)
	}
	if _, err := aliases.MoveAlias(ctx, &runsvcv1.MoveAliasRequest{Spec: "pinned", Alias: "prod", Version: v2.GetVersion()}); err != nil {
		t.Fatal(err)
	}
	if got := send("m2"); got != "two" {
		t.Fatalf("after moving prod to v2 the agent answered %q, want two", got)
	}
}
