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

// TestSteerStartIdempotentByRequestID: a steered StartRun retried with
// its request id and body returns the same steered Run without steering
// it again, while the Run is active and after it settled; the request id
// with another body is REQUEST_ID_REUSED naming that Run; a steer start
// that created its Run (no active one), retried, returns that Run, not
// steered into it.
func TestSteerStartIdempotentByRequestID(t *testing.T) {
	s := testserver.Start(t)
	s.Publish(t, askingSpec)
	first, err := steerStart(s, t, "steer-retry", "start-1", "begin")
	if err != nil || !first.GetCreated() || first.GetSteered() {
		t.Fatalf("first start: %v %v", first, err)
	}
	runID := first.GetRun().GetRunId()
	if run := s.Wait(t, runID); run.GetState() != runsvcv1.RunState_RUN_STATE_SUSPENDED {
		t.Fatalf("run is %v, want suspended", run.GetState())
	}
	cases := []struct {
		name, requestID, input string
		created, steered       bool
		reason                 string
		queued                 int
	}{
		{name: "steer", requestID: "steer-1", input: "more", steered: true, queued: 1},
		{name: "retried steer", requestID: "steer-1", input: "more", steered: true, queued: 1},
		{name: "retried again", requestID: "steer-1", input: "more", steered: true, queued: 1},
		{name: "another body", requestID: "steer-1", input: "other", reason: "REQUEST_ID_REUSED", queued: 1},
		{name: "retried creating start", requestID: "start-1", input: "begin", queued: 1},
		{name: "creating start's id, another body", requestID: "start-1", input: "other", reason: "REQUEST_ID_REUSED", queued: 1},
		{name: "second steer", requestID: "steer-2", input: "more", steered: true, queued: 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := steerStart(s, t, "steer-retry", tc.requestID, tc.input)
			if tc.reason != "" {
				if reasonOf(err) != tc.reason {
					t.Fatalf("err %v, want %s", err, tc.reason)
				}
			} else if err != nil || resp.GetRun().GetRunId() != runID || resp.GetCreated() != tc.created || resp.GetSteered() != tc.steered {
				t.Fatalf("got %v (err %v), want run %s created %v steered %v", resp, err, runID, tc.created, tc.steered)
			}
			if q := queuedTexts(s, t, runID); len(q) != tc.queued {
				t.Errorf("the run has %d queued messages %q, want %d", len(q), q, tc.queued)
			}
		})
	}
	if _, err := s.Runs.ResumeRun(testserver.Context(t), &runsvcv1.ResumeRunRequest{RunId: runID, Answer: "this one"}); err != nil {
		t.Fatal(err)
	}
	s.Settled(t, runID)
	t.Run("retried after the run settled", func(t *testing.T) {
		resp, err := steerStart(s, t, "steer-retry", "steer-1", "more")
		if err != nil || resp.GetRun().GetRunId() != runID || resp.GetCreated() || !resp.GetSteered() {
			t.Fatalf("got %v (err %v), want run %s steered, not created", resp, err, runID)
		}
		list, err := s.Runs.ListRuns(testserver.Context(t), &runsvcv1.ListRunsRequest{ThreadId: "steer-retry"})
		if err != nil || len(list.GetRuns()) != 1 {
			t.Errorf("the thread has %d Runs (err %v), want 1", len(list.GetRuns()), err)
		}
		if q := queuedTexts(s, t, runID); len(q) != 2 {
			t.Errorf("the run has queued %q, want 2 messages", q)
		}
	})
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
