// Package ruby_test runs the Ruby client's suite (clients/ruby/test) as
// part of `go test ./...`: the generated stubs' freshness, classify and
// the error families, every scenario of testdata/scenarios.json (directly,
// and through nginx and HAProxy) and the Ruby tool worker through a
// kill -9 of runsvc, against a runsvc binary built here.
package ruby_test

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/proxytest"
	"github.com/runsvc/runsvc/internal/testing/scenario"
	"github.com/runsvc/runsvc/internal/testing/scenario/servers"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// ruby is Debian's interpreter: ruby-grpc and ruby-google-protobuf serve
// it only, whatever ruby comes first on PATH.
const ruby = "/usr/bin/ruby"

// require skips the test (fails it with RUNSVC_REQUIRE_ALL=1) when a
// command is missing.
func require(t *testing.T, tool, pkg string, args ...string) {
	t.Helper()
	if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
		if os.Getenv("RUNSVC_REQUIRE_ALL") == "1" {
			t.Fatalf("RUNSVC_REQUIRE_ALL=1 but %s does not work (apt-get install %s): %v\n%s", tool, pkg, err, out)
		}
		t.Skipf("skipped: %s not installed", tool)
	}
}

// requireRuby skips without Debian's ruby that loads grpc and protobuf.
func requireRuby(t *testing.T) {
	t.Helper()
	require(t, "ruby-grpc", "ruby ruby-grpc ruby-google-protobuf", ruby, "-e", `require "grpc"; require "google/protobuf"; require "google/rpc/status_pb"; require "minitest"`)
}

// minitest runs the Ruby test files with env added to the environment,
// from dir, and fails the test with their output if they fail.
func minitest(t *testing.T, dir string, files []string, env ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	args := append([]string{"-e", `ARGV.dup.each { |f| require File.expand_path(f) }; ARGV.clear`}, files...)
	cmd := exec.CommandContext(ctx, ruby, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.WaitDelay = 10 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("the Ruby suite failed (%v, after %s):\n%s", err, time.Since(start).Round(time.Millisecond), out.String())
	}
	t.Logf("the Ruby suite passed in %s:\n%s", time.Since(start).Round(time.Millisecond), out.String())
	return out.String()
}

func buildRunsvc(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "runsvc")
	build := exec.Command("go", "build", "-o", bin, "./cmd/runsvc")
	build.Dir = filepath.Join("..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/runsvc: %v\n%s", err, out)
	}
	return bin
}

// TestRubyClient runs every test/*_test.rb against a runsvc binary built
// here, with a server per server setting of the scenario file.
func TestRubyClient(t *testing.T) {
	requireRuby(t)
	files, err := filepath.Glob(filepath.Join("test", "*_test.rb"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no test/*_test.rb (%v)", err)
	}
	out := minitest(t, ".", files, "RUNSVC_BIN="+buildRunsvc(t), scenarioServers(t))
	checkCounts(t, out)
}

// checkCounts fails when the scenarios did not all run and pass.
func checkCounts(t *testing.T, out string) {
	t.Helper()
	f, err := scenario.Load(filepath.Join("..", "..", "testdata", "scenarios.json"))
	if err != nil {
		t.Fatal(err)
	}
	n := strconv.Itoa(len(f.Scenarios))
	want := "scenarios: " + n + " passed, 0 failed, 0 without a server, of " + n
	if !strings.Contains(out, want) {
		t.Fatalf("the Ruby suite did not report %q:\n%s", want, out)
	}
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

// TestRubyThroughProxies runs every scenario through Ruby's grpc, with its
// default channel arguments, behind nginx and behind HAProxy.
func TestRubyThroughProxies(t *testing.T) {
	requireRuby(t)
	policy, err := filepath.Abs(filepath.Join("..", "..", "testdata", "policy.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range proxytest.All {
		t.Run(p.Name, func(t *testing.T) {
			srv := testserver.Start(t, func(c *server.Config) { c.PolicyFile = policy })
			out := minitest(t, ".", []string{filepath.Join("test", "scenarios_test.rb")}, "RUNSVC_TARGET="+p.Start(t, srv.Addr), scenarioServers(t))
			checkCounts(t, out)
		})
	}
}

// TestGeneratedCodeIsFresh fails when lib/runsvc/v1 is not what
// generate.sh produces from the protos.
func TestGeneratedCodeIsFresh(t *testing.T) {
	require(t, "grpc_tools_ruby_protoc", "ruby-grpc-tools", "sh", "-c", "command -v grpc_tools_ruby_protoc")
	out := t.TempDir()
	if b, err := exec.Command("sh", "generate.sh", out).CombinedOutput(); err != nil {
		t.Fatalf("generate.sh: %v\n%s", err, b)
	}
	want, got := tree(t, filepath.Join(out, "runsvc", "v1")), tree(t, filepath.Join("lib", "runsvc", "v1"))
	if len(want) == 0 {
		t.Fatal("generate.sh produced nothing")
	}
	for name, body := range want {
		if !bytes.Equal(got[name], body) {
			t.Errorf("lib/runsvc/v1/%s is stale or missing: run clients/ruby/generate.sh", name)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("lib/runsvc/v1/%s is not generated any more: run clients/ruby/generate.sh", name)
		}
	}
}

// tree reads every file under root, by its path from root.
func tree(t *testing.T, root string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		body, err := os.ReadFile(path)
		out[rel] = body
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
