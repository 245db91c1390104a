package main

import (
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/runsvc/runsvc/internal/testing/blackbox"
)

// TestVersion: `runsvc version` and `runsvc --version` print the module
// version, the commit the binary was built from (the checkout's HEAD when
// the build stamped it) and the Go version, from the build info.
func TestVersion(t *testing.T) {
	bin := blackbox.Binary(t)
	head := ""
	if out, err := exec.Command("git", "rev-parse", "HEAD").Output(); err == nil {
		head = strings.TrimSpace(string(out))
	}
	commit := regexp.MustCompile(`^commit ([0-9a-f]{40}|unknown)( \(modified\))?$`)
	for _, args := range [][]string{{"version"}, {"--version"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			out, err := exec.Command(bin, args...).Output()
			if err != nil {
				t.Fatalf("runsvc %v: %v", args, err)
			}
			lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
			if len(lines) != 3 {
				t.Fatalf("printed %q, want three lines", out)
			}
			if !strings.HasPrefix(lines[0], "runsvc ") || len(lines[0]) == len("runsvc ") {
				t.Errorf("first line %q, want runsvc and the module version", lines[0])
			}
			m := commit.FindStringSubmatch(lines[1])
			if m == nil {
				t.Errorf("second line %q, want commit and a revision", lines[1])
			} else if head != "" && m[1] != "unknown" && m[1] != head {
				t.Errorf("commit %s, but the checkout's HEAD is %s", m[1], head)
			}
			if lines[2] != runtime.Version() {
				t.Errorf("third line %q, want %s", lines[2], runtime.Version())
			}
			t.Logf("%s", out)
		})
	}
}
