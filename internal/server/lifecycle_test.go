package server_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/runsvc/runsvc/client"
	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// eraseSpec suspends on a client tool, so a Run of it is active until the
// caller answers, and its answer then is the tool's output; its family
// memory goes with it.
const eraseSpec = `{"name": "erase", "model": {"provider": "scripted", "script": {"turns": [
  {"toolCalls": [{"name": "lookup", "arguments": {}}]}, {"text": "done"}]}},
  "tools": [{"name": "lookup", "kind": "TOOL_KIND_CLIENT", "description": "Look things up"}],
  "retention": {"deleteMemory": true}}`

// TestDeleteRun deletes a settled Run over gRPC on SQLite and on
// PostgreSQL: afterwards every read is NOT_FOUND, and a marker from its
// input and from its tool output (which its answer was made of) is in
// neither the SQLite file after compaction nor a pg_dump. Deleting an
// active Run without interrupt is RUN_NOT_SETTLED and changes nothing.
func TestDeleteRun(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		var data string
		s := testserver.Start(t, func(c *server.Config) { data = c.Data })
		deleteRun(t, s, func(t *testing.T) []byte { return sqliteBytes(t, s, data) })
	})
	t.Run("postgres", func(t *testing.T) {
		cluster := pgtest.Start(t)
		dsn := cluster.NewDatabase(t)
		s := testserver.Start(t, func(c *server.Config) { c.Store = dsn })
		deleteRun(t, s, func(t *testing.T) []byte {
			if err := s.Store.Compact(testserver.Context(t)); err != nil {
				t.Fatalf("Compact: %v", err)
			}
			return cluster.Dump(t, dsn)
		})
	})
}

// sqliteBytes compacts the store and returns every byte of its files.
func sqliteBytes(t *testing.T, s *testserver.Server, data string) []byte {
	t.Helper()
	if err := s.Store.Compact(testserver.Context(t)); err != nil {
		t.Fatalf("Compact: %v", err)
	}
	var all []byte
	for _, name := range []string{"runsvc.db", "runsvc.db-wal", "runsvc.db-shm"} {
		b, err := os.ReadFile(filepath.Join(data, name))
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		all = append(all, b...)
	}
	return all
}

func deleteRun(t *testing.T, s *testserver.Server, storeBytes func(t *testing.T) []byte) {
	s.Publish(t, eraseSpec)
	marker := fmt.Sprintf("MARK%d", time.Now().UnixNano())
	ctx := testserver.Context(t)
	run := s.Start(t, "erase", "my secret is IN-"+marker)
	if got := s.Wait(t, run.GetRunId()); got.GetState() != runsvcv1.RunState_RUN_STATE_SUSPENDED {
		t.Fatalf("run is %v, want SUSPENDED", got.GetState())
	}
	if _, err := s.Memory.SetValue(ctx, &runsvcv1.SetValueRequest{Scope: &runsvcv1.MemoryScope{Scope: &runsvcv1.MemoryScope_RunId{RunId: run.GetRunId()}}, Key: "k", Value: structpb.NewStringValue("MEM-" + marker)}); err != nil {
		t.Fatal(err)
	}
	before := s.RecordsSoFar(t, run.GetRunId())

	t.Run("active run refused, nothing changes", func(t *testing.T) {
		_, err := s.Runs.DeleteRun(ctx, &runsvcv1.DeleteRunRequest{RunId: run.GetRunId()})
		c := client.Classify(err)
		if c.Code != codes.FailedPrecondition || c.Reason != "RUN_NOT_SETTLED" || c.Metadata["runState"] != "SUSPENDED" {
			t.Fatalf("DeleteRun(active) = %v %s %v, want FAILED_PRECONDITION RUN_NOT_SETTLED runState SUSPENDED", c.Code, c.Reason, c.Metadata)
		}
		if after := s.RecordsSoFar(t, run.GetRunId()); len(after) != len(before) {
			t.Fatalf("the refused delete changed the log: %d records, was %d", len(after), len(before))
		}
	})

	pending := s.Wait(t, run.GetRunId()).GetSuspension().GetToolCalls()[0].GetCallId()
	if _, err := s.Runs.ResumeRun(ctx, &runsvcv1.ResumeRunRequest{RunId: run.GetRunId(), ToolResults: []*runsvcv1.ToolResult{
		{CallId: pending, Output: structpb.NewStringValue("OUT-" + marker)},
	}}); err != nil {
		t.Fatal(err)
	}
	s.Settled(t, run.GetRunId())
	for _, m := range []string{"IN-" + marker, "OUT-" + marker, "MEM-" + marker} {
		if n := occurrences(storeBytes(t), m); n == 0 {
			t.Fatalf("before the delete %s is not in the store: the check below could not fail", m)
		}
	}
	if _, err := s.Runs.DeleteRun(ctx, &runsvcv1.DeleteRunRequest{RunId: run.GetRunId()}); err != nil {
		t.Fatalf("DeleteRun(settled) = %v", err)
	}
	for _, r := range readsOf(run.GetRunId()) {
		t.Run("not found on "+r.name, func(t *testing.T) {
			if c := client.Classify(r.call(ctx, s)); c.Code != codes.NotFound || c.Reason != "RUN_NOT_FOUND" {
				t.Fatalf("%s after delete = %v %s, want NOT_FOUND RUN_NOT_FOUND", r.name, c.Code, c.Reason)
			}
		})
	}
	all := storeBytes(t)
	for _, m := range []string{"IN-" + marker, "OUT-" + marker, "MEM-" + marker} {
		if n := occurrences(all, m); n != 0 {
			t.Errorf("%s appears %d times in the store after delete and compaction, want 0", m, n)
		}
	}
}

