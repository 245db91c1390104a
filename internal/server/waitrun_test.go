package server_test

import (
	"testing"

	"google.golang.org/protobuf/proto"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestWaitRunTakesTheEndFromItsSignal: on PostgreSQL, a WaitRun for a Run
// this replica runs reads the Run once, before it ends; the end comes with
// the settling append's signal, and is the Run GetRun returns afterwards.
// Each read is a round trip there (SQLite's GetRun is a cache hit).
func TestWaitRunTakesTheEndFromItsSignal(t *testing.T) {
	dsn := pgtest.Start(t).NewDatabase(t)
	srv := testserver.Start(t, func(c *server.Config) {
		c.Store = dsn
		c.Ops.MetricsListen = "127.0.0.1:0"
	})
	srv.Publish(t, `{"name": "later", "model": {"provider": "scripted", "script": {"turns": [{"text": "done", "delay": "0.3s"}]}}}`)
	tests := []struct {
		name  string
		input string
	}{
		{name: "first Run", input: "one"},
		{name: "second Run", input: "two"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := srv.Start(t, "later", tt.input).GetRunId()
			before := storeReads(t, srv.MetricsAddr)
			waited, err := srv.Runs.WaitRun(testserver.Context(t), &runsvcv1.WaitRunRequest{RunId: id})
			if err != nil {
				t.Fatal(err)
			}
			if reads := storeReads(t, srv.MetricsAddr) - before; reads != 1 {
				t.Errorf("WaitRun read the Run %v times, want 1 (the end comes with its signal)", reads)
			}
			if got := waited.GetRun().GetState(); got != runsvcv1.RunState_RUN_STATE_COMPLETED {
				t.Fatalf("WaitRun returned a %v Run, want COMPLETED", got)
			}
			stored, err := srv.Runs.GetRun(testserver.Context(t), &runsvcv1.GetRunRequest{RunId: id})
			if err != nil {
				t.Fatal(err)
			}
			if !proto.Equal(waited.GetRun(), stored.GetRun()) {
				t.Errorf("WaitRun returned\n %v\nGetRun then returned\n %v", waited.GetRun(), stored.GetRun())
			}
		})
	}
}

// storeReads is how many GetRun calls of the server's store succeeded, by
// its metrics (none yet when the sample is missing).
func storeReads(t *testing.T, addr string) float64 {
	t.Helper()
	v, _ := metricValue(t, addr, `runsvc_store_operation_duration_seconds_count{operation="GetRun",outcome="ok"}`)
	return v
}
