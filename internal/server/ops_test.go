package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	reflectionpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	"google.golang.org/grpc/status"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestHealthPerService: every runsvc service answers SERVING by name,
// and an unknown name keeps health's own NOT_FOUND (no table mapping).
func TestHealthPerService(t *testing.T) {
	srv := testserver.Start(t)
	health := healthpb.NewHealthClient(srv.Conn)
	cases := []struct {
		service string
		code    codes.Code
		status  healthpb.HealthCheckResponse_ServingStatus
	}{
		{"", codes.OK, healthpb.HealthCheckResponse_SERVING},
		{"runsvc.v1.RunService", codes.OK, healthpb.HealthCheckResponse_SERVING},
		{"runsvc.v1.SpecService", codes.OK, healthpb.HealthCheckResponse_SERVING},
		{"runsvc.v1.ToolService", codes.OK, healthpb.HealthCheckResponse_SERVING},
		{"runsvc.v1.NoSuchService", codes.NotFound, 0},
	}
	for _, tc := range cases {
		t.Run("service="+tc.service, func(t *testing.T) {
			resp, err := waitServing(t, health, tc.service)
			if got := status.Code(err); got != tc.code {
				t.Fatalf("code = %v (%v), want %v", got, err, tc.code)
			}
			if details := status.Convert(err).Details(); len(details) != 0 {
				t.Errorf("health's own status was rewritten with details %v", details)
			}
			if err == nil && resp.GetStatus() != tc.status {
				t.Errorf("status = %v, want %v", resp.GetStatus(), tc.status)
			}
		})
	}
}

