package a2ajs

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// RequireAllEnv, set to 1, fails a test that would skip for a missing
// tool.
const RequireAllEnv = "RUNSVC_REQUIRE_ALL"

// dir is this package's directory, where client.mjs and node_modules are.
func dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}

// Available skips t (fails it with RUNSVC_REQUIRE_ALL=1) when node or
// the npm package is missing.
func Available(t testing.TB) {
	t.Helper()
	missing := ""
	if _, err := exec.LookPath("node"); err != nil {
		missing = "node"
	} else if _, err := os.Stat(filepath.Join(dir(), "node_modules", "@a2a-js", "sdk")); err != nil {
		missing = "internal/testing/a2ajs node_modules (npm ci)"
	}
	if missing == "" {
		return
	}
	if os.Getenv(RequireAllEnv) == "1" {
		t.Fatalf("%s not installed, and %s=1", missing, RequireAllEnv)
	}
	t.Skipf("skipped: %s not installed", missing)
}

// Config is client.mjs's argument.
type Config struct {
	Base    string `json:"base"`
	Key     string `json:"key,omitempty"`
	Binding string `json:"binding"`
	Op      string `json:"op"`
	Agent   string `json:"agent,omitempty"`
	ID      string `json:"id,omitempty"`
	Text    string `json:"text,omitempty"`
	// URL and Token are op "push"'s receiver and the token it expects.
	URL   string `json:"url,omitempty"`
	Token string `json:"token,omitempty"`
}

// Run runs client.mjs with cfg and decodes what it prints into out.
func Run(t testing.TB, cfg Config, out any) {
	t.Helper()
	Go(t, cfg)(out)
}

// Go starts client.mjs with cfg and returns a function that waits for it
// and decodes what it printed into out (call it on the test's goroutine).
func Go(t testing.TB, cfg Config) func(out any) {
	t.Helper()
	arg, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", filepath.Join(dir(), "client.mjs"), string(arg))
	cmd.Dir = dir()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return func(out any) {
		t.Helper()
		if err := cmd.Wait(); err != nil {
			t.Fatalf("node client.mjs %s: %v\n%s", arg, err, stderr.String())
		}
		if err := json.Unmarshal(stdout.Bytes(), out); err != nil {
			t.Fatalf("node client.mjs printed %q: %v", stdout.String(), err)
		}
	}
}

// Check is one check client.mjs made.
type Check struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}
