package replicas_test

import (
	"fmt"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/structpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
	"github.com/runsvc/runsvc/internal/testing/blackbox"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// lookupSpec calls the worker tool lookup once, then answers with the
// tool's output. Its retry budget outlasts a replica starting up.
const lookupSpec = `{"name": "looks-up", "model": {"provider": "scripted", "script": {"turns": [
  {"toolCalls": [{"name": "lookup", "arguments": {"key": "answer"}}]},
  {"text": "looked up"}]}},
  "tools": [{"name": "lookup", "kind": "TOOL_KIND_WORKER"}],
  "limits": {"transientRetryBudget": 1000}}`

// lookup is the worker's tool: it answers the key it was asked for.
func lookup(args map[string]any) (any, *runsvcv1.ToolError) {
	return fmt.Sprintf("value of %v", args["key"]), nil
}

// TestWorkerOnAnotherReplica: a worker connected to replica A only serves
// the Runs replica B executes, InvokeTool on B, and ListTools on B lists
// it, through the store the replicas share.
func TestWorkerOnAnotherReplica(t *testing.T) {
	cluster := pgtest.Start(t)
	b := testserver.Start(t, onReplica(cluster, "replica-b"))
	b.Publish(t, lookupSpec)
	// B is the only replica when the Run starts, so B executes it: its
	// call fails transiently (no worker anywhere) until A's worker is there.
	early := b.Start(t, "looks-up", "early")
	waitFor(t, func() bool { return attempts(t, b.Runs, early.GetRunId()) > 0 })
	a := testserver.Start(t, onReplica(cluster, "replica-a"))
	worker := testserver.StartWorker(t, a.Tools, "worker-a", map[string]testserver.ToolFunc{"lookup": lookup})

	t.Run("a Run on B calls the worker on A", func(t *testing.T) { calledWorkerOnA(t, b, early.GetRunId(), worker) })

	t.Run("Runs started on B complete whichever replica runs them", func(t *testing.T) { startedOnBComplete(t, b) })

	t.Run("ListTools on B lists the worker on A", func(t *testing.T) {
		resp, err := b.Tools.ListTools(testserver.Context(t), &runsvcv1.ListToolsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		var found *runsvcv1.ToolInfo
		for _, ti := range resp.GetTools() {
			if ti.GetName() == "lookup" {
				found = ti
			}
		}
		if found == nil || found.GetKind() != runsvcv1.ToolKind_TOOL_KIND_WORKER || found.GetWorkers() != 1 {
			t.Errorf("ListTools on B: lookup = %v, want a worker tool with 1 worker", found)
		}
	})

	t.Run("InvokeTool on B runs the worker on A", func(t *testing.T) {
		args, _ := structpb.NewStruct(map[string]any{"key": "direct"})
		before := worker.Calls("lookup")
		resp, err := b.Tools.InvokeTool(testserver.Context(t), &runsvcv1.InvokeToolRequest{Name: "lookup", Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		if resp.GetError() != nil || resp.GetOutput().GetStringValue() != "value of direct" {
			t.Errorf("InvokeTool on B = %v, error %v", resp.GetOutput(), resp.GetError())
		}
		if worker.Calls("lookup") != before+1 {
			t.Errorf("the worker on A got %d calls, want 1", worker.Calls("lookup")-before)
		}
	})

	t.Run("once the worker leaves B no longer finds the tool", func(t *testing.T) {
		worker.Stop()
		deadline := time.Now().Add(time.Minute)
		for {
			_, err := b.Tools.InvokeTool(testserver.Context(t), &runsvcv1.InvokeToolRequest{Name: "lookup"})
			if err != nil {
				if c := errdetails.Classify(err); c.Reason != "TOOL_NOT_FOUND" {
					t.Fatalf("InvokeTool on B = %+v, want TOOL_NOT_FOUND", c)
				}
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("B still finds the tool a minute after its only worker left")
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
}

// calledWorkerOnA: the Run that B executed completed with the output of
// worker, connected to replica A, and ran on B only.
func calledWorkerOnA(t *testing.T, b *testserver.Server, runID string, worker *testserver.Worker) {
	run := b.Settled(t, runID)
	if run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED || run.GetAnswer() != "looked up" {
		t.Fatalf("run settled %v %q: %v", run.GetState(), run.GetAnswer(), run.GetFailure())
	}
	var ranOn []string
	var outputs []string
	for _, r := range b.Records(t, run.GetRunId()) {
		if s := r.GetAttemptStarted(); s != nil {
			ranOn = append(ranOn, s.GetWorkerId())
		}
		if f := r.GetToolCallFinished(); f != nil {
			outputs = append(outputs, f.GetOutput().GetStringValue())
		}
	}
	if fmt.Sprint(ranOn) != "[replica-b]" {
		t.Errorf("attempts ran on %v, want replica-b only", ranOn)
	}
	if fmt.Sprint(outputs) != "[value of answer]" {
		t.Errorf("tool outputs %q, want the worker's", outputs)
	}
	if worker.Calls("lookup") == 0 {
		t.Error("the worker on A received no call")
	}
}

// startedOnBComplete starts ten Runs on B and checks each completes,
// logging how many ran on B itself.
func startedOnBComplete(t *testing.T, b *testserver.Server) {
	const n = 10
	ids := make([]string, n)
	for i := range ids {
		ids[i] = b.Start(t, "looks-up", fmt.Sprint("run ", i)).GetRunId()
	}
	onB := 0
	for _, id := range ids {
		run := b.Settled(t, id)
		if run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED {
			t.Errorf("run %s settled %v: %v", id, run.GetState(), run.GetFailure())
		}
		for _, r := range b.Records(t, id) {
			if s := r.GetAttemptStarted(); s != nil && s.GetWorkerId() == "replica-b" {
				onB++
			}
		}
	}
	t.Logf("%d of %d Runs ran on replica B, calling the worker on A", onB, n)
}

// TestWorkerOnAnotherReplicaBinary is TestWorkerOnAnotherReplica with the
// built binary: `runsvc serve` replica B executes a Run whose tool only a
// worker connected to replica A serves.
func TestWorkerOnAnotherReplicaBinary(t *testing.T) {
	cluster := pgtest.Start(t)
	args := func(id string) []string {
		return []string{"--store", cluster.DSN(), "--worker-id", id, "--pool-size", "4"}
	}
	b := blackbox.Serve(t, blackbox.FreePort(t), args("replica-b")...)
	connB := b.Dial(t)
	ctx := testserver.Context(t)
	testserver.Publish(t, runsvcv1.NewSpecServiceClient(connB), lookupSpec)
	runsB := runsvcv1.NewRunServiceClient(connB)
	started, err := runsB.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "looks-up", Input: "go"})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return attempts(t, runsB, started.GetRun().GetRunId()) > 0 })
	a := blackbox.Serve(t, blackbox.FreePort(t), args("replica-a")...)
	worker := testserver.StartWorker(t, runsvcv1.NewToolServiceClient(a.Dial(t)), "worker-a", map[string]testserver.ToolFunc{"lookup": lookup})
	run := waitSettled(t, runsB, started.GetRun().GetRunId())
	if run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED || run.GetAnswer() != "looked up" {
		t.Fatalf("run settled %v %q: %v", run.GetState(), run.GetAnswer(), run.GetFailure())
	}
	if run.GetAttempt() != 1 {
		t.Errorf("the run took %d attempts, want replica B's one", run.GetAttempt())
	}
	if worker.Calls("lookup") == 0 {
		t.Error("the worker on A received no call")
	}
}

// attempts returns how many Attempts a Run has had so far.
func attempts(t *testing.T, runs runsvcv1.RunServiceClient, runID string) int32 {
	t.Helper()
	resp, err := runs.GetRun(testserver.Context(t), &runsvcv1.GetRunRequest{RunId: runID})
	if err != nil {
		t.Fatal(err)
	}
	return resp.GetRun().GetAttempt()
}
