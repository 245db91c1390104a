package server_test

import (
	"testing"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// askingSpec suspends on ask_user, so its Run stays the thread's active
// one until it is answered.
const askingSpec = `{"name": "asks-on-thread", "model": {"provider": "scripted", "script": {"turns": [
  {"toolCalls": [{"name": "ask_user", "arguments": {"question": "which?"}}]}, {"text": "done"}]}},
  "tools": [{"name": "ask_user", "kind": "TOOL_KIND_BUILTIN"}]}`

// steerStart is a StartRun with strategy steer on thread.
func steerStart(s *testserver.Server, t *testing.T, thread, requestID, input string) (*runsvcv1.StartRunResponse, error) {
	return s.Runs.StartRun(testserver.Context(t), &runsvcv1.StartRunRequest{
		Spec: "asks-on-thread", Input: input, ThreadId: thread, RequestId: requestID,
		ThreadStrategy: runsvcv1.ThreadStrategy_THREAD_STRATEGY_STEER,
	})
}

// queuedTexts lists the texts of a Run's message_queued Records.
func queuedTexts(s *testserver.Server, t *testing.T, runID string) []string {
	var out []string
	for _, rec := range s.RecordsSoFar(t, runID) {
		if m := rec.GetMessageQueued(); m != nil {
			out = append(out, m.GetText())
		}
	}
	return out
}

// TestSteerRetryOnAnotherServer: the retry of a steered start reaches
// another runsvc on the same PostgreSQL store, which knows it from the
// steered Run's log: the same Run comes back steered, steered once.
func TestSteerRetryOnAnotherServer(t *testing.T) {
	dsn := pgtest.Start(t).NewDatabase(t)
	one := testserver.Start(t, func(c *server.Config) { c.Store = dsn })
	other := testserver.Start(t, func(c *server.Config) { c.Store = dsn; c.WorkerID = "other-worker" })
	one.Publish(t, askingSpec)
	first, err := steerStart(one, t, "two-servers", "", "begin")
	if err != nil {
		t.Fatal(err)
	}
	runID := first.GetRun().GetRunId()
	one.Wait(t, runID)
	for i, s := range []*testserver.Server{one, other, other} {
		resp, err := steerStart(s, t, "two-servers", "steer-x", "more")
		if err != nil || resp.GetRun().GetRunId() != runID || !resp.GetSteered() || resp.GetCreated() {
			t.Fatalf("start %d: %v (err %v), want run %s steered", i+1, resp, err, runID)
		}
	}
	if _, err := steerStart(other, t, "two-servers", "steer-x", "changed"); reasonOf(err) != "REQUEST_ID_REUSED" {
		t.Errorf("another body on the other server: %v, want REQUEST_ID_REUSED", err)
	}
	if q := queuedTexts(other, t, runID); len(q) != 1 {
		t.Errorf("the run has queued %q, want one message", q)
	}
}
