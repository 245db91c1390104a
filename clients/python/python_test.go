// Package python_test runs the Python client's suite (clients/python/tests)
// as part of `go test ./...`: the generated stubs' freshness, classify(),
// every scenario of testdata/scenarios.json and the Python tool worker,
// against a runsvc binary built here.
package python_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// python is Debian's interpreter: python3-grpcio and python3-protobuf serve
// it only, whatever python3 comes first on PATH.
const python = "/usr/bin/python3"

func TestPythonClient(t *testing.T) {
	if out, err := exec.Command(python, "-c", "import grpc, google.protobuf").CombinedOutput(); err != nil {
		if os.Getenv("RUNSVC_REQUIRE_ALL") == "1" {
			t.Fatalf("RUNSVC_REQUIRE_ALL=1 but %s cannot import grpc and google.protobuf (apt-get install python3-grpcio python3-protobuf): %v\n%s", python, err, out)
		}
		t.Skip("skipped: python3-grpcio not installed")
	}
	here, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(here, "..", "..")

	bin := filepath.Join(t.TempDir(), "runsvc")
	build := exec.Command("go", "build", "-o", bin, "./cmd/runsvc")
	build.Dir = repo
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/runsvc: %v\n%s", err, out)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, python, "-m", "unittest", "discover", "-s", "tests", "-v")
	cmd.Dir = here
	cmd.Env = append(os.Environ(), "RUNSVC_BIN="+bin, "PYTHONDONTWRITEBYTECODE=1", "PYTHONUNBUFFERED=1")
	cmd.WaitDelay = 10 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err = cmd.Run()
	if err != nil {
		t.Fatalf("the Python suite failed (%v, after %s):\n%s", err, time.Since(start).Round(time.Millisecond), out.String())
	}
	t.Logf("the Python suite passed in %s:\n%s", time.Since(start).Round(time.Millisecond), out.String())
}
