package blackbox_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"google.golang.org/protobuf/types/known/structpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/blackbox"
	"github.com/runsvc/runsvc/internal/testing/fakeopenai"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// servePages connects a worker serving fetch with 200 bytes, which stops
// answering after answer calls (-1: never stops); it returns how many
// calls it got.
func servePages(t *testing.T, tools runsvcv1.ToolServiceClient, answer int) func() int {
	t.Helper()
	stream, err := tools.ServeTools(testserver.Context(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := testserver.Register(stream, &runsvcv1.ServeToolsRequest_Register{WorkerName: "pages", Tools: []*runsvcv1.ToolDefinition{{Name: "fetch"}}}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	calls := 0
	go testserver.ServeCalls(stream, func(call *runsvcv1.ServeToolsResponse_Call) bool {
		mu.Lock()
		calls++
		n := calls
		mu.Unlock()
		if answer >= 0 && n > answer {
			return true
		}
		res := &runsvcv1.ServeToolsRequest_Result{CallId: call.GetCallId(), Output: structpb.NewStringValue(strings.Repeat("x", 200))}
		return stream.Send(&runsvcv1.ServeToolsRequest{Message: &runsvcv1.ServeToolsRequest_Result_{Result: res}}) == nil
	})
	return func() int {
		mu.Lock()
		defer mu.Unlock()
		return calls
	}
}

// TestCompactionSurvivesKill: kill -9 after the history was compacted; the
// Run's next owner gives the model the summary from the log (the
// summariser is never asked for it again) and the Run completes.
func TestCompactionSurvivesKill(t *testing.T) {
	var turns []fakeopenai.Turn
	for i := range 6 {
		turns = append(turns, fakeopenai.Turn{Calls: []fakeopenai.Call{{ID: fmt.Sprintf("p%d", i), Name: "fetch", Args: fmt.Sprintf(`{"page":%d}`, i)}}})
	}
	main := fakeopenai.Start(t, append(turns, fakeopenai.Turn{Text: "all read"})...)
	summariser := fakeopenai.Start(t, fakeopenai.Turn{Text: "SUMMARY: pages were fetched."})
	data, addr := t.TempDir(), blackbox.FreePort(t)
	args := []string{"--data", data, "--lease-ttl", "2s"}
	p := blackbox.Serve(t, addr, args...)
	conn := p.Dial(t)
	testserver.Publish(t, runsvcv1.NewSpecServiceClient(conn), fmt.Sprintf(`{"name": "compacts", "model": {"provider": "openai", "model": "fake", "baseUrl": %q, "contextWindow": 900},
	  "compaction": {"model": {"provider": "openai", "model": "fake-summariser", "baseUrl": %q}},
	  "tools": [{"name": "fetch", "kind": "TOOL_KIND_WORKER"}]}`, main.URL, summariser.URL))
	calls := servePages(t, runsvcv1.NewToolServiceClient(conn), 4)
	resp, err := runsvcv1.NewRunServiceClient(conn).StartRun(testserver.Context(t), &runsvcv1.StartRunRequest{Spec: "compacts", Input: "read every page"})
	if err != nil {
		t.Fatal(err)
	}
	waitUntil(t, func() bool { return calls() == 5 })
	summaries := len(summariser.Requests())
	if summaries == 0 {
		t.Fatal("no compaction before the kill")
	}
	before := len(main.Requests())

	p.Kill()
	p = blackbox.Serve(t, addr, args...)
	conn = p.Dial(t)
	servePages(t, runsvcv1.NewToolServiceClient(conn), -1)
	runs := runsvcv1.NewRunServiceClient(conn)
	run := waitState(t, runs, resp.GetRun().GetRunId(), runsvcv1.RunState_RUN_STATE_COMPLETED)
	var compacted int
	for _, r := range testserver.Records(t, runs, run.GetRunId()) {
		if r.GetHistoryCompacted() != nil {
			compacted++
		}
	}
	if got := len(summariser.Requests()); got != compacted {
		t.Errorf("the summariser got %d requests for %d history_compacted records: a summary was made again", got, compacted)
	}
	reqs := main.Requests()
	if len(reqs) <= before || !strings.Contains(fmt.Sprint(fakeopenai.Messages(reqs[before])), "SUMMARY: pages were fetched.") {
		t.Errorf("the first request after the restart (of %d) lacks the recorded summary", len(reqs))
	}
	if run.GetAttempt() != 2 || run.GetAnswer() != "all read" {
		t.Errorf("run answered %q after %d attempts, want \"all read\" after 2", run.GetAnswer(), run.GetAttempt())
	}
}
