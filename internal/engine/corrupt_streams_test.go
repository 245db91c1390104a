package engine_test

import (
	"errors"
	"io"
	"strconv"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/durationpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// corruptSuspendedRun starts a Run that suspends for tool results, then
// inserts a second admitted Record into its log straight into the store,
// with the index the Run had (SUSPENDED, not runnable), as a buggy writer
// would. It returns the Run as it was before.
func corruptSuspendedRun(t *testing.T, srv *testserver.Server) *runsvcv1.Run {
	t.Helper()
	run := srv.Wait(t, srv.Start(t, "weather", "hi").GetRunId())
	if run.GetState() != runsvcv1.RunState_RUN_STATE_SUSPENDED {
		t.Fatalf("run is %v, want suspended", run.GetState())
	}
	ctx := testserver.Context(t)
	row, err := srv.Store.GetRun(ctx, store.DefaultTenant, run.GetRunId())
	if err != nil {
		t.Fatal(err)
	}
	first, err := srv.Store.ReadLog(ctx, store.DefaultTenant, run.GetRunId(), 1, 1)
	if err != nil || len(first) != 1 || first[0].Kind != "admitted" {
		t.Fatalf("first record %+v %v", first, err)
	}
	again := store.Record{Seq: row.LastSeq + 1, Time: time.Now(), Kind: first[0].Kind, Body: first[0].Body}
	if err := srv.Store.Append(ctx, store.Append{Tenant: store.DefaultTenant, RunID: run.GetRunId(), Records: []store.Record{again}, Index: row.Index}); err != nil {
		t.Fatal(err)
	}
	return run
}

// TestCorruptLogFailsItsRunAndEndsStreams: whatever first meets a corrupt
// log (a watcher, a text stream, an interrupt, a resume, a message, a
// report), the Run then reads FAILED with LOG_CORRUPT everywhere (GetRun,
// WaitRun, ListRuns, the report), WatchRun sends the good Records and ends
// with DATA_LOSS, StreamText ends with RUN_FAILED, InterruptRun is a no-op,
// and nothing is ever appended after the corrupt Record.
func TestCorruptLogFailsItsRunAndEndsStreams(t *testing.T) {
	srv := testserver.Start(t)
	srv.Publish(t, clientSpec)
	firstTouch := []struct {
		name  string
		touch func(t *testing.T, run *runsvcv1.Run) error
	}{
		{"WatchRun", func(t *testing.T, run *runsvcv1.Run) error { _, err := watchAll(t, srv, run.GetRunId()); return err }},
		{"StreamText", func(t *testing.T, run *runsvcv1.Run) error { return streamText(t, srv, run.GetRunId()) }},
		{"InterruptRun", func(t *testing.T, run *runsvcv1.Run) error {
			_, err := srv.Runs.InterruptRun(testserver.Context(t), &runsvcv1.InterruptRunRequest{RunId: run.GetRunId()})
			return err
		}},
		{"ResumeRun", func(t *testing.T, run *runsvcv1.Run) error {
			_, err := srv.Runs.ResumeRun(testserver.Context(t), &runsvcv1.ResumeRunRequest{RunId: run.GetRunId(), ToolResults: []*runsvcv1.ToolResult{{CallId: "call_1_1"}, {CallId: "call_1_2"}}})
			return err
		}},
		{"SendMessage", func(t *testing.T, run *runsvcv1.Run) error {
			_, err := srv.Runs.SendMessage(testserver.Context(t), &runsvcv1.SendMessageRequest{RunId: run.GetRunId(), Text: "hello?"})
			return err
		}},
		{"GetReport", func(t *testing.T, run *runsvcv1.Run) error {
			_, err := srv.Runs.GetReport(testserver.Context(t), &runsvcv1.GetReportRequest{RunId: run.GetRunId()})
			return err
		}},
	}
	wantFirst := map[string]codes.Code{"WatchRun": codes.DataLoss, "StreamText": codes.FailedPrecondition, "ResumeRun": codes.DataLoss, "SendMessage": codes.DataLoss}
	for _, tc := range firstTouch {
		t.Run("first "+tc.name, func(t *testing.T) {
			run := corruptSuspendedRun(t, srv)
			if c := errdetails.Classify(tc.touch(t, run)); c.Code != wantFirst[tc.name] {
				t.Errorf("%s on the corrupt run: %v %q (%s)", tc.name, c.Code, c.Message, c.Reason)
			}
			checkFailedCorrupt(t, srv, run)
		})
	}
	t.Run("live watcher", func(t *testing.T) {
		run := srv.Wait(t, srv.Start(t, "weather", "hi").GetRunId())
		ctx := testserver.Context(t)
		stream, err := srv.Runs.WatchRun(ctx, &runsvcv1.WatchRunRequest{RunId: run.GetRunId()})
		if err != nil {
			t.Fatal(err)
		}
		for range run.GetLastSeq() {
			if _, err := stream.Recv(); err != nil {
				t.Fatal(err)
			}
		}
		row, err := srv.Store.GetRun(ctx, store.DefaultTenant, run.GetRunId())
		if err != nil {
			t.Fatal(err)
		}
		first, _ := srv.Store.ReadLog(ctx, store.DefaultTenant, run.GetRunId(), 1, 1)
		again := store.Record{Seq: row.LastSeq + 1, Time: time.Now(), Kind: first[0].Kind, Body: first[0].Body}
		if err := srv.Store.Append(ctx, store.Append{Tenant: store.DefaultTenant, RunID: run.GetRunId(), Records: []store.Record{again}, Index: row.Index}); err != nil {
			t.Fatal(err)
		}
		_, err = stream.Recv()
		if c := errdetails.Classify(err); c.Code != codes.DataLoss || c.Reason != "LOG_CORRUPT" {
			t.Fatalf("the live watcher got %v %s, want DATA_LOSS LOG_CORRUPT", c.Code, c.Reason)
		}
		checkFailedCorrupt(t, srv, run)
	})
}

// checkFailedCorrupt asserts what every client sees of a Run whose log
// was corrupted after run.
func checkFailedCorrupt(t *testing.T, srv *testserver.Server, run *runsvcv1.Run) {
	t.Helper()
	ctx := testserver.Context(t)
	bad := strconv.FormatInt(run.GetLastSeq()+1, 10)
	isCorrupt := func(what string, got *runsvcv1.Run) {
		t.Helper()
		c := errdetails.ClassifyStatus(got.GetFailure())
		if got.GetState() != runsvcv1.RunState_RUN_STATE_FAILED || c.Reason != "LOG_CORRUPT" || c.Code != codes.DataLoss ||
			c.Metadata["corruption"] != "second_admission" || c.Metadata["seq"] != bad || c.Metadata["runId"] != run.GetRunId() {
			t.Errorf("%s: state %v failure %+v", what, got.GetState(), c)
		}
	}
	got, err := srv.Runs.GetRun(ctx, &runsvcv1.GetRunRequest{RunId: run.GetRunId()})
	if err != nil {
		t.Fatal(err)
	}
	isCorrupt("GetRun", got.GetRun())
	waited, err := srv.Runs.WaitRun(ctx, &runsvcv1.WaitRunRequest{RunId: run.GetRunId(), Wait: durationpb.New(time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	isCorrupt("WaitRun", waited.GetRun())
	rep, err := srv.Runs.GetReport(ctx, &runsvcv1.GetReportRequest{RunId: run.GetRunId()})
	if err != nil {
		t.Fatal(err)
	}
	isCorrupt("GetReport", rep.GetReport().GetRun())
	listed, err := srv.Runs.ListRuns(ctx, &runsvcv1.ListRunsRequest{States: []runsvcv1.RunState{runsvcv1.RunState_RUN_STATE_FAILED}, PageSize: 500})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range listed.GetRuns() {
		found = found || r.GetRunId() == run.GetRunId()
	}
	if !found {
		t.Error("ListRuns of FAILED runs leaves the corrupt run out")
	}

	recs, err := watchAll(t, srv, run.GetRunId())
	if c := errdetails.Classify(err); c.Code != codes.DataLoss || c.Reason != "LOG_CORRUPT" || c.Metadata["seq"] != bad {
		t.Errorf("WatchRun ended with %v %s %v, want DATA_LOSS LOG_CORRUPT", c.Code, c.Reason, c.Metadata)
	}
	if int64(len(recs)) != run.GetLastSeq() {
		t.Errorf("WatchRun sent %d records, want the %d good ones", len(recs), run.GetLastSeq())
	}
	c := errdetails.Classify(streamText(t, srv, run.GetRunId()))
	if c.Code != codes.FailedPrecondition || c.Reason != "RUN_FAILED" || c.Metadata["failureReason"] != "LOG_CORRUPT" {
		t.Errorf("StreamText ended with %v %s %v, want RUN_FAILED for LOG_CORRUPT", c.Code, c.Reason, c.Metadata)
	}
	interrupted, err := srv.Runs.InterruptRun(ctx, &runsvcv1.InterruptRunRequest{RunId: run.GetRunId()})
	if err != nil {
		t.Fatalf("InterruptRun of the corrupt run: %v", err)
	}
	isCorrupt("InterruptRun", interrupted.GetRun())
	row, err := srv.Store.GetRun(ctx, store.DefaultTenant, run.GetRunId())
	if err != nil || row.LastSeq != run.GetLastSeq()+1 {
		t.Errorf("the log ends at seq %d (%v), want %d: something was appended after the corrupt record", row.LastSeq, err, run.GetLastSeq()+1)
	}
}

// watchAll reads a WatchRun stream from the start to its end.
func watchAll(t *testing.T, srv *testserver.Server, runID string) ([]*runsvcv1.Record, error) {
	t.Helper()
	stream, err := srv.Runs.WatchRun(testserver.Context(t), &runsvcv1.WatchRunRequest{RunId: runID})
	if err != nil {
		return nil, err
	}
	var out []*runsvcv1.Record
	for {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, resp.GetRecord())
	}
}

// streamText reads a StreamText stream to its end.
func streamText(t *testing.T, srv *testserver.Server, runID string) error {
	t.Helper()
	stream, err := srv.Runs.StreamText(testserver.Context(t), &runsvcv1.StreamTextRequest{RunId: runID})
	if err != nil {
		return err
	}
	return testserver.Drain(stream)
}
