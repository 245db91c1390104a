package cli_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestRunDeleteExportImport drives delete, export and import through the
// CLI against two real servers: an active Run is refused with a hint
// naming --interrupt, an export written to a file imports into the
// second server (twice: the second says so), and a deleted Run is gone.
func TestRunDeleteExportImport(t *testing.T) {
	src, dst := testserver.Start(t), testserver.Start(t)
	c, d := newClient(t, src), newClient(t, dst)
	c.publishHello()
	id := c.startSuspended()
	onThread := strings.TrimSpace(c.must("run", "start", "hello", "--input", "weather?", "--thread", "th-cli"))
	c.must("run", "watch", onThread, "--until-suspended")

	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr []string
	}{
		{"delete needs a target", []string{"run", "delete"}, 2, "", []string{"run delete needs a RUN_ID, or --spec SPEC"}},
		{"delete run and spec", []string{"run", "delete", id, "--spec", "hello"}, 2, "", []string{"give only one of RUN_ID, --spec and --thread"}},
		{"delete run and thread", []string{"run", "delete", id, "--thread", "th-cli"}, 2, "", []string{"give only one of RUN_ID, --spec and --thread"}},
		{"delete busy thread refused", []string{"run", "delete", "--thread", "th-cli"}, 1, "", []string{"RUN_NOT_SETTLED", "run delete --thread th-cli --interrupt"}},
		{"delete unknown thread", []string{"run", "delete", "--thread", "th-nope"}, 1, "", []string{"THREAD_NOT_FOUND"}},
		{"delete active refused", []string{"run", "delete", id}, 1, "", []string{"RUN_NOT_SETTLED", "run delete " + id + " --interrupt"}},
		{"export of an unknown run", []string{"run", "export", "run_nope"}, 1, "", []string{"RUN_NOT_FOUND"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := c.run(tc.args...)
			if r.code != tc.code || !strings.Contains(r.stdout, tc.stdout) {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit %d", r.code, r.stdout, r.stderr, tc.code)
			}
			contains(t, "stderr", r.stderr, tc.stderr...)
		})
	}

	c.must("run", "resume", id, "--results", `{"call_1_1": "sunny"}`)
	c.must("run", "wait", id)
	file := filepath.Join(t.TempDir(), "run.jsonl")
	c.must("run", "export", id, "-o", file)
	lines := strings.Split(strings.TrimSuffix(c.must("run", "export", id), "\n"), "\n")
	if !strings.HasPrefix(lines[0], `{"format":"runsvc.run.v1"`) || len(lines) < 3 {
		t.Fatalf("export to stdout: %d lines, first %q", len(lines), lines[0])
	}
	d.c(t, "import", file, "imported run "+id+" (COMPLETED)")
	d.c(t, "import", file, "already imported run "+id)
	if got := d.must("run", "get", id); !strings.Contains(got, "It is sunny.") {
		t.Errorf("the imported run shows:\n%s", got)
	}
	c.c(t, "delete", id, "deleted run "+id)
	if r := c.run("run", "get", id); r.code != 1 || !strings.Contains(r.stderr, "RUN_NOT_FOUND") {
		t.Errorf("get after delete: exit %d, stderr %q", r.code, r.stderr)
	}
	contains(t, "stdout of run delete --thread", c.must("run", "delete", "--thread", "th-cli", "--interrupt"), "deleted thread th-cli and its 1 runs")
	contains(t, "stdout of run delete --spec", c.must("run", "delete", "--spec", "hello"), "deleted 0 runs of spec hello")
}

// c runs `runsvc run VERB ARG` and checks its stdout.
func (c client) c(t *testing.T, verb, arg, want string) {
	t.Helper()
	contains(t, "stdout of run "+verb, c.must("run", verb, arg), want)
}
