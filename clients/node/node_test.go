package node_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/proxytest"
	"github.com/runsvc/runsvc/internal/testing/scenario"
	"github.com/runsvc/runsvc/internal/testing/scenario/servers"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// requireNode returns node's path, or skips the test (fails it with
// RUNSVC_REQUIRE_ALL=1) when node or the suite's packages are missing.
func requireNode(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat("node_modules")
	}
	if err != nil {
		msg := "skipped: node or its packages not installed (run npm ci in clients/node)"
		if os.Getenv("RUNSVC_REQUIRE_ALL") == "1" {
			t.Fatalf("RUNSVC_REQUIRE_ALL=1 requires the Node suite, but node or its packages are not installed (run npm ci in clients/node): %v", err)
		}
		t.Skip(msg)
	}
	return node
}

// nodeTest runs node --test on files with env added to the environment,
// and fails the test with its output if it fails.
func nodeTest(t *testing.T, node string, files []string, env ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{"--test", "--test-reporter=spec"}, files...)...)
	cmd.Env = append(append(os.Environ(), "NO_COLOR=1"), env...)
	cmd.WaitDelay = 10 * time.Second
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node --test failed after %s: %v\n%s", time.Since(start).Round(time.Millisecond), err, out)
	}
	t.Logf("node --test passed in %s:\n%s", time.Since(start).Round(time.Millisecond), out)
}

// TestNodeSuite runs the Node client's suite (node --test test/) against a
// runsvc binary built from this tree: classify() and every scenario of
// testdata/scenarios.json through grpc-js.
func TestNodeSuite(t *testing.T) {
	node := requireNode(t)
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "runsvc")
	build := exec.Command("go", "build", "-o", bin, "./cmd/runsvc")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/runsvc: %v\n%s", err, out)
	}

	files, err := filepath.Glob(filepath.Join("test", "*.test.js"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files in clients/node/test: %v", err)
	}
	sort.Strings(files)

	nodeTest(t, node, files, "RUNSVC_BIN="+bin, scenarioServers(t))
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

// TestNodeThroughProxies runs every scenario through grpc-js, with its
// default options, behind nginx and behind HAProxy.
func TestNodeThroughProxies(t *testing.T) {
	node := requireNode(t)
	policy, err := filepath.Abs(filepath.Join("..", "..", "testdata", "policy.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range proxytest.All {
		t.Run(p.Name, func(t *testing.T) {
			srv := testserver.Start(t, func(c *server.Config) { c.PolicyFile = policy })
			nodeTest(t, node, []string{filepath.Join("test", "scenarios.test.js")}, "RUNSVC_TARGET="+p.Start(t, srv.Addr), scenarioServers(t))
		})
	}
}
