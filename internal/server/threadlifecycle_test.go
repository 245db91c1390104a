package server_test

import (
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/runsvc/runsvc/client"
	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestDeleteThread, on SQLite and on PostgreSQL over gRPC: a thread with
// an active and a waiting Run refuses DeleteRun{thread_id} with
// RUN_NOT_SETTLED and changes nothing; the retention sweep keeps the
// thread's settled Run while another Run of it is active (and deletes a
// settled Run on no thread of the same age); DeleteRun{thread_id,
// interrupt} interrupts and deletes both Runs and the thread.
func TestDeleteThread(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { deleteThread(t) })
	t.Run("postgres", func(t *testing.T) {
		dsn := pgtest.Start(t).NewDatabase(t)
		deleteThread(t, func(c *server.Config) { c.Store = dsn })
	})
}

func deleteThread(t *testing.T, opts ...testserver.Option) {
	clk := clock.NewFake(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	s := testserver.Start(t, append(opts, func(c *server.Config) {
		c.Clock = clk
		c.Retention = runs.SweepConfig{Retention: time.Second, Interval: time.Minute}
	})...)
	s.Publish(t, eraseSpec)
	s.Publish(t, answerSpec)
	ctx := testserver.Context(t)
	start := func(input string) string {
		resp, err := s.Runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "erase", Input: input, ThreadId: "th-del",
			ThreadStrategy: runsvcv1.ThreadStrategy_THREAD_STRATEGY_ENQUEUE})
		if err != nil {
			t.Fatalf("StartRun(%s): %v", input, err)
		}
		return resp.GetRun().GetRunId()
	}
	first := start("one")
	s.Wait(t, first)
	second := start("two")

	deleteBusyThread(t, s, clk, first, second)
}

// deleteBusyThread: the thread th-del has an active Run first and a Run
// second waiting behind it.
func deleteBusyThread(t *testing.T, s *testserver.Server, clk *clock.Fake, first, second string) {
	ctx := testserver.Context(t)
	threadRuns := func() int {
		list, err := s.Runs.ListRuns(ctx, &runsvcv1.ListRunsRequest{ThreadId: "th-del"})
		if err != nil {
			t.Fatal(err)
		}
		return len(list.GetRuns())
	}
	t.Run("busy thread refused, nothing changes", func(t *testing.T) {
		_, err := s.Runs.DeleteRun(ctx, &runsvcv1.DeleteRunRequest{ThreadId: "th-del"})
		c := client.Classify(err)
		if c.Code != codes.FailedPrecondition || c.Reason != "RUN_NOT_SETTLED" || c.Metadata["runId"] != first {
			t.Fatalf("DeleteRun(busy thread) = %v %s %v, want FAILED_PRECONDITION RUN_NOT_SETTLED runId %s", c.Code, c.Reason, c.Metadata, first)
		}
		if n := threadRuns(); n != 2 {
			t.Fatalf("the refused delete left %d Runs on the thread, want 2", n)
		}
	})

	call := s.Wait(t, first).GetSuspension().GetToolCalls()[0].GetCallId()
	if _, err := s.Runs.ResumeRun(ctx, &runsvcv1.ResumeRunRequest{RunId: first, ToolResults: []*runsvcv1.ToolResult{{CallId: call, Output: structpb.NewStringValue("x")}}}); err != nil {
		t.Fatal(err)
	}
	s.Settled(t, first)
	if got := s.Wait(t, second); got.GetState() != runsvcv1.RunState_RUN_STATE_SUSPENDED {
		t.Fatalf("second Run after the first settled = %v, want SUSPENDED", got.GetState())
	}
	loner := s.Settled(t, s.Start(t, "answer", "q").GetRunId()).GetRunId()

	t.Run("sweep keeps a busy thread's settled Run", func(t *testing.T) {
		sweepAfterAdvance(t, s, clk)
		if _, err := s.Runs.GetRun(ctx, &runsvcv1.GetRunRequest{RunId: loner}); client.Classify(err).Reason != "RUN_NOT_FOUND" {
			t.Fatalf("a settled Run on no thread after the sweep = %v, want RUN_NOT_FOUND: the sweep did not expire it", err)
		}
		if _, err := s.Runs.GetRun(ctx, &runsvcv1.GetRunRequest{RunId: first}); err != nil {
			t.Fatalf("the busy thread's settled Run after the sweep = %v, want kept", err)
		}
	})

	t.Run("interrupt deletes the Runs and the thread", func(t *testing.T) {
		resp, err := s.Runs.DeleteRun(ctx, &runsvcv1.DeleteRunRequest{ThreadId: "th-del", Interrupt: true})
		if err != nil || resp.GetDeletedCount() != 2 {
			t.Fatalf("DeleteRun(thread, interrupt) = %v, %v; want 2 deleted", resp, err)
		}
		for _, id := range []string{first, second} {
			if _, err := s.Runs.GetRun(ctx, &runsvcv1.GetRunRequest{RunId: id}); client.Classify(err).Reason != "RUN_NOT_FOUND" {
				t.Errorf("GetRun(%s) after the thread's delete = %v, want RUN_NOT_FOUND", id, err)
			}
		}
		_, err = s.Runs.GetThread(ctx, &runsvcv1.GetThreadRequest{ThreadId: "th-del"})
		if c := client.Classify(err); c.Code != codes.NotFound || c.Reason != "THREAD_NOT_FOUND" {
			t.Errorf("GetThread after its delete = %v %s, want NOT_FOUND THREAD_NOT_FOUND", c.Code, c.Reason)
		}
		if n := threadRuns(); n != 0 {
			t.Errorf("ListRuns(thread) after its delete = %d Runs, want 0", n)
		}
	})

	deleteThreadRefusals(t, s, first)
}

