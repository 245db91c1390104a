package main

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/runsvc/runsvc/internal/testing/blackbox"
)

// needMake skips a test of the Makefile where make or git is missing.
func needMake(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"make", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("skipped: %s not installed", tool)
		}
	}
}

// makeCmd is make run in the repository's root with vars and GOFLAGS
// holding -buildvcs=false, as on a machine whose Go is set up so.
func makeCmd(target string, vars ...string) *exec.Cmd {
	cmd := exec.Command("make", append([]string{"--no-print-directory", target}, vars...)...)
	cmd.Dir = blackbox.Root()
	cmd.Env = append(os.Environ(), "GOFLAGS=-buildvcs=false")
	return cmd
}

// TestMakeBuildStampsCommit: the binary make build writes prints the
// checkout's commit even where GOFLAGS has -buildvcs=false.
func TestMakeBuildStampsCommit(t *testing.T) {
	needMake(t)
	head, err := exec.Command("git", "-C", blackbox.Root(), "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("skipped: not a git checkout: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "runsvc")
	if out, err := makeCmd("build", "BIN="+bin).CombinedOutput(); err != nil {
		t.Fatalf("make build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatalf("runsvc version: %v", err)
	}
	want := "commit " + strings.TrimSpace(string(head))
	if lines := strings.Split(string(out), "\n"); len(lines) < 2 || strings.TrimSuffix(lines[1], " (modified)") != want {
		t.Errorf("runsvc version printed\n%s\nwant a second line %q", out, want)
	}
}

// TestMakeRunInterrupt: Ctrl-C on make run (SIGINT to make's process
// group, as a terminal sends it) drains runsvc, which exits 0, and make
// reports no error of its recipe: make itself ends by the interrupt, as GNU
// make always does when it receives one.
func TestMakeRunInterrupt(t *testing.T) {
	needMake(t)
	dir := t.TempDir()
	addr := blackbox.FreePort(t)
	cmd := makeCmd("run", "BIN="+filepath.Join(dir, "runsvc"),
		"RUNFLAGS=--listen "+addr+" --data "+filepath.Join(dir, "data")+" --log-format text")
	cmd.Env = append(cmd.Env, "RUNSVC_LISTEN="+addr, "RUNSVC_DATA="+filepath.Join(dir, "data"), "RUNSVC_LOG_FORMAT=text")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	done := make(chan error, 1)
	go func() { done <- cmd.Wait(); pw.Close() }()
	var out strings.Builder
	lines := bufio.NewScanner(pr)
	for lines.Scan() {
		out.WriteString(lines.Text() + "\n")
		if strings.Contains(lines.Text(), "runsvc serving") {
			if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
		}
	}
	err := <-done
	t.Logf("make run ended with %v and printed:\n%s", err, out.String())
	if !strings.Contains(out.String(), "runsvc serving") {
		t.Fatalf("runsvc never served: %v", err)
	}
	if strings.Contains(out.String(), "make: ***") {
		t.Errorf("make reported an error of its recipe")
	}
	if !strings.Contains(out.String(), "draining") {
		t.Errorf("runsvc did not drain")
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit) && exit.Sys().(syscall.WaitStatus).Signal() == syscall.SIGINT:
	default:
		t.Errorf("make run ended with %v, want exit 0 or the interrupt itself", err)
	}
}
