package blackbox_test

import (
	"testing"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/blackbox"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// slowAliasSpec is Spec aliased whose second turn answers answer after 4 s,
// long enough to kill the server in the middle of it.
func slowAliasSpec(answer string) string {
	return `{"name": "aliased", "model": {"provider": "scripted", "script": {"turns": [
  {"toolCalls": [{"name": "memory_set", "arguments": {"key": "k", "value": 1}}]},
  {"text": "` + answer + `", "delay": "4s"}]}},
  "tools": [{"name": "memory_set", "kind": "TOOL_KIND_BUILTIN"}]}`
}

// TestAliasRunKeepsVersionThroughTakeover: a Run of aliased@prod is in
// the middle of a model call on v1 when prod moves to v2 and the server is
// killed -9; after the restart the Run is taken over and finishes on v1,
// while a new start of aliased@prod runs v2.
func TestAliasRunKeepsVersionThroughTakeover(t *testing.T) {
	data := t.TempDir()
	addr := blackbox.FreePort(t)
	args := []string{"--data", data, "--lease-ttl", "2s"}
	p := blackbox.Serve(t, addr, args...)
	conn := p.Dial(t)
	specs, runs, aliases := runsvcv1.NewSpecServiceClient(conn), runsvcv1.NewRunServiceClient(conn), runsvcv1.NewAliasServiceClient(conn)
	ctx := testserver.Context(t)
	v1 := testserver.Publish(t, specs, slowAliasSpec("v1 done")).GetVersion()
	v2 := testserver.Publish(t, specs, slowAliasSpec("v2 done")).GetVersion()
	if _, err := aliases.MoveAlias(ctx, &runsvcv1.MoveAliasRequest{Spec: "aliased", Alias: "prod", Version: v1}); err != nil {
		t.Fatal(err)
	}
	resp, err := runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "aliased@prod", Input: "go"})
	if err != nil {
		t.Fatal(err)
	}
	id := resp.GetRun().GetRunId()
	waitUntil(t, func() bool {
		got, err := runs.GetRun(ctx, &runsvcv1.GetRunRequest{RunId: id})
		return err == nil && got.GetRun().GetTurn() == 2
	})
	if _, err := aliases.MoveAlias(ctx, &runsvcv1.MoveAliasRequest{Spec: "aliased", Alias: "prod", Version: v2}); err != nil {
		t.Fatal(err)
	}

	p.Kill()
	p = blackbox.Serve(t, addr, args...)
	runs = runsvcv1.NewRunServiceClient(p.Dial(t))

	got := waitState(t, runs, id, runsvcv1.RunState_RUN_STATE_COMPLETED)
	if got.GetVersion() != v1 || got.GetAnswer() != "v1 done" || got.GetAttempt() != 2 || got.GetAlias() != "prod" {
		t.Fatalf("the Run in flight settled on %s with %q after %d attempts (alias %q); want v1 %s, \"v1 done\", 2 attempts",
			got.GetVersion(), got.GetAnswer(), got.GetAttempt(), got.GetAlias(), v1)
	}
	fresh, err := runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "aliased@prod", Input: "go"})
	if err != nil || fresh.GetRun().GetVersion() != v2 {
		t.Fatalf("a new start after the move = %v, %v; want v2 %s", fresh.GetRun(), err, v2)
	}
	if code := p.Stop(t); code != 0 {
		t.Errorf("graceful stop exited %d", code)
	}
}
