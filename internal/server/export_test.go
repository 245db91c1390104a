package server_test

import (
	"io"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/runsvc/runsvc/client"
	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestExportImportRoundTrip exports a settled Run from one server and
// imports it into a second: GetRun, WatchRun and GetReport return the
// same messages on both; importing again returns the same Run; the
// imported Run is read-only; an active Run cannot be imported.
func TestExportImportRoundTrip(t *testing.T) {
	src, dst := testserver.Start(t), testserver.Start(t)
	src.Publish(t, eraseSpec)
	ctx := testserver.Context(t)
	run := src.Start(t, "erase", "look this up")
	call := src.Wait(t, run.GetRunId()).GetSuspension().GetToolCalls()[0].GetCallId()
	active := exportLines(t, src, run.GetRunId())
	if _, err := src.Runs.ResumeRun(ctx, &runsvcv1.ResumeRunRequest{RunId: run.GetRunId(), ToolResults: []*runsvcv1.ToolResult{
		{CallId: call, Output: structpb.NewStringValue("found <it> & more")},
	}}); err != nil {
		t.Fatal(err)
	}
	src.Settled(t, run.GetRunId())
	lines := exportLines(t, src, run.GetRunId())

	t.Run("active run refused", func(t *testing.T) {
		_, err := importLines(t, dst, active)
		if c := client.Classify(err); c.Code != codes.InvalidArgument || c.Reason != "INVALID_REQUEST" {
			t.Fatalf("ImportRun(active) = %v %s, want INVALID_ARGUMENT INVALID_REQUEST", c.Code, c.Reason)
		}
	})
	resp, err := importLines(t, dst, lines)
	if err != nil || !resp.GetCreated() {
		t.Fatalf("ImportRun = created %v, %v", resp.GetCreated(), err)
	}
	id := run.GetRunId()
	compareReads(t, src, dst, id)
	t.Run("import again", func(t *testing.T) {
		again, err := importLines(t, dst, lines)
		if err != nil || again.GetCreated() || again.GetRun().GetRunId() != id {
			t.Fatalf("ImportRun again = %s created %v, %v; want the same Run, created false", again.GetRun().GetRunId(), again.GetCreated(), err)
		}
	})
	t.Run("read-only", func(t *testing.T) {
		_, err := dst.Runs.SendMessage(ctx, &runsvcv1.SendMessageRequest{RunId: id, Text: "more"})
		if c := client.Classify(err); c.Reason != "RUN_ALREADY_SETTLED" {
			t.Fatalf("SendMessage(imported) = %v %s, want RUN_ALREADY_SETTLED", c.Code, c.Reason)
		}
	})
	t.Run("export of the import is the export", func(t *testing.T) {
		again := exportLines(t, dst, id)
		if len(again) != len(lines) {
			t.Fatalf("re-export has %d lines, the export %d", len(again), len(lines))
		}
		for i := range lines {
			if again[i] != lines[i] {
				t.Errorf("line %d differs:\n%s\n%s", i+1, lines[i], again[i])
			}
		}
	})
}

// compareReads checks that GetRun, WatchRun and GetReport of a Run answer
// the same messages on two servers.
func compareReads(t *testing.T, src, dst *testserver.Server, id string) {
	t.Helper()
	ctx := testserver.Context(t)
	for _, tc := range []struct {
		name string
		get  func(s *testserver.Server) []proto.Message
	}{
		{"GetRun", func(s *testserver.Server) []proto.Message {
			r, err := s.Runs.GetRun(ctx, &runsvcv1.GetRunRequest{RunId: id})
			if err != nil {
				t.Fatal(err)
			}
			return []proto.Message{r}
		}},
		{"WatchRun", func(s *testserver.Server) []proto.Message {
			var out []proto.Message
			for _, r := range s.Records(t, id) {
				out = append(out, r)
			}
			return out
		}},
		{"GetReport", func(s *testserver.Server) []proto.Message {
			r, err := s.Runs.GetReport(ctx, &runsvcv1.GetReportRequest{RunId: id, ChildDepth: 3})
			if err != nil {
				t.Fatal(err)
			}
			return []proto.Message{r}
		}},
	} {
		t.Run("identical "+tc.name, func(t *testing.T) {
			want, got := tc.get(src), tc.get(dst)
			if len(want) != len(got) || len(want) == 0 {
				t.Fatalf("%s: %d messages on the source, %d on the import", tc.name, len(want), len(got))
			}
			for i := range want {
				if !proto.Equal(want[i], got[i]) {
					t.Errorf("%s message %d differs:\nsource %v\nimport %v", tc.name, i, want[i], got[i])
				}
			}
		})
	}
}

func exportLines(t *testing.T, s *testserver.Server, runID string) []string {
	t.Helper()
	st, err := s.Runs.ExportRun(testserver.Context(t), &runsvcv1.ExportRunRequest{RunId: runID})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for {
		resp, err := st.Recv()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("ExportRun: %v", err)
		}
		out = append(out, resp.GetLine())
	}
}

func importLines(t *testing.T, s *testserver.Server, lines []string) (*runsvcv1.ImportRunResponse, error) {
	t.Helper()
	st, err := s.Runs.ImportRun(testserver.Context(t))
	if err != nil {
		return nil, err
	}
	for _, l := range lines {
		if err := st.Send(&runsvcv1.ImportRunRequest{Line: l}); err != nil {
			break
		}
	}
	return st.CloseAndRecv()
}
