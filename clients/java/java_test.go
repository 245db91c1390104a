// Package java_test builds the Java client with `make jar` (javac against
// Debian's gRPC and protobuf jars) and runs, against runsvc servers started
// here: a program outside the client's package that classifies a
// BUDGET_EXCEEDED and a QUOTA_EXCEEDED failure, and the Java scenario
// driver over every scenario of testdata/scenarios.json, directly and
// through nginx and HAProxy. It also checks that the committed generated
// sources are what generate.sh writes.
package java_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// repo is the repository root, from this package's directory.
const repo = "../.."

// jars are the Debian jars the client needs (build.sh has the full list);
// one missing means its package is not installed.
var jars = []string{"grpc-netty", "grpc-protobuf", "grpc-stub", "protobuf", "protobuf-util", "gson", "perfmark-api", "netty-codec-http2"}

// packages is what to install for the suite.
const packages = "default-jdk-headless libgrpc-java libprotobuf-java libgoogle-gson-java libperfmark-java libnetty-java"

// requireJava skips the test (fails it with RUNSVC_REQUIRE_ALL=1) when
// javac, java, jar, make or a Debian jar is missing.
func requireJava(t *testing.T) {
	t.Helper()
	var missing []string
	for _, tool := range []string{"javac", "java", "jar", "make"} {
		if _, err := exec.LookPath(tool); err != nil {
			missing = append(missing, tool)
		}
	}
	for _, j := range jars {
		if _, err := os.Stat(filepath.Join("/usr/share/java", j+".jar")); err != nil {
			missing = append(missing, j+".jar")
		}
	}
	if len(missing) == 0 {
		return
	}
	if os.Getenv("RUNSVC_REQUIRE_ALL") == "1" {
		t.Fatalf("RUNSVC_REQUIRE_ALL=1 but %s missing (apt-get install %s)", strings.Join(missing, ", "), packages)
	}
	t.Skipf("skipped: %s not installed", strings.Join(missing, ", "))
}

// built is the jar and the scenario driver's classes, each built once
// for all the tests of a run: javac is slow on a busy machine.
var built struct {
	dir                 string
	jarOnce, driverOnce sync.Once
	jar, driver         string
	jarErr, driverErr   string
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		_ = os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// buildJar runs `make jar` into a temporary directory, once.
func buildJar(t *testing.T) string {
	t.Helper()
	requireJava(t)
	built.jarOnce.Do(func() {
		dir, err := os.MkdirTemp("", "runsvc-java-")
		if err != nil {
			built.jarErr = err.Error()
			return
		}
		built.dir, built.jar = dir, filepath.Join(dir, "runsvc-client.jar")
		if out, err := command(repo, "make", "-s", "jar", "JAR="+built.jar); err != nil {
			built.jarErr = "make jar: " + err.Error() + "\n" + out
		}
	})
	if built.jarErr != "" {
		t.Fatal(built.jarErr)
	}
	return built.jar
}

// buildDriver compiles the scenario driver (test/dev/runsvc/scenario) and
// the checks of classify and Retry (test/dev/runsvc/check) against the jar,
// once, and returns their class directory.
func buildDriver(t *testing.T) (jar, classes string) {
	t.Helper()
	jar = buildJar(t)
	built.driverOnce.Do(func() {
		built.driver = filepath.Join(built.dir, "driver")
		sources, _ := filepath.Glob(filepath.Join("test", "dev", "runsvc", "*", "*.java"))
		args := append([]string{"-nowarn", "-encoding", "UTF-8", "-cp", jar, "-d", built.driver}, sources...)
		if out, err := command(".", "javac", args...); err != nil {
			built.driverErr = "javac test/dev/runsvc: " + err.Error() + "\n" + out
		}
	})
	if built.driverErr != "" {
		t.Fatal(built.driverErr)
	}
	return jar, built.driver
}

// command runs a command within 5 minutes and returns its output.
func command(dir, name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.WaitDelay = 10 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}
