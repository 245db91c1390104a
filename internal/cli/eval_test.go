package cli_test

import (
	"strings"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestSpecEval: start an evaluation of a Version on a recorded Run, show
// its table, pass its gate, refuse a stricter gate on another Version,
// list it and delete it.
func TestSpecEval(t *testing.T) {
	srv := testserver.Start(t)
	c := newClient(t, srv)
	c.must("spec", "publish", writeFile(t, "done.yaml", doneYAML))
	run := strings.TrimSpace(c.must("run", "start", "done"))
	c.must("run", "wait", run)
	version := srv.Publish(t, `{"name": "done", "model": {"provider": "scripted", "script": {"turns": [{"text": "Done."}]}}}`).GetVersion()
	out := c.must("spec", "eval", "start", "done", version, "--run", run, "--exact")
	id := strings.Fields(out)[0]
	if !strings.HasPrefix(id, "evl") || !strings.Contains(out, run) {
		t.Fatalf("eval start printed %q", out)
	}
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(c.must("spec", "eval", "get", id), " done "); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the evaluation is not done after 30s")
		}
	}
	if got := c.must("spec", "eval", "check", id, "done", version, "--min-score", "1"); !strings.Contains(got, "passed: score 1.000") {
		t.Fatalf("eval check printed %q", got)
	}
	refused := c.run("spec", "eval", "check", id, "done", "other", "--min-score", "0.5")
	if refused.code != 1 || !strings.Contains(refused.stderr, "EVALUATION_GATE_FAILED") {
		t.Fatalf("a gate on another Version: %d %q", refused.code, refused.stderr)
	}
	if got := c.must("spec", "eval", "list"); !strings.Contains(got, id) {
		t.Fatalf("eval list printed %q", got)
	}
	c.must("spec", "eval", "delete", id)
}
