package ruby_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/testing/scenario"
	"github.com/runsvc/runsvc/internal/testing/scenario/servers"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestInstalledGem builds the gem from a copy of clients/ruby with `gem
// build`, installs it offline (--local) into a fresh GEM_HOME, and runs
// test/installed/start_and_classify.rb from a directory outside the
// repository: it rescues Runsvc::Error, starts and finishes a Run, and
// classifies BUDGET_EXCEEDED (not retryable) and QUOTA_EXCEEDED
// (retryable after its delay). Then the whole suite runs against the
// installed gem.
func TestInstalledGem(t *testing.T) {
	requireRuby(t)
	require(t, "gem", "ruby", "gem", "--version")
	here, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	src := filepath.Join(tmp, "src")
	for _, p := range []string{"runsvc.gemspec", "README.md", "lib"} {
		copyTree(t, filepath.Join(here, p), filepath.Join(src, p))
	}
	// A proxy that refuses every connection: gem must not need the network.
	offline := []string{"http_proxy=http://127.0.0.1:9", "https_proxy=http://127.0.0.1:9"}
	out := run(t, src, offline, "gem", "build", "runsvc.gemspec")
	gems, _ := filepath.Glob(filepath.Join(src, "runsvc-*.gem"))
	if len(gems) != 1 {
		t.Fatalf("gem build made %v:\n%s", gems, out)
	}
	home := filepath.Join(tmp, "gems")
	env := []string{"GEM_HOME=" + home}
	out = run(t, tmp, append(offline, env...), "gem", "install", "--local", "--no-document", gems[0])
	t.Logf("gem install --local:\n%s", out)

	outside := filepath.Join(tmp, "outside")
	copyTree(t, filepath.Join(here, "test"), outside)
	srv := testserver.Start(t)
	f, err := scenario.Load(filepath.Join("..", "..", "testdata", "scenarios.json"))
	if err != nil {
		t.Fatal(err)
	}
	// The script spends the quota of its own "keys" server.
	setting, ok := f.Servers["keys"]
	if !ok {
		t.Fatal("the scenario file has no server setting \"keys\"")
	}
	only := *f
	only.Servers = map[string]scenario.ServerSetting{"keys": setting}
	keys := servers.Start(t, &only)["keys"]
	out = run(t, outside, append(env, "RUNSVC_TARGET="+srv.Addr, "RUNSVC_QUOTA_TARGET="+keys.Addr, "RUBYLIB="),
		ruby, filepath.Join("installed", "start_and_classify.rb"))
	t.Logf("the script outside the repository, on the installed gem:\n%s", out)

	bin := buildRunsvc(t)
	suite := append(env, "RUNSVC_RB_INSTALLED=1", "RUNSVC_REPO="+filepath.Join(here, "..", ".."), "RUNSVC_BIN="+bin, scenarioServers(t))
	files := []string{"classify_test.rb", "scenarios_test.rb", "worker_test.rb"}
	checkCounts(t, minitest(t, outside, files, suite...))
}

// run runs a command to completion within 5 minutes, failing the test
// with its output if it fails.
func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.WaitDelay = 10 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out.String())
	}
	return out.String()
}

// copyTree copies a file or a directory.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.Walk(from, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		dst := filepath.Join(to, rel)
		if info.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		body, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, body, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