// occurrences counts a marker in a store's bytes, as itself and as the
// hex pg_dump writes bytea columns in.
func occurrences(all []byte, marker string) int {
	return bytes.Count(all, []byte(marker)) + bytes.Count(all, []byte(hex.EncodeToString([]byte(marker))))
}

type readCall struct {
	name string
	call func(ctx context.Context, s *testserver.Server) error
}

// readsOf are every read RPC of a Run.
func readsOf(runID string) []readCall {
	stream := func(recv func() error) error {
		for {
			if err := recv(); err != nil {
				if err == io.EOF {
					return nil
				}
				return err
			}
		}
	}
	return []readCall{
		{"GetRun", func(ctx context.Context, s *testserver.Server) error {
			_, err := s.Runs.GetRun(ctx, &runsvcv1.GetRunRequest{RunId: runID})
			return err
		}},
		{"WaitRun", func(ctx context.Context, s *testserver.Server) error {
			_, err := s.Runs.WaitRun(ctx, &runsvcv1.WaitRunRequest{RunId: runID, Wait: durationpb.New(time.Second)})
			return err
		}},
		{"GetReport", func(ctx context.Context, s *testserver.Server) error {
			_, err := s.Runs.GetReport(ctx, &runsvcv1.GetReportRequest{RunId: runID})
			return err
		}},
		{"WatchRun", func(ctx context.Context, s *testserver.Server) error {
			st, err := s.Runs.WatchRun(ctx, &runsvcv1.WatchRunRequest{RunId: runID})
			if err != nil {
				return err
			}
			return stream(func() error { _, err := st.Recv(); return err })
		}},
		{"StreamText", func(ctx context.Context, s *testserver.Server) error {
			st, err := s.Runs.StreamText(ctx, &runsvcv1.StreamTextRequest{RunId: runID})
			if err != nil {
				return err
			}
			return stream(func() error { _, err := st.Recv(); return err })
		}},
		{"ExportRun", func(ctx context.Context, s *testserver.Server) error {
			st, err := s.Runs.ExportRun(ctx, &runsvcv1.ExportRunRequest{RunId: runID})
			if err != nil {
				return err
			}
			return stream(func() error { _, err := st.Recv(); return err })
		}},
		{"DeleteRun", func(ctx context.Context, s *testserver.Server) error {
			_, err := s.Runs.DeleteRun(ctx, &runsvcv1.DeleteRunRequest{RunId: runID})
			return err
		}},
		{"MemoryService.GetValue", func(ctx context.Context, s *testserver.Server) error {
			_, err := s.Memory.GetValue(ctx, &runsvcv1.GetValueRequest{Scope: &runsvcv1.MemoryScope{Scope: &runsvcv1.MemoryScope_RunId{RunId: runID}}, Keys: []string{"k"}})
			return err
		}},
	}
}
