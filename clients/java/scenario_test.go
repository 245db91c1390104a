package java_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/proxytest"
	"github.com/runsvc/runsvc/internal/testing/scenario"
	"github.com/runsvc/runsvc/internal/testing/scenario/servers"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// verdict is the driver's line for one scenario.
type verdict struct {
	Name     string   `json:"name"`
	Verdict  string   `json:"verdict"`
	Problems []string `json:"problems"`
	Got      string   `json:"got"`
}

// TestJavaScenarios runs every scenario of testdata/scenarios.json through
// the Java client, against a server with the policy file and the servers
// of the file's server settings.
func TestJavaScenarios(t *testing.T) {
	jar, classes := buildDriver(t)
	runScenarios(t, jar, classes, startDefault(t).Addr)
}

// TestJavaThroughProxies runs every scenario through grpc-java, with its
// default channel settings, behind nginx and behind HAProxy.
func TestJavaThroughProxies(t *testing.T) {
	jar, classes := buildDriver(t)
	for _, p := range proxytest.All {
		t.Run(p.Name, func(t *testing.T) {
			runScenarios(t, jar, classes, p.Start(t, startDefault(t).Addr))
		})
	}
}

// startDefault starts the scenario file's default server: the policy
// file, no keys file.
func startDefault(t *testing.T) *testserver.Server {
	t.Helper()
	policy, err := filepath.Abs(filepath.Join(repo, "testdata", "policy.json"))
	if err != nil {
		t.Fatal(err)
	}
	return testserver.Start(t, func(c *server.Config) { c.PolicyFile = policy })
}

// runScenarios runs the driver, in one JVM, with the default server at
// target and the setting's servers, and makes a subtest of each verdict.
func runScenarios(t *testing.T, jar, classes, target string) {
	t.Helper()
	path := filepath.Join(repo, "testdata", "scenarios.json")
	f, err := scenario.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	env := servers.Start(t, f).Env()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "java", "-cp", jar+string(os.PathListSeparator)+classes, "dev.runsvc.scenario.Main", path, target)
	cmd.Env = append(os.Environ(), env)
	cmd.WaitDelay = 10 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("the Java scenario driver failed after %s: %v\n%s\n%s", time.Since(start).Round(time.Millisecond), err, stdout.String(), stderr.String())
	}
	verdicts := parseVerdicts(t, stdout.Bytes())
	passed := 0
	for _, s := range f.Scenarios {
		v, ok := verdicts[s.Name]
		t.Run(s.Name, func(t *testing.T) {
			switch {
			case !ok:
				t.Fatal("the driver printed no verdict")
			case v.Verdict != "pass":
				t.Fatalf("%s:\n%s\ngot: %s", v.Verdict, strings.Join(v.Problems, "\n"), v.Got)
			}
		})
		if ok && v.Verdict == "pass" {
			passed++
		}
	}
	if len(verdicts) != len(f.Scenarios) {
		t.Errorf("the driver printed %d verdicts for %d scenarios", len(verdicts), len(f.Scenarios))
	}
	t.Logf("java: %d of %d scenarios passed in %s", passed, len(f.Scenarios), time.Since(start).Round(time.Millisecond))
	if s := stderr.String(); s != "" {
		t.Logf("the driver's stderr:\n%s", s)
	}
}

// parseVerdicts reads the driver's JSON lines by scenario name.
func parseVerdicts(t *testing.T, out []byte) map[string]verdict {
	t.Helper()
	verdicts := map[string]verdict{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var v verdict
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("the driver printed %q: %v", sc.Text(), err)
		}
		verdicts[v.Name] = v
	}
	return verdicts
}
