package replicas_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
	"github.com/runsvc/runsvc/internal/testing/blackbox"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

const workSpec = `{"name": "work", "model": {"provider": "scripted", "script": {"turns": [
  {"toolCalls": [{"name": "step", "arguments": {"n": 1}}]},
  {"toolCalls": [{"name": "step", "arguments": {"n": 2}}]},
  {"toolCalls": [{"name": "step", "arguments": {"n": 3}}]},
  {"text": "all steps done"}]}},
  "tools": [{"name": "step", "kind": "TOOL_KIND_WORKER"}]}`

// TestTwoReplicasSurviveSIGKILL: 200 Runs using worker tools on two
// replicas of one PostgreSQL; one replica dies by SIGKILL mid-flight.
// Every Run settles, every log is gapless, no call is answered twice, and
// the survivor's log shows the takeovers.
func TestTwoReplicasSurviveSIGKILL(t *testing.T) {
	cluster := pgtest.Start(t)
	dsn := cluster.DSN()
	args := func(id string) []string {
		return []string{"--store", dsn, "--lease-ttl", "2s", "--worker-id", id, "--pool-size", "8"}
	}
	a := blackbox.Serve(t, blackbox.FreePort(t), args("replica-a")...)
	metricsB := blackbox.FreePort(t)
	b := blackbox.Serve(t, blackbox.FreePort(t), append(args("replica-b"), "--metrics-listen", metricsB)...)
	connA, connB := a.Dial(t), b.Dial(t)
	ctx := testserver.Context(t)

	step := func(args map[string]any) (any, *runsvcv1.ToolError) {
		time.Sleep(150 * time.Millisecond)
		return fmt.Sprintf("step %v done", args["n"]), nil
	}
	testserver.StartWorker(t, runsvcv1.NewToolServiceClient(connA), "worker-a", map[string]testserver.ToolFunc{"step": step})
	testserver.StartWorker(t, runsvcv1.NewToolServiceClient(connB), "worker-b", map[string]testserver.ToolFunc{"step": step})

	testserver.Publish(t, runsvcv1.NewSpecServiceClient(connA), workSpec)
	runsA, runsB := runsvcv1.NewRunServiceClient(connA), runsvcv1.NewRunServiceClient(connB)
	const total = 200
	ids := make([]string, total)
	var wg sync.WaitGroup
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < total; i += 16 {
				client := runsA
				if i%2 == 1 {
					client = runsB
				}
				resp, err := client.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "work", Input: fmt.Sprint(i), RequestId: fmt.Sprintf("load-%d", i)})
				if err != nil {
					t.Error(err)
					return
				}
				ids[i] = resp.GetRun().GetRunId()
			}
		}(w)
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	// Kill replica A once some Runs have settled and others are mid-flight.
	waitFor(t, func() bool { return countSettled(ctx, runsB) >= total/10 })
	a.Kill()
	t.Logf("killed replica A with %d of %d runs settled", countSettled(ctx, runsB), total)

	var takeovers atomic.Int32
	for _, id := range ids {
		run := waitSettled(t, runsB, id)
		if run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED {
			t.Errorf("run %s settled %v: %v", id, run.GetState(), run.GetFailure())
			continue
		}
		if run.GetAttempt() > 1 {
			takeovers.Add(1)
		}
		checkLog(t, runsB, run)
	}
	if takeovers.Load() == 0 {
		t.Error("no run was taken over: replica A died with nothing in flight")
	}
	if n := strings.Count(b.Log(), `"msg":"took over run"`); n == 0 {
		t.Errorf("the survivor's log shows no takeover")
	} else {
		t.Logf("%d runs taken over by replica B (%d takeover lines in its log)", takeovers.Load(), n)
		// Every takeover is counted, once.
		if want := fmt.Sprintf("runsvc_lease_takeovers_total %d\n", n); !strings.Contains(scrapeMetrics(t, metricsB), want) {
			t.Errorf("replica B's /metrics lacks %q", want)
		}
	}
}

// scrapeMetrics reads a replica's /metrics.
func scrapeMetrics(t *testing.T, addr string) string {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(body)
}

// checkLog reads a Run's log: gapless from 1, and every call answered once.
func checkLog(t *testing.T, runs runsvcv1.RunServiceClient, run *runsvcv1.Run) {
	t.Helper()
	recs := testserver.Records(t, runs, run.GetRunId())
	answered := map[string]int{}
	for i, r := range recs {
		if got := r.GetSeq(); got != int64(i+1) {
			t.Fatalf("run %s: record %d has seq %d", run.GetRunId(), i+1, got)
		}
		if f := r.GetToolCallFinished(); f != nil {
			answered[f.GetCallId()]++
		}
	}
	if int64(len(recs)) != run.GetLastSeq() {
		t.Errorf("run %s: %d records read, last_seq %d", run.GetRunId(), len(recs), run.GetLastSeq())
	}
	for id, n := range answered {
		if n != 1 {
			t.Errorf("run %s: call %s answered %d times", run.GetRunId(), id, n)
		}
	}
	if len(answered) != 3 {
		t.Errorf("run %s: %d calls answered, want 3", run.GetRunId(), len(answered))
	}
}

func countSettled(ctx context.Context, runs runsvcv1.RunServiceClient) int {
	resp, err := runs.ListRuns(ctx, &runsvcv1.ListRunsRequest{States: []runsvcv1.RunState{
		runsvcv1.RunState_RUN_STATE_COMPLETED, runsvcv1.RunState_RUN_STATE_FAILED, runsvcv1.RunState_RUN_STATE_ABORTED,
	}, PageSize: 500})
	if err != nil {
		return 0
	}
	return len(resp.GetRuns())
}

func waitSettled(t *testing.T, runs runsvcv1.RunServiceClient, id string) *runsvcv1.Run {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		resp, err := runs.WaitRun(testserver.Context(t), &runsvcv1.WaitRunRequest{RunId: id, Wait: durationpb.New(10 * time.Second)})
		if err == nil && resp.GetRun().GetSettleTime() != nil {
			return resp.GetRun()
		}
		if time.Now().After(deadline) {
			t.Fatalf("run %s never settled: %v %v", id, resp.GetRun().GetState(), err)
		}
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition never held")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// onReplica makes a server replica id of the one PostgreSQL cluster.
func onReplica(cluster *pgtest.Cluster, id string) testserver.Option {
	return func(c *server.Config) { c.Store, c.WorkerID = cluster.DSN(), id }
}

// waitingRun publishes, on srv, a Spec whose Run calls a client tool, and
// returns such a Run once it has stopped to wait for the result.
func waitingRun(t *testing.T, srv *testserver.Server) *runsvcv1.Run {
	t.Helper()
	srv.Publish(t, `{"name": "waits", "model": {"provider": "scripted", "script": {"turns": [{"toolCalls": [{"name": "ask", "arguments": {}}]}, {"text": "x"}]}},
	  "tools": [{"name": "ask", "kind": "TOOL_KIND_CLIENT"}]}`)
	return srv.Wait(t, srv.Start(t, "waits", "go").GetRunId())
}
