package python_test

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestInstalledPackage installs clients/python with pip into a fresh
// virtual environment, offline (--no-index, Debian's setuptools, grpcio and
// protobuf through --system-site-packages), and runs the scenario suite,
// the worker, classify() and the clients from the installed package: the
// tests run from a copy outside the source tree, so nothing but
// site-packages provides runsvc_client.
func TestInstalledPackage(t *testing.T) {
	requirePackaging(t)
	here, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(here, "..", "..")
	tmp := t.TempDir()

	src := filepath.Join(tmp, "src")
	for _, p := range []string{"pyproject.toml", "README.md", "runsvc_client", "gen"} {
		copyTree(t, filepath.Join(here, p), filepath.Join(src, p))
	}
	venv := filepath.Join(tmp, "venv")
	run(t, tmp, nil, python, "-m", "venv", "--system-site-packages", venv)
	pip := filepath.Join(venv, "bin", "pip")
	out := run(t, tmp, nil, pip, "install", "--no-build-isolation", "--no-index", "--disable-pip-version-check", src)
	t.Logf("pip install:\n%s", lastLines(out, 3))

	layout := filepath.Join(tmp, "layout")
	for _, p := range []string{"tests", "examples"} {
		copyTree(t, filepath.Join(here, p), filepath.Join(layout, "clients", "python", p))
	}
	if err := os.Symlink(filepath.Join(repo, "testdata"), filepath.Join(layout, "testdata")); err != nil {
		t.Fatal(err)
	}
	bin := buildRunsvc(t, repo)
	env := []string{"RUNSVC_BIN=" + bin, "RUNSVC_PY_INSTALLED=1", "PYTHONDONTWRITEBYTECODE=1", "PYTHONUNBUFFERED=1", "PYTHONPATH=", scenarioServers(t)}
	out = run(t, filepath.Join(layout, "clients", "python", "tests"), env, filepath.Join(venv, "bin", "python"),
		"-m", "unittest", "-v", "test_installed", "test_scenarios", "test_worker", "test_classify")
	if strings.Contains(out, "skipped 'runs only against the installed package") {
		t.Fatalf("the installed-package checks were skipped:\n%s", out)
	}
	t.Logf("the suite passed against the installed package:\n%s", out)
}

// requirePackaging skips (or fails under RUNSVC_REQUIRE_ALL=1) without
// Debian's python3 with grpcio, protobuf, venv and setuptools.
func requirePackaging(t *testing.T) {
	t.Helper()
	for _, c := range []struct{ pkg, check string }{
		{"python3-grpcio", "import grpc, google.protobuf"},
		{"python3-venv", "import ensurepip, venv"},
		{"python3-setuptools", "import setuptools, wheel"},
	} {
		if out, err := exec.Command(python, "-c", c.check).CombinedOutput(); err != nil {
			if os.Getenv("RUNSVC_REQUIRE_ALL") == "1" {
				t.Fatalf("RUNSVC_REQUIRE_ALL=1 but %s cannot %q (apt-get install %s): %v\n%s", python, c.check, c.pkg, err, out)
			}
			t.Skipf("skipped: %s not installed", c.pkg)
		}
	}
}

func buildRunsvc(t *testing.T, repo string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "runsvc")
	build := exec.Command("go", "build", "-o", bin, "./cmd/runsvc")
	build.Dir = repo
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/runsvc: %v\n%s", err, out)
	}
	return bin
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

// copyTree copies a file or directory, leaving out __pycache__.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "__pycache__" {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(from, path)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
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

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
