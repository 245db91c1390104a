// Package python_test runs the Python client's suite (clients/python/tests)
// as part of `go test ./...`: the generated stubs' freshness, classify(),
// every scenario of testdata/scenarios.json (directly, and through nginx
// and HAProxy) and the Python tool worker, against a runsvc binary built
// here.
package python_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/proxytest"
	"github.com/runsvc/runsvc/internal/testing/scenario"
	"github.com/runsvc/runsvc/internal/testing/scenario/servers"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// python is Debian's interpreter: python3-grpcio and python3-protobuf serve
// it only, whatever python3 comes first on PATH.
const python = "/usr/bin/python3"

// requirePython skips the test (fails it with RUNSVC_REQUIRE_ALL=1) when
// Debian's python3 cannot import grpc and protobuf.
func requirePython(t *testing.T) {
	t.Helper()
	if out, err := exec.Command(python, "-c", "import grpc, google.protobuf").CombinedOutput(); err != nil {
		if os.Getenv("RUNSVC_REQUIRE_ALL") == "1" {
			t.Fatalf("RUNSVC_REQUIRE_ALL=1 but %s cannot import grpc and google.protobuf (apt-get install python3-grpcio python3-protobuf): %v\n%s", python, err, out)
		}
		t.Skip("skipped: python3-grpcio not installed")
	}
}

// unittest runs python -m unittest on the tests matching pattern, with env
// added to the environment, and fails the test with its output if it fails.
func unittest(t *testing.T, pattern string, env ...string) {
	t.Helper()
	here, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, python, "-m", "unittest", "discover", "-s", "tests", "-p", pattern, "-v")
	cmd.Dir = here
	cmd.Env = append(append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1", "PYTHONUNBUFFERED=1"), env...)
	cmd.WaitDelay = 10 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("the Python suite failed (%v, after %s):\n%s", err, time.Since(start).Round(time.Millisecond), out.String())
	}
	t.Logf("the Python suite passed in %s:\n%s", time.Since(start).Round(time.Millisecond), out.String())
}

func TestPythonClient(t *testing.T) {
	requirePython(t)
	bin := filepath.Join(t.TempDir(), "runsvc")
	build := exec.Command("go", "build", "-o", bin, "./cmd/runsvc")
	build.Dir = filepath.Join("..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/runsvc: %v\n%s", err, out)
	}
	unittest(t, "test*.py", "RUNSVC_BIN="+bin, scenarioServers(t))
}

// scenarioServers starts a server for every server setting of
// testdata/scenarios.json and returns the RUNSVC_SCENARIO_SERVERS
// environment entry that tells the suite where they are.
func scenarioServers(t *testing.T) string {
	t.Helper()
	f, err := scenario.Load(filepath.Join("..", "..", "testdata", "scenarios.json"))
	if err != nil {
		t.Fatal(err)
	}
	return servers.Start(t, f).Env()
}

// TestPythonThroughProxies runs every scenario through grpcio, with its
// default channel options, behind nginx and behind HAProxy.
func TestPythonThroughProxies(t *testing.T) {
	requirePython(t)
	policy, err := filepath.Abs(filepath.Join("..", "..", "testdata", "policy.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range proxytest.All {
		t.Run(p.Name, func(t *testing.T) {
			srv := testserver.Start(t, func(c *server.Config) { c.PolicyFile = policy })
			unittest(t, "test_scenarios.py", "RUNSVC_TARGET="+p.Start(t, srv.Addr), scenarioServers(t))
		})
	}
}