// deleteThreadRefusals are the refusals of DeleteRun{thread_id} once the
// thread th-del was deleted; first was one of its Runs.
func deleteThreadRefusals(t *testing.T, s *testserver.Server, first string) {
	ctx := testserver.Context(t)
	for _, tc := range []struct {
		name   string
		req    *runsvcv1.DeleteRunRequest
		code   codes.Code
		reason string
	}{
		{"unknown thread", &runsvcv1.DeleteRunRequest{ThreadId: "th-nope"}, codes.NotFound, "THREAD_NOT_FOUND"},
		{"deleted thread", &runsvcv1.DeleteRunRequest{ThreadId: "th-del"}, codes.NotFound, "THREAD_NOT_FOUND"},
		{"thread and run", &runsvcv1.DeleteRunRequest{ThreadId: "th-del", RunId: first}, codes.InvalidArgument, "INVALID_REQUEST"},
		{"thread and spec", &runsvcv1.DeleteRunRequest{ThreadId: "th-del", Spec: "erase"}, codes.InvalidArgument, "INVALID_REQUEST"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.Runs.DeleteRun(ctx, tc.req)
			if c := client.Classify(err); c.Code != tc.code || c.Reason != tc.reason {
				t.Fatalf("DeleteRun = %v %s, want %v %s", c.Code, c.Reason, tc.code, tc.reason)
			}
		})
	}
}

// sweepAfterAdvance moves the fake clock a minute at a time until a whole
// sweep ran after the first move: the sweeper waits on the clock only
// between sweeps, so a move while it sweeps wakes nothing. At most 5
// minutes, well inside the Runs' 15-minute deadline.
func sweepAfterAdvance(t *testing.T, s *testserver.Server, clk *clock.Fake) {
	t.Helper()
	sweeps := func() int { return strings.Count(s.Log.String(), `"msg":"retention sweep"`) }
	base := sweeps()
	for range 5 {
		clk.Advance(time.Minute)
		for end := time.Now().Add(2 * time.Second); time.Now().Before(end) && sweeps() < base+2; {
			time.Sleep(10 * time.Millisecond)
		}
		if sweeps() >= base+2 {
			return
		}
	}
	t.Fatalf("no whole retention sweep after moving the clock 5 minutes (%d sweeps logged, %d before)", sweeps(), base)
}