// waitServing checks a service until it is SERVING or not found, for at
// most 2s: the first store probe may still be under way at start.
func waitServing(t *testing.T, health healthpb.HealthClient, service string) (*healthpb.HealthCheckResponse, error) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		resp, err := health.Check(testserver.Context(t), &healthpb.HealthCheckRequest{Service: service})
		if err != nil || resp.GetStatus() == healthpb.HealthCheckResponse_SERVING || time.Now().After(deadline) {
			return resp, err
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestLogLevels: a client's own mistake is one DEBUG line with its
// reason and run id; a reflection stream the client closes normally and
// a call the caller cancels never log at ERROR.
func TestLogLevels(t *testing.T) {
	srv := testserver.Start(t)
	_, err := srv.Runs.GetRun(testserver.Context(t), &runsvcv1.GetRunRequest{RunId: "run_missing"})
	if status.Code(err) != codes.NotFound {
		t.Fatalf("GetRun of a missing Run: %v", err)
	}
	refl, err := reflectionpb.NewServerReflectionClient(srv.Conn).ServerReflectionInfo(testserver.Context(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := refl.Send(&reflectionpb.ServerReflectionRequest{MessageRequest: &reflectionpb.ServerReflectionRequest_ListServices{}}); err != nil {
		t.Fatal(err)
	}
	if _, err := refl.Recv(); err != nil {
		t.Fatal(err)
	}
	if err := refl.CloseSend(); err != nil {
		t.Fatal(err)
	}
	if _, err := refl.Recv(); err != io.EOF {
		t.Fatalf("reflection stream ended with %v, want EOF", err)
	}
	ctx, cancel := context.WithCancel(testserver.Context(t))
	watch, err := srv.Runs.WatchRun(ctx, &runsvcv1.WatchRunRequest{RunId: srv.Start(t, publishIdle(t, srv), "x").GetRunId()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := watch.Recv(); err != nil {
		t.Fatal(err)
	}
	cancel()
	time.Sleep(200 * time.Millisecond) // let the server see the cancellation and log
	lines := logLines(t, srv.Log.String())
	var notFound bool
	for _, l := range lines {
		if l["msg"] != "rpc failed" {
			continue
		}
		if l["level"] == "ERROR" || l["code"] == "Internal" {
			t.Errorf("logged at %v: %v", l["level"], l)
		}
		if l["reason"] == "RUN_NOT_FOUND" {
			notFound = true
			if l["level"] != "DEBUG" || l["runId"] != "run_missing" || l["tenant"] != "default" {
				t.Errorf("RUN_NOT_FOUND line = %v, want DEBUG with runId and tenant", l)
			}
		}
	}
	if !notFound {
		t.Errorf("no line for RUN_NOT_FOUND in:\n%s", srv.Log.String())
	}
}

// publishIdle publishes a Spec whose Run waits for a client tool, so it
// stays open, and returns its name.
func publishIdle(t *testing.T, srv *testserver.Server) string {
	t.Helper()
	srv.Publish(t, `{"name": "idle", "model": {"provider": "scripted", "script": {"turns": [{"toolCalls": [{"name": "ask", "arguments": {}}]}, {"text": "done"}]}},
	  "tools": [{"name": "ask", "kind": "TOOL_KIND_CLIENT"}]}`)
	return "idle"
}

func logLines(t *testing.T, log string) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(strings.NewReader(log))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) == nil {
			out = append(out, m)
		}
	}
	return out
}

// scrapeUntil scrapes addr until the body holds every line of wants or
// within has passed, and returns the last body and the lines it lacks.
func scrapeUntil(t *testing.T, addr string, wants []string, within time.Duration) (string, []string) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		body := scrape(t, addr)
		var missing []string
		for _, want := range wants {
			if !strings.Contains(body, want) {
				missing = append(missing, want)
			}
		}
		if len(missing) == 0 || time.Now().After(deadline) {
			return body, missing
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestMetricsEndpoint: /metrics on --metrics-listen counts an RPC by
// method, code and reason, a settled Run by state and Spec, and model
// calls in the latency histogram.
func TestMetricsEndpoint(t *testing.T) {
	srv := testserver.Start(t, func(c *server.Config) { c.Ops.MetricsListen = "127.0.0.1:0" })
	srv.Publish(t, `{"name": "quick", "model": {"provider": "scripted", "model": "m1", "script": {"turns": [{"text": "hi", "usage": {"inputTokens": 7, "outputTokens": 3}}]}}}`)
	srv.Publish(t, `{"name": "flaky", "model": {"provider": "scripted", "model": "m2", "script": {"turns": [{"text": "after a retry", "fail": {"httpStatus": 503, "times": 1, "message": "busy"}}]}}}`)
	quick := srv.Settled(t, srv.Start(t, "quick", "go").GetRunId())
	flaky := srv.Settled(t, srv.Start(t, "flaky", "go").GetRunId())
	if flaky.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED {
		t.Fatalf("flaky Run %v, want COMPLETED after a retry", flaky.GetState())
	}
	_, _ = srv.Runs.GetRun(testserver.Context(t), &runsvcv1.GetRunRequest{RunId: "run_missing"})
	wants := []string{
		`runsvc_rpc_requests_total{code="NotFound",method="/runsvc.v1.RunService/GetRun",reason="RUN_NOT_FOUND"} 1`,
		`runsvc_runs_settled_total{spec="quick",state="COMPLETED"} 1`,
		`runsvc_model_call_duration_seconds_count{model="m1",outcome="ok",provider="scripted"} 1`,
		`runsvc_model_tokens_total{direction="input",model="m1",provider="scripted"} 7`,
		`runsvc_model_call_errors_total{model="m2",provider="scripted",reason="INFERENCE_FAILED"} 1`,
		`runsvc_retries_total{reason="INFERENCE_FAILED",what="model"} 1`,
		`runsvc_runs_settled_total{spec="flaky",state="COMPLETED"} 1`,
		// Every store operation is timed, by method and outcome.
		`runsvc_store_operation_duration_seconds_count{operation="CreateRun",outcome="ok"} 2`,
		`runsvc_store_operation_duration_seconds_count{operation="GetRun",outcome="error"} 1`,
		`runsvc_store_operation_duration_seconds_bucket{operation="Append",outcome="ok",le="+Inf"}`,
		// No Run was taken over here.
		`runsvc_lease_takeovers_total 0`,
		`runsvc_runs_started_total{spec="quick"} 1`,
		// Both settled: nothing is left unsettled in the store.
		`runsvc_runs_active{state="RUNNING",suspension=""} 0`,
		`runsvc_runs_active{state="SUSPENDED",suspension="APPROVAL"} 0`,
	}
	// A Run's settle is counted just after its record commits, so a scrape
	// right after WaitRun may precede it: scrape until every line is there.
	body, missing := scrapeUntil(t, srv.MetricsAddr, wants, 5*time.Second)
	for _, want := range missing {
		t.Errorf("/metrics lacks %s", want)
	}
	for _, id := range []string{"run_missing", quick.GetRunId(), flaky.GetRunId()} {
		if strings.Contains(body, id) {
			t.Errorf("/metrics carries the run id %s as a label", id)
		}
	}
}

func scrape(t *testing.T, addr string) string {
	t.Helper()
	resp, err := http.Get(fmt.Sprintf("http://%s/metrics", addr))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRunLifecycleLogs: a Run's admission, attempt and settling are each
// one INFO line with its run id.
func TestRunLifecycleLogs(t *testing.T) {
	srv := testserver.Start(t)
	srv.Publish(t, `{"name": "quick", "model": {"provider": "scripted", "script": {"turns": [{"text": "hi"}]}}}`)
	id := srv.Settled(t, srv.Start(t, "quick", "go").GetRunId()).GetRunId()
	deadline := time.Now().Add(2 * time.Second)
	for _, msg := range []string{"run admitted", "attempt started", "run settled"} {
		t.Run(msg, func(t *testing.T) {
			for {
				for _, l := range logLines(t, srv.Log.String()) {
					if l["msg"] == msg && l["runId"] == id {
						if l["level"] != "INFO" {
							t.Errorf("%q at %v", msg, l["level"])
						}
						return
					}
				}
				if time.Now().After(deadline) {
					t.Fatalf("no %q line with runId %s", msg, id)
				}
				time.Sleep(20 * time.Millisecond)
			}
		})
	}
}
