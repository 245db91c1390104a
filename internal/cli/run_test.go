package cli_test

import (
	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// lifecycleStep is one CLI command in the life of a Run, what it must
// exit with and print (<run> stands for the Run id) and a check of the rest.
type lifecycleStep struct {
	name   string
	args   func() []string
	code   int
	stdout []string
	check  func(t *testing.T, stdout string)
}

// suspendSteps are TestRunLifecycle's steps from the start until the Run
// suspends, against the server at addr, in order; the first sets *id,
// which the later ones read when they run.
func suspendSteps(addr string, id *string) []lifecycleStep {
	return []lifecycleStep{
		{
			name: "start prints only the id",
			args: func() []string { return []string{"run", "start", "hello", "--input", "What's the weather?"} },
			check: func(t *testing.T, stdout string) {
				*id = strings.TrimSuffix(stdout, "\n")
				if !strings.HasPrefix(*id, "run_") || strings.ContainsAny(*id, " \n") {
					t.Fatalf("start printed %q, want just a run id", stdout)
				}
			},
		},
		{
			name: "watch until suspended",
			args: func() []string { return []string{"run", "watch", *id, "--until-suspended"} },
			stdout: []string{
				"of spec hello (version ",
				"  input: What's the weather?\n",
				"turn 1\n",
				"  model call started\n",
				"  model answered after ",
				"  model: Let me look.\n",
				"  calls lookup [call_1_1] {\"q\":\"weather\"}\n",
				"suspended: waiting for the results of 1 client tool call, until ",
				"               call_1_1  lookup {\"q\":\"weather\"}\n",
				`runsvc --addr ` + addr + ` run resume <run> --results '{"call_1_1": "..."}'`,
			},
		},
		{
			name:   "get shows the suspension",
			args:   func() []string { return []string{"run", "get", *id} },
			stdout: []string{"<run>  SUSPENDED\n", "  spec      hello (version ", "suspended: waiting for the results of 1 client tool call", "call_1_1  lookup"},
		},
		{
			name:   "wait returns at once on a suspended run",
			args:   func() []string { return []string{"run", "wait", *id, "--wait", "5s"} },
			stdout: []string{"<run>  SUSPENDED\n"},
		},
	}
}

// completeSteps are TestRunLifecycle's steps from resuming the suspended
// Run *id until it has completed, in order.
func completeSteps(t *testing.T, id *string) []lifecycleStep {
	return []lifecycleStep{
		{
			name: "resume from a results file",
			args: func() []string {
				return []string{"run", "resume", *id, "--results", writeFile(t, "results.json", `[{"call_id": "call_1_1", "output": {"forecast": "sunny", "celsius": 21}}]`)}
			},
			stdout: []string{"resumed run <run>: it is "},
		},
		{
			name: "watch to completion",
			args: func() []string { return []string{"run", "watch", *id} },
			stdout: []string{
				"resumed with 1 tool result\n",
				"  result for call_1_1: {\"celsius\":21,\"forecast\":\"sunny\"}\n",
				"  tool lookup [call_1_1] returned after ",
				"turn 2\n",
				"  model: It is sunny.\n",
				"completed: It is sunny.\n",
			},
		},
		{
			name:   "watch from a seq shows only the end",
			args:   func() []string { return []string{"run", "watch", *id, "--from", "13"} },
			stdout: []string{"run <run>, from record 13\n", "completed: It is sunny.\n"},
		},
		{
			name:   "watch past the end of a settled run",
			args:   func() []string { return []string{"run", "watch", *id, "--from", "1000"} },
			stdout: []string{"completed: It is sunny.\n"},
		},
		{
			name:   "get shows the answer",
			args:   func() []string { return []string{"run", "get", *id} },
			stdout: []string{"<run>  COMPLETED\n", "  answer    It is sunny.\n", "turn 2, attempt 2, 2 model calls, 1 tool call"},
		},
		{
			name:   "list",
			args:   func() []string { return []string{"run", "list", "--state", "completed", "--spec", "hello"} },
			stdout: []string{"RUN ID", "<run>  hello  COMPLETED  2", "It is sunny."},
		},
		{
			name:   "list filters by state",
			args:   func() []string { return []string{"run", "list", "--state", "FAILED,aborted"} },
			stdout: []string{"no runs\n"},
		},
		{
			name:   "interrupt a settled run is a no-op",
			args:   func() []string { return []string{"run", "interrupt", *id} },
			stdout: []string{"run <run> had already settled: it is COMPLETED\n"},
		},
	}
}

// TestRunLifecycle drives one Run from start to completion, each step a
// CLI command.
func TestRunLifecycle(t *testing.T) {
	srv := testserver.Start(t)
	c := newClient(t, srv)
	c.publishHello()
	var id string
	steps := append(suspendSteps(srv.Addr, &id), completeSteps(t, &id)...)
	for _, s := range steps {
		if !t.Run(s.name, func(t *testing.T) {
			r := c.run(s.args()...)
			if r.code != s.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, s.code, r.stdout, r.stderr)
			}
			plainText(t, r.stdout)
			for _, want := range s.stdout {
				contains(t, "stdout", r.stdout, strings.ReplaceAll(want, "<run>", id))
			}
			if s.check != nil {
				s.check(t, r.stdout)
			}
		}) {
			t.FailNow()
		}
	}
}

