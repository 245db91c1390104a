package server_test

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestPrometheusScrapesRunsvc: a real Prometheus, started here on
// 127.0.0.1 with a scrape config pointing at runsvc's --metrics-listen,
// scrapes while Runs complete, fail and suspend; its HTTP API then has
// the RPC counter for RUN_NOT_FOUND, the settled counter by state, the
// model-call latency histogram with the counts this test caused, and the
// unsettled Runs by suspension (one waits for tool results, two for an
// answer to a question).
func TestPrometheusScrapesRunsvc(t *testing.T) {
	bin := prometheusBinary(t)
	srv := testserver.Start(t, func(c *server.Config) { c.Ops.MetricsListen = "127.0.0.1:0" })
	srv.Publish(t, `{"name": "completes", "model": {"provider": "scripted", "model": "m-ok", "script": {"turns": [{"text": "hi"}]}}}`)
	srv.Publish(t, `{"name": "fails", "model": {"provider": "scripted", "model": "m-bad", "script": {"turns": [{"text": "never", "fail": {"httpStatus": 400, "times": 1, "message": "bad request"}}]}}}`)
	publishIdle(t, srv)
	srv.Publish(t, `{"name": "asks", "model": {"provider": "scripted", "script": {"turns": [{"toolCalls": [{"name": "ask_user", "arguments": {"question": "which?"}}]}, {"text": "done"}]}},
	  "tools": [{"name": "ask_user", "kind": "TOOL_KIND_BUILTIN"}]}`)
	for range 3 {
		srv.Settled(t, srv.Start(t, "completes", "go").GetRunId())
	}
	srv.Settled(t, srv.Start(t, "fails", "go").GetRunId())
	srv.Wait(t, srv.Start(t, "idle", "go").GetRunId())
	for range 2 {
		if run := srv.Wait(t, srv.Start(t, "asks", "go").GetRunId()); run.GetState() != runsvcv1.RunState_RUN_STATE_SUSPENDED {
			t.Fatalf("an ask_user Run is %v, want suspended", run.GetState())
		}
	}
	for range 2 {
		_, _ = srv.Runs.GetRun(testserver.Context(t), &runsvcv1.GetRunRequest{RunId: "run_missing"})
	}

	api := startPrometheus(t, bin, srv.MetricsAddr)
	cases := []struct {
		name, query string
		want        float64
	}{
		{"RUN_NOT_FOUND", `sum(runsvc_rpc_requests_total{reason="RUN_NOT_FOUND",code="NotFound",method="/runsvc.v1.RunService/GetRun"})`, 2},
		{"settled COMPLETED", `sum(runsvc_runs_settled_total{state="COMPLETED",spec="completes"})`, 3},
		{"settled FAILED", `sum(runsvc_runs_settled_total{state="FAILED",spec="fails"})`, 1},
		{"started completes", `sum(runsvc_runs_started_total{spec="completes"})`, 3},
		{"started asks", `sum(runsvc_runs_started_total{spec="asks"})`, 2},
		{"model calls ok", `sum(runsvc_model_call_duration_seconds_count{outcome="ok"})`, 6}, // 3 completes, 1 idle, 2 asks
		{"model calls failed", `sum(runsvc_model_call_duration_seconds_count{outcome="error",model="m-bad"})`, 1},
		{"latency buckets", `count(runsvc_model_call_duration_seconds_bucket{model="m-ok",outcome="ok"})`, 15},
		{"model errors by reason", `sum(runsvc_model_call_errors_total{model="m-bad"})`, 1},
		{"suspended for tool results", `runsvc_runs_active{state="SUSPENDED",suspension="TOOL_RESULTS"}`, 1},
		{"suspended for a question", `runsvc_runs_active{state="SUSPENDED",suspension="QUESTION"}`, 2},
		{"none suspended for approval", `runsvc_runs_active{state="SUSPENDED",suspension="APPROVAL"}`, 0},
		{"none running once all wait", `sum(runsvc_runs_active{state=~"QUEUED|RUNNING"})`, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := api.waitFor(tc.query, tc.want, 20*time.Second)
			if err != nil {
				t.Fatalf("%s: %v (last value %v, want %v)", tc.query, err, got, tc.want)
			}
		})
	}
}

// prometheusBinary finds Debian's prometheus, or skips (fails with
// RUNSVC_REQUIRE_ALL=1).
func prometheusBinary(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("prometheus"); err == nil {
		return p
	}
	if os.Getenv("RUNSVC_REQUIRE_ALL") == "1" {
		t.Fatal("prometheus not installed, and RUNSVC_REQUIRE_ALL=1 requires every test to run")
	}
	t.Skip("skipped: prometheus not installed (Debian package prometheus)")
	return ""
}

// promAPI queries a Prometheus's HTTP API.
type promAPI struct{ base string }

func startPrometheus(t *testing.T, bin, target string) promAPI {
	t.Helper()
	dir := t.TempDir()
	cfg := fmt.Sprintf("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n  - job_name: runsvc\n    static_configs:\n      - targets: [%q]\n", target)
	cfgPath := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := lis.Addr().String()
	_ = lis.Close()
	cmd := exec.Command(bin, "--config.file="+cfgPath, "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+addr, "--log.level=warn")
	out := &testserver.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("prometheus output:\n%s", out.String())
		}
	})
	return promAPI{base: "http://" + addr}
}

// waitFor polls an instant query until it returns want, or fails after
// within.
func (p promAPI) waitFor(query string, want float64, within time.Duration) (float64, error) {
	deadline := time.Now().Add(within)
	var got float64
	var err error
	for time.Now().Before(deadline) {
		got, err = p.query(query)
		if err == nil && got == want {
			return got, nil
		}
		time.Sleep(250 * time.Millisecond)
	}
	if err == nil {
		err = fmt.Errorf("value never reached %v", want)
	}
	return got, err
}

func (p promAPI) query(q string) (float64, error) {
	resp, err := http.Get(p.base + "/api/v1/query?query=" + url.QueryEscape(q))
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	var body struct {
		Status string `json:"status"`
		Data   struct {
			Result []struct {
				Value [2]any `json:"value"`
			} `json:"result"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return 0, err
	}
	if body.Status != "success" || len(body.Data.Result) == 0 {
		return 0, fmt.Errorf("status %q, %d results", body.Status, len(body.Data.Result))
	}
	s, _ := body.Data.Result[0].Value[1].(string)
	return strconv.ParseFloat(s, 64)
}
