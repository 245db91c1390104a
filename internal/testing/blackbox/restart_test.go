package blackbox_test

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/structpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/blackbox"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

const restartSpecs = `[
 {"name": "waits", "model": {"provider": "scripted", "script": {"turns": [{"toolCalls": [{"name": "lookup", "arguments": {"q": "x"}}]}, {"text": "resumed and done"}]}},
  "tools": [{"name": "lookup", "kind": "TOOL_KIND_CLIENT"}]},
 {"name": "slow", "model": {"provider": "scripted", "script": {"turns": [{"toolCalls": [{"name": "memory_set", "arguments": {"key": "k", "value": 1}}]}, {"text": "taken over and done", "delay": "4s"}]}},
  "tools": [{"name": "memory_set", "kind": "TOOL_KIND_BUILTIN"}]}
]`

// TestKillAndRestart: kill -9 the server with one Run suspended and one in
// the middle of a model call; after a restart the first resumes and the
// second is taken over once its lease expires, and both logs are gapless.
func TestKillAndRestart(t *testing.T) {
	data := t.TempDir()
	addr := blackbox.FreePort(t)
	args := []string{"--data", data, "--lease-ttl", "2s"}
	p := blackbox.Serve(t, addr, args...)
	conn := p.Dial(t)
	specs, runs := runsvcv1.NewSpecServiceClient(conn), runsvcv1.NewRunServiceClient(conn)
	ctx := testserver.Context(t)
	for _, raw := range splitJSONArray(t, restartSpecs) {
		testserver.Publish(t, specs, raw)
	}
	start := func(spec string) string {
		resp, err := runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: spec, Input: "go"})
		if err != nil {
			t.Fatal(err)
		}
		return resp.GetRun().GetRunId()
	}
	waiting, midTurn := start("waits"), start("slow")
	waitState(t, runs, waiting, runsvcv1.RunState_RUN_STATE_SUSPENDED)
	waitUntil(t, func() bool {
		got, err := runs.GetRun(ctx, &runsvcv1.GetRunRequest{RunId: midTurn})
		return err == nil && got.GetRun().GetTurn() == 2
	})

	p.Kill()
	p = blackbox.Serve(t, addr, args...)
	conn = p.Dial(t)
	runs = runsvcv1.NewRunServiceClient(conn)

	if _, err := runs.ResumeRun(ctx, &runsvcv1.ResumeRunRequest{RunId: waiting, ToolResults: []*runsvcv1.ToolResult{{CallId: "call_1_1", Output: structpb.NewStringValue("found")}}}); err != nil {
		t.Fatalf("resume after restart: %v", err)
	}
	for _, tc := range []struct {
		id, answer string
		attempts   int32
	}{{waiting, "resumed and done", 2}, {midTurn, "taken over and done", 2}} {
		got := waitState(t, runs, tc.id, runsvcv1.RunState_RUN_STATE_COMPLETED)
		if got.GetAnswer() != tc.answer || got.GetAttempt() != tc.attempts {
			t.Errorf("run %s: answer %q after %d attempts", tc.id, got.GetAnswer(), got.GetAttempt())
		}
		recs := testserver.Records(t, runs, tc.id)
		for i, r := range recs {
			if r.GetSeq() != int64(i+1) {
				t.Fatalf("run %s: record %d has seq %d", tc.id, i+1, r.GetSeq())
			}
		}
		if int64(len(recs)) != got.GetLastSeq() {
			t.Errorf("run %s: read %d records, last_seq %d", tc.id, len(recs), got.GetLastSeq())
		}
	}
	if !strings.Contains(p.Log(), `"msg":"took over run"`) {
		t.Errorf("the takeover is not in the log:\n%s", p.Log())
	}
	if code := p.Stop(t); code != 0 {
		t.Errorf("graceful stop exited %d", code)
	}
}

// TestServeListsEveryService: grpcurl against `runsvc serve` on its
// embedded defaults lists the six services, health and reflection.
func TestServeListsEveryService(t *testing.T) {
	addr := blackbox.FreePort(t)
	blackbox.Serve(t, addr, "--data", t.TempDir())
	out, err := exec.Command("go", "tool", "grpcurl", "-plaintext", addr, "list").CombinedOutput()
	if err != nil {
		t.Fatalf("grpcurl list: %v\n%s", err, out)
	}
	for _, want := range []string{
		"runsvc.v1.SpecService", "runsvc.v1.RunService", "runsvc.v1.ToolService", "runsvc.v1.DelegationService",
		"runsvc.v1.MemoryService", "runsvc.v1.BusService", "grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("grpcurl list lacks %s:\n%s", want, out)
		}
	}
}

func waitState(t *testing.T, runs runsvcv1.RunServiceClient, id string, want runsvcv1.RunState) *runsvcv1.Run {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := runs.WaitRun(testserver.Context(t), &runsvcv1.WaitRunRequest{RunId: id, Wait: durationpb.New(5 * time.Second)})
		if err == nil && resp.GetRun().GetState() == want {
			return resp.GetRun()
		}
		if time.Now().After(deadline) {
			t.Fatalf("run %s never reached %v (last %v, %v)", id, want, resp.GetRun().GetState(), err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition never held")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
