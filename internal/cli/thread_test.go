package cli_test

import (
	"strings"
	"testing"

	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestThreadCommands: two Runs started with --thread, then thread list and
// thread show list them in order; run get shows what the second continues;
// a busy thread with --strategy reject exits with the reason, and a bad
// --strategy gets a suggestion.
func TestThreadCommands(t *testing.T) {
	srv := testserver.Start(t)
	c := newClient(t, srv)
	c.must("spec", "publish", writeFile(t, "chat.yaml", "name: chat\nmodel: {provider: scripted, script: {turns: [{text: ok}]}}\n"))
	c.must("spec", "publish", writeFile(t, "slow.yaml", "name: slow\nmodel: {provider: scripted, script: {turns: [{text: late, delay: 30s}]}}\n"))
	first := strings.TrimSpace(c.must("run", "start", "chat", "--input", "one", "--thread", "conv", "--watch"))
	first = strings.SplitN(first, "\n", 2)[0]
	second := strings.SplitN(c.must("run", "start", "chat", "--input", "two", "--thread", "conv", "--watch"), "\n", 2)[0]
	cases := []struct {
		name   string
		args   []string
		code   int
		stdout []string
		stderr []string
	}{
		{name: "thread list", args: []string{"thread", "list"}, stdout: []string{"THREAD ID", "conv", "2", first[:8]}},
		{name: "thread show", args: []string{"thread", "show", "conv"}, stdout: []string{"conv  2 runs", "1  " + first, "2  " + second, "COMPLETED"}},
		{name: "run get shows the thread", args: []string{"run", "get", second}, stdout: []string{"thread    conv (continues " + first + ")"}},
		{name: "run list --thread", args: []string{"run", "list", "--thread", "conv"}, stdout: []string{first, second}},
		{name: "unknown thread", args: []string{"thread", "show", "nope"}, code: 1, stderr: []string{"THREAD_NOT_FOUND"}},
		{name: "bad strategy", args: []string{"run", "start", "chat", "--thread", "conv", "--strategy", "enqeue"}, code: 2, stderr: []string{"did you mean enqueue?"}},
		{name: "strategy without thread", args: []string{"run", "start", "chat", "--strategy", "enqueue"}, code: 2, stderr: []string{"--strategy needs --thread"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := c.run(tc.args...)
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, tc.code, r.stdout, r.stderr)
			}
			contains(t, "stdout", r.stdout, tc.stdout...)
			contains(t, "stderr", r.stderr, tc.stderr...)
		})
	}
	t.Run("busy thread rejects", func(t *testing.T) {
		c.must("run", "start", "slow", "--input", "wait", "--thread", "busy")
		r := c.run("run", "start", "slow", "--input", "again", "--thread", "busy", "--strategy", "reject")
		if r.code == 0 || !strings.Contains(r.stderr, "THREAD_BUSY") {
			t.Fatalf("exit %d\nstderr:\n%s", r.code, r.stderr)
		}
	})
	t.Run("list rows are in start order", func(t *testing.T) {
		out := c.must("run", "list", "--thread", "conv")
		if strings.Index(out, first) > strings.Index(out, second) {
			t.Errorf("run list --thread printed the second run first:\n%s", out)
		}
	})
}
