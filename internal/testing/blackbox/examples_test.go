package blackbox_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runsvc/runsvc/internal/testing/blackbox"
)

// TestExamples publishes every Spec in examples/ with the CLI and runs
// each the way the README says: the client-tool one suspends, the
// delegating one completes, the budget one fails BUDGET_EXCEEDED.
func TestExamples(t *testing.T) {
	addr := blackbox.FreePort(t)
	blackbox.Serve(t, addr, "--data", t.TempDir())
	dir := filepath.Join(blackbox.Root(), "examples")
	runsvc := func(args ...string) (string, int) {
		cmd := exec.Command(blackbox.Binary(t), args...)
		cmd.Env = append(os.Environ(), "RUNSVC_ADDR="+addr)
		out, err := cmd.CombinedOutput()
		code := 0
		if exit, ok := err.(*exec.ExitError); ok {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), code
	}
	for _, file := range []string{"analyst.yaml", "client-tool.yaml", "delegating.yaml", "budget.yaml"} {
		if out, code := runsvc("spec", "publish", filepath.Join(dir, file)); code != 0 {
			t.Fatalf("publishing %s: exit %d\n%s", file, code, out)
		}
	}
	cases := []struct {
		spec  string
		args  []string
		code  int
		wants []string
	}{
		{spec: "concierge", args: []string{"--until-suspended"}, code: 0, wants: []string{"find_booking", "runsvc run resume"}},
		{spec: "lead", code: 0, wants: []string{"analyst", "the review can go ahead"}},
		{spec: "spendthrift", code: 1, wants: []string{"BUDGET_EXCEEDED", "budget exceeded for tokens"}},
	}
	for _, tc := range cases {
		t.Run(tc.spec, func(t *testing.T) {
			out, code := runsvc(append([]string{"run", "start", tc.spec, "--input", "go", "--watch"}, tc.args...)...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\n%s", code, tc.code, out)
			}
			for _, w := range tc.wants {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}
