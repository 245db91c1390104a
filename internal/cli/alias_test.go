package cli_test

import (
	"strings"
	"testing"

	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestAliasCommands: set an alias, start a Run on it, split it as a
// canary, read it, its history and its rollout, delete it; a Spec
// without the alias exits ALIAS_NOT_FOUND.
func TestAliasCommands(t *testing.T) {
	srv := testserver.Start(t)
	c := newClient(t, srv)
	version := func(answer string) string {
		out := c.must("spec", "publish", writeFile(t, answer+".yaml", "name: greet\nmodel: {provider: scripted, script: {turns: [{text: "+answer+"}]}}\n"))
		return strings.TrimSuffix(strings.Fields(out)[4], ",")
	}
	v1, v2 := version("one"), version("two")
	c.must("spec", "alias", "set", "greet", "prod", "--version", v1)
	run := strings.TrimSpace(c.must("run", "start", "greet@prod", "--input", "hi"))
	srv.Settled(t, run)
	cases := []struct {
		name   string
		args   []string
		code   int
		stdout []string
		stderr []string
	}{
		{name: "run get", args: []string{"run", "get", run, "--json"}, stdout: []string{`"alias":"prod"`, `"aliasSide":"ALIAS_SIDE_PRIMARY"`, v1}},
		{name: "canary", args: []string{"spec", "alias", "move", "greet", "prod", "--version", v1, "--canary", v2, "--percent", "5"}, stdout: []string{"greet@prod -> " + v1 + " 95% + " + v2 + " 5%"}},
		{name: "get", args: []string{"spec", "alias", "get", "greet", "prod"}, stdout: []string{"revision 2", v2 + " 5%"}},
		{name: "list", args: []string{"spec", "alias", "list", "greet"}, stdout: []string{"SPEC", "greet  prod"}},
		{name: "history", args: []string{"spec", "alias", "history", "greet", "prod"}, stdout: []string{"FROM", "-   -                 " + v1}},
		{name: "rollout", args: []string{"spec", "rollout", "greet@prod"}, stdout: []string{"primary  " + v1 + "  1     1          0", "canary   " + v2}},
		{name: "gate on an unknown evaluation", args: []string{"spec", "alias", "move", "greet", "prod", "--if-eval", "ev_1", "--min-score", "0.9"}, code: 1, stderr: []string{"EVALUATION_NOT_FOUND", "ev_1"}},
		{name: "delete", args: []string{"spec", "alias", "delete", "greet", "prod"}, stdout: []string{"deleted greet@prod"}},
		{name: "start on a deleted alias", args: []string{"run", "start", "greet@prod"}, code: 1, stderr: []string{"ALIAS_NOT_FOUND"}},
		{name: "no action", args: []string{"spec", "alias"}, code: 2, stderr: []string{"needs an action"}},
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
}
