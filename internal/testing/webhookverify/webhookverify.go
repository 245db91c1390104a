package webhookverify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// RequireAllEnv, set to 1, fails a test that would skip for a missing
// tool.
const RequireAllEnv = "RUNSVC_REQUIRE_ALL"

// Delivery is one recorded request, as the receiver got it.
type Delivery struct {
	Secret    string `json:"secret"`
	ID        string `json:"id"`
	Timestamp string `json:"timestamp"`
	Signature string `json:"signature"`
	Body      string `json:"body"`
}

// Result is what standardwebhooks made of the deliveries.
type Result struct {
	Verified int `json:"verified"`
	Failed   []struct {
		ID    string `json:"id"`
		Error string `json:"error"`
	} `json:"failed"`
}

// dir is this package's directory, where verify.mjs and node_modules are.
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
	} else if _, err := os.Stat(filepath.Join(dir(), "node_modules", "standardwebhooks")); err != nil {
		missing = "internal/testing/webhookverify node_modules (npm ci)"
	}
	if missing == "" {
		return
	}
	if os.Getenv(RequireAllEnv) == "1" {
		t.Fatalf("%s not installed, and %s=1", missing, RequireAllEnv)
	}
	t.Skipf("skipped: %s not installed", missing)
}

// Verify checks every delivery's signature with standardwebhooks.
func Verify(t testing.TB, ds []Delivery) Result {
	t.Helper()
	var in bytes.Buffer
	enc := json.NewEncoder(&in)
	for _, d := range ds {
		if err := enc.Encode(d); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("node", filepath.Join(dir(), "verify.mjs"))
	cmd.Dir = dir()
	cmd.Stdin = &in
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("node verify.mjs: %v\n%s", err, errOut.String())
	}
	var r Result
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("node verify.mjs printed %q: %v", out.String(), err)
	}
	return r
}

// String summarises a result.
func (r Result) String() string {
	return fmt.Sprintf("%d verified, %d failed %v", r.Verified, len(r.Failed), r.Failed)
}
