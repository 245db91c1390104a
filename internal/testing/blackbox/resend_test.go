package blackbox_test

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/blackbox"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestWorkerAnswersAgainFromItsCache is item 4 of issue 20 for worker
// tools: runsvc is kill -9'd while an at-least-once worker call runs; the
// worker outlives it and reconnects, and the Run's next Attempt sends the
// call again with the same call id. A worker with its result cache (the
// default of the Go, Python and Node helpers) answers it with the one
// run's result, even while that run is still going; without the cache the
// tool runs a second time.
func TestWorkerAnswersAgainFromItsCache(t *testing.T) {
	data, addr := t.TempDir(), blackbox.FreePort(t)
	args := []string{"--data", data, "--lease-ttl", "1s"}
	p := blackbox.Serve(t, addr, args...)
	conn := p.Dial(t)
	specs, runs := runsvcv1.NewSpecServiceClient(conn), runsvcv1.NewRunServiceClient(conn)
	tests := []struct {
		name, tool string
		opts       []testserver.WorkerOption
		wantRuns   int
		wantOutput string
	}{
		{name: "with the cache the tool runs once", tool: "hold_c", wantRuns: 1, wantOutput: "run 1"},
		{name: "without the cache it runs again", tool: "hold_w", opts: []testserver.WorkerOption{testserver.WithoutResultCache()}, wantRuns: 2, wantOutput: "run 2"},
	}
	release := make(chan struct{})
	started := make(chan string, len(tests))
	workers, ids := map[string]*testserver.Worker{}, map[string]string{}
	for _, tt := range tests {
		var n atomic.Int32
		hold := func(map[string]any) (any, *runsvcv1.ToolError) {
			i := n.Add(1)
			if i == 1 {
				started <- tt.tool
				<-release
			}
			return fmt.Sprint("run ", i), nil
		}
		wconn := testserver.Dial(t, addr)
		opts := append([]testserver.WorkerOption{testserver.Reconnecting()}, tt.opts...)
		workers[tt.tool] = testserver.StartWorker(t, runsvcv1.NewToolServiceClient(wconn), tt.tool, map[string]testserver.ToolFunc{tt.tool: hold}, opts...)
		testserver.Publish(t, specs, fmt.Sprintf(`{"name": %q, "model": {"provider": "scripted", "script": {"turns": [
		  {"toolCalls": [{"name": %q, "arguments": {}}]}, {"text": "done"}]}},
		  "tools": [{"name": %q, "kind": "TOOL_KIND_WORKER"}], "limits": {"transientRetryBudget": 100}}`, tt.tool, tt.tool, tt.tool))
		resp, err := runs.StartRun(testserver.Context(t), &runsvcv1.StartRunRequest{Spec: tt.tool, Input: "go"})
		if err != nil {
			t.Fatal(err)
		}
		ids[tt.tool] = resp.GetRun().GetRunId()
	}
	for range tests {
		select {
		case <-started:
		case <-time.After(60 * time.Second):
			t.Fatal("not every call reached its worker")
		}
	}
	p.Kill()
	p = blackbox.Serve(t, addr, args...)
	runs = runsvcv1.NewRunServiceClient(p.Dial(t))
	// The call is sent again while its first run still holds.
	for _, tt := range tests {
		key := ids[tt.tool] + "/call_1_1"
		waitFor(t, func() bool { return workers[tt.tool].Received(key) == 2 })
	}
	close(release)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, w := ids[tt.tool], workers[tt.tool]
			got := waitState(t, runs, id, runsvcv1.RunState_RUN_STATE_COMPLETED)
			f := finishedCall(t, runs, id)
			key := id + "/call_1_1"
			if w.Ran(key) != tt.wantRuns || f.GetOutput().GetStringValue() != tt.wantOutput || got.GetAnswer() != "done" {
				t.Errorf("ran %d times, received %d, output %v, answer %q: want %d runs, output %q, done",
					w.Ran(key), w.Received(key), f.GetOutput(), got.GetAnswer(), tt.wantRuns, tt.wantOutput)
			}
			if w.Connections() < 2 {
				t.Errorf("the worker registered %d times, want a reconnection", w.Connections())
			}
		})
	}
}

// waitFor polls cond for up to a minute.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition never held")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
