package node_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestInstalledPackage packs the client with `npm pack`, installs the
// tarball in an empty directory (from the npm cache when it can), checks
// that a TypeScript file using it type-checks with tsc --noEmit against the
// installed declarations, and runs the scenario, worker and retry suites
// there, importing only "@runsvc/client".
func TestInstalledPackage(t *testing.T) {
	node, npm := requireNodeAndTypeScript(t)
	here, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(here, "..", "..")
	tmp := t.TempDir()

	packed := runIn(t, here, nil, npm, "pack", "--json", "--pack-destination", tmp)
	var info []struct {
		Filename string `json:"filename"`
		Files    []struct {
			Path string `json:"path"`
		} `json:"files"`
	}
	if err := json.Unmarshal([]byte(packed[strings.Index(packed, "["):]), &info); err != nil || len(info) != 1 {
		t.Fatalf("npm pack --json printed %q: %v", packed, err)
	}
	tgz := filepath.Join(tmp, info[0].Filename)
	hasProto := false
	for _, f := range info[0].Files {
		hasProto = hasProto || f.Path == "proto/runsvc/v1/run.proto"
	}
	if !hasProto {
		t.Fatalf("%s has no proto/runsvc/v1/run.proto: %v", info[0].Filename, info[0].Files)
	}
	if _, err := os.Stat(filepath.Join(here, "proto")); !os.IsNotExist(err) {
		t.Errorf("postpack left clients/node/proto behind (%v)", err)
	}

	app := filepath.Join(tmp, "app")
	writeFiles(t, app, map[string]string{
		"package.json": `{"name": "runsvc-consumer", "private": true, "type": "module"}`,
		"tsconfig.json": `{"compilerOptions": {"target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext",
  "strict": true, "noEmit": true, "types": ["node"], "typeRoots": [` + jsonString(filepath.Join(here, "node_modules", "@types")) + `]},
  "files": ["consumer.ts"]}`,
	})
	out := runIn(t, app, nil, npm, "install", "--prefer-offline", "--no-audit", "--no-fund", tgz)
	t.Logf("npm install %s:\n%s", info[0].Filename, out)

	for from, to := range map[string]string{
		"test/types/consumer.ts":                "consumer.ts",
		"test/worker-suite.js":                  "worker-suite.js",
		"test/retry-suite.js":                   "retry-suite.js",
		"installed/scenarios.installed.test.js": "scenarios.installed.test.js",
		"installed/worker.installed.test.js":    "worker.installed.test.js",
		"installed/retry.installed.test.js":     "retry.installed.test.js",
	} {
		body, err := os.ReadFile(filepath.Join(here, from))
		if err != nil {
			t.Fatal(err)
		}
		writeFiles(t, app, map[string]string{to: string(body)})
	}
	runIn(t, app, nil, filepath.Join(here, "node_modules", ".bin", "tsc"), "--noEmit", "-p", "tsconfig.json")
	t.Log("tsc --noEmit passed on consumer.ts against the installed package")

	bin := filepath.Join(t.TempDir(), "runsvc")
	build := exec.Command("go", "build", "-o", bin, "./cmd/runsvc")
	build.Dir = repo
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/runsvc: %v\n%s", err, out)
	}
	abs, _ := filepath.Abs(repo)
	out = runIn(t, app, []string{"RUNSVC_BIN=" + bin, "RUNSVC_REPO_ROOT=" + abs, "NO_COLOR=1", scenarioServers(t)}, node,
		"--test", "--test-reporter=spec", "scenarios.installed.test.js", "worker.installed.test.js", "retry.installed.test.js")
	t.Logf("the suites passed from the installed package:\n%s", out)
}

// requireNodeAndTypeScript returns node and npm, skipping (or failing under
// RUNSVC_REQUIRE_ALL=1) when they or clients/node's packages are missing.
func requireNodeAndTypeScript(t *testing.T) (string, string) {
	t.Helper()
	node, err := exec.LookPath("node")
	npm, err2 := exec.LookPath("npm")
	if err == nil {
		err = err2
	}
	if err == nil {
		_, err = os.Stat(filepath.Join("node_modules", ".bin", "tsc"))
	}
	if err != nil {
		if os.Getenv("RUNSVC_REQUIRE_ALL") == "1" {
			t.Fatalf("RUNSVC_REQUIRE_ALL=1 requires node, npm and clients/node's packages (npm ci in clients/node): %v", err)
		}
		t.Skip("skipped: node, npm or its packages not installed (run npm ci in clients/node)")
	}
	return node, npm
}

// runIn runs a command within 5 minutes, failing with its output.
func runIn(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestTypecheck runs tsc --noEmit on the declarations and the TypeScript
// user in test/types, in the source tree (npm run typecheck).
func TestTypecheck(t *testing.T) {
	requireNodeAndTypeScript(t)
	out := runIn(t, ".", nil, filepath.Join("node_modules", ".bin", "tsc"), "--noEmit", "-p", "tsconfig.json")
	t.Logf("tsc --noEmit: ok %s", out)
}