func TestRunStartWatch(t *testing.T) {
	srv := testserver.Start(t)
	c := newClient(t, srv)
	c.publishHello()
	r := c.run("run", "start", "hello", "--input-file", "-", "--watch", "--until-suspended")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	id, rest, _ := strings.Cut(r.stdout, "\n")
	if !strings.HasPrefix(id, "run_") {
		t.Fatalf("the first line is %q, want the run id", id)
	}
	contains(t, "stdout", rest, "run "+id+" of spec hello", "suspended: waiting for the results of 1 client tool call")

	r = c.runStdin("", "run", "resume", id, "--results", `{"call_1_1": "sunny"}`, "--watch")
	if r.code != 0 {
		t.Fatalf("resume --watch: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	contains(t, "stdout", r.stdout, "resumed run "+id+": it is ", "resumed with 1 tool result\n", "completed: It is sunny.\n")
	if strings.Contains(r.stdout, "turn 1\n") {
		t.Errorf("resume --watch replayed the Run from the start:\n%s", r.stdout)
	}
}

// TestSuspensions answers each kind of suspension the way the watch
// says to.
func TestSuspensions(t *testing.T) {
	policy := filepath.Join(t.TempDir(), "policy.json")
	if err := os.WriteFile(policy, []byte(`{"tools": {"memory_set": {"effect": "destructive"}},
		"rules": [{"effect": "destructive", "decision": "require_approval", "reason": "destructive tools need a person"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		spec      string
		opts      []testserver.Option
		suspended []string
		resume    []string
		code      int
		settled   []string
	}{
		{
			name: "question",
			spec: `name: asker
model: {provider: scripted, script: {turns: [{toolCalls: [{name: ask_user, arguments: {question: "Which city?"}}]}, {text: "Paris it is."}]}}
tools: [{name: ask_user, kind: builtin}]
`,
			suspended: []string{"suspended: waiting for an answer to a question, until ", "  question: Which city?\n", "call_1_1  ask_user {\"question\":\"Which city?\"}", "run resume <run> --answer '...'"},
			resume:    []string{"--answer", "Paris"},
			settled:   []string{"resumed with the answer: Paris\n", "completed: Paris it is.\n"},
		},
		{
			name: "approval denied",
			spec: `name: writer
model: {provider: scripted, script: {turns: [{toolCalls: [{name: memory_set, arguments: {key: k, value: 1}}]}, {text: "Not allowed, then."}]}}
tools: [{name: memory_set, kind: builtin}]
`,
			opts:      []testserver.Option{func(c *server.Config) { c.PolicyFile = policy }},
			suspended: []string{"suspended: waiting for approval of a tool call, until ", "  why: destructive tools need a person\n", "call_1_1  memory_set {\"key\":\"k\",\"value\":1}", "run resume <run> --approve\n", "run resume <run> --deny --note '...'\n"},
			resume:    []string{"--deny", "--note", "not today"},
			settled:   []string{"resumed: denied: not today\n", "completed: Not allowed, then.\n"},
		},
		{
			name: "approval granted",
			spec: `name: writer
model: {provider: scripted, script: {turns: [{toolCalls: [{name: memory_set, arguments: {key: k, value: 1}}]}, {text: "Saved."}]}}
tools: [{name: memory_set, kind: builtin}]
`,
			opts:      []testserver.Option{func(c *server.Config) { c.PolicyFile = policy }},
			suspended: []string{"suspended: waiting for approval of a tool call"},
			resume:    []string{"--approve"},
			settled:   []string{"resumed: approved\n", "  tool memory_set [call_1_1] returned after ", `{"key":"k","version":`, "completed: Saved.\n"},
		},
		{
			name:      "client tool error",
			spec:      helloYAML,
			suspended: []string{"suspended: waiting for the results of 1 client tool call"},
			resume:    []string{"--results", `[{"call_id": "call_1_1", "error": {"message": "no network", "retryable": true}}]`},
			settled:   []string{"  error for call_1_1: no network (retryable)\n", "  tool lookup [call_1_1] failed", "no network", "completed: It is sunny.\n"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := testserver.Start(t, tt.opts...)
			c := newClient(t, srv)
			c.must("spec", "publish", writeFile(t, "spec.yaml", tt.spec))
			name := strings.TrimPrefix(strings.SplitN(tt.spec, "\n", 2)[0], "name: ")
			id := strings.TrimSpace(c.must("run", "start", name))
			out := c.must("run", "watch", id, "--until-suspended")
			for _, want := range tt.suspended {
				contains(t, "watch", out, strings.ReplaceAll(want, "<run>", id))
			}
			c.must(append([]string{"run", "resume", id}, tt.resume...)...)
			r := c.run("run", "watch", id)
			if r.code != tt.code {
				t.Fatalf("watch: exit %d, want %d\n%s%s", r.code, tt.code, r.stdout, r.stderr)
			}
			contains(t, "watch", r.stdout, tt.settled...)
		})
	}
}

func TestInterrupt(t *testing.T) {
	srv := testserver.Start(t)
	c := newClient(t, srv)
	c.publishHello()
	id := c.startSuspended()
	contains(t, "interrupt", c.must("run", "interrupt", id, "--reason", "changed my mind"), "interrupted run "+id+": it is ")
	r := c.run("run", "watch", id)
	if r.code != 1 {
		t.Fatalf("watch of an interrupted run: exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	contains(t, "watch", r.stdout, "interrupt requested: changed my mind\n", "aborted: interrupted\n")
	contains(t, "get", c.must("run", "get", id), id+"  ABORTED\n", "  aborted   interrupted\n")
	r = c.run("run", "wait", id)
	if r.code != 1 {
		t.Errorf("wait on an aborted run: exit %d, want 1", r.code)
	}
}

// hangYAML is a scripted Spec whose Runs call the worker tool `hang`.
const hangYAML = `name: hang
model: {provider: scripted, script: {turns: [{text: "Calling.", toolCalls: [{name: hang}]}, {text: "Done."}]}}
tools: [{name: hang, kind: worker}]
`

// TestAbortedCallsSayWhy: a tool call in flight when the Run is aborted
// closes without a result, and the watch says whether the Run was
// interrupted or passed its deadline; a watch that starts after the abort
// request says what the Record says.
func TestAbortedCallsSayWhy(t *testing.T) {
	srv := testserver.Start(t, func(cfg *server.Config) { cfg.Engine.OrphanGrace = 100 * time.Millisecond })
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	srv.StartWorker(t, "hanger", map[string]testserver.ToolFunc{"hang": func(map[string]any) (any, *runsvcv1.ToolError) {
		<-stop
		return "late", nil
	}})
	c := newClient(t, srv)
	c.must("spec", "publish", writeFile(t, "hang.yaml", hangYAML))
	tests := []struct {
		name, deadline string
		interrupt      bool
		want, notWant  string
	}{
		{name: "interrupted", deadline: "1m", interrupt: true, want: "closed without a result: the run was interrupted before it answered\n", notWant: "deadline before"},
		{name: "past its deadline", deadline: "1s", want: "closed without a result: the run passed its deadline before it answered\n", notWant: "interrupted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := strings.TrimSpace(c.must("run", "start", "hang", "--input", "go", "--deadline", tt.deadline))
			waitForOpenCall(t, srv, id)
			if tt.interrupt {
				c.must("run", "interrupt", id)
			}
			r := c.run("run", "watch", id)
			contains(t, "watch", r.stdout, tt.want)
			if strings.Contains(r.stdout, tt.notWant) {
				t.Errorf("the watch says %q:\n%s", tt.notWant, r.stdout)
			}
			var from int
			for _, rec := range srv.Records(t, id) {
				if rec.GetAbortRequested() != nil {
					from = int(rec.GetSeq()) + 1
				}
			}
			r = c.run("run", "watch", id, "--from", strconv.Itoa(from))
			contains(t, "watch --from", r.stdout, "closed without a result: orphaned (")
		})
	}
}

// waitForOpenCall waits until the Run has started its tool call.
func waitForOpenCall(t *testing.T, srv *testserver.Server, id string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		for _, rec := range srv.RecordsSoFar(t, id) {
			if rec.GetToolCallStarted() != nil {
				return
			}
		}
	}
	t.Fatal("the tool call never started")
}

// TestRunFailures shows retries and failures as the watch reports them.
func TestRunFailures(t *testing.T) {
	tests := []struct {
		name   string
		spec   string
		code   int
		stdout []string
	}{
		{
			name: "model retried then answers",
			spec: `name: flaky
model: {provider: scripted, script: {turns: [{text: "Done.", fail: {httpStatus: 503, times: 1, message: upstream down}}]}}
`,
			stdout: []string{"  model call failed after ", "upstream down", "[INFERENCE_FAILED, retryable", "  retrying the model call in ", "completed: Done.\n"},
		},
		{
			name: "model refuses",
			spec: `name: refused
model: {provider: scripted, script: {turns: [{text: "Done.", fail: {httpStatus: 400, message: bad prompt}}]}}
`,
			code:   1,
			stdout: []string{"  model call failed after ", "bad prompt", "failed: ", "not retryable]\n"},
		},
		{
			name: "tool failure is the model's result",
			spec: `name: badtool
model: {provider: scripted, script: {turns: [{toolCalls: [{name: memory_set, arguments: {key: k}}]}, {text: "Oh well."}]}}
tools: [{name: memory_set, kind: builtin}]
`,
			stdout: []string{"  tool memory_set [call_1_1] started\n", "  tool memory_set [call_1_1] failed after ", "memory_set needs", "[TOOL_REJECTED, not retryable]", "completed: Oh well.\n"},
		},
	}
	srv := testserver.Start(t)
	c := newClient(t, srv)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.must("spec", "publish", writeFile(t, "spec.yaml", tt.spec))
			name := strings.TrimPrefix(strings.SplitN(tt.spec, "\n", 2)[0], "name: ")
			r := c.run("run", "start", name, "--watch")
			if r.code != tt.code {
				t.Fatalf("exit %d, want %d\n%s%s", r.code, tt.code, r.stdout, r.stderr)
			}
			plainText(t, r.stdout)
			contains(t, "watch", r.stdout, tt.stdout...)
		})
	}
}
