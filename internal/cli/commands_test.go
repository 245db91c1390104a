package cli_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// commandCase is one CLI invocation, the exit code it must end with and
// what its stdout and stderr must hold. args may hold <run>, replaced by
// the case's Run id.
type commandCase struct {
	name   string
	args   []string
	code   int
	stdout []string
	stderr []string
	// exact, when set, is the whole stdout.
	exact string
}

func (c client) check(t *testing.T, tt commandCase, runID string) result {
	t.Helper()
	args := make([]string, len(tt.args))
	for i, a := range tt.args {
		args[i] = strings.ReplaceAll(a, "<run>", runID)
	}
	r := c.run(args...)
	if r.code != tt.code {
		t.Fatalf("runsvc %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.code, tt.code, r.stdout, r.stderr)
	}
	if tt.exact != "" && r.stdout != strings.ReplaceAll(tt.exact, "<run>", runID) {
		t.Errorf("stdout\n got %q\nwant %q", r.stdout, tt.exact)
	}
	for _, w := range tt.stdout {
		contains(t, "stdout", r.stdout, strings.ReplaceAll(w, "<run>", runID))
	}
	for _, w := range tt.stderr {
		contains(t, "stderr", r.stderr, strings.ReplaceAll(w, "<run>", runID))
	}
	return r
}

// TestToolCommands lists and invokes tools served by a real worker.
func TestToolCommands(t *testing.T) {
	srv := testserver.Start(t)
	c := newClient(t, srv)
	c.publishHello()
	srv.StartWorker(t, "shouter", map[string]testserver.ToolFunc{
		"shout": func(args map[string]any) (any, *runsvcv1.ToolError) {
			s, _ := args["text"].(string)
			return map[string]any{"text": strings.ToUpper(s)}, nil
		},
		"flaky": func(map[string]any) (any, *runsvcv1.ToolError) {
			return nil, &runsvcv1.ToolError{Message: "the backend is down", Retryable: true}
		},
		"broken": func(map[string]any) (any, *runsvcv1.ToolError) {
			return nil, &runsvcv1.ToolError{Message: "bad input"}
		},
	})
	tests := []commandCase{
		{name: "list", args: []string{"tool", "list"}, stdout: []string{"TOOL ", "shout              worker   1", "memory_get         builtin  -"}},
		{name: "list a spec's", args: []string{"tool", "list", "--spec", "hello"}, stdout: []string{"lookup             client   -        Look things up\n"}},
		{name: "list an unknown spec", args: []string{"tool", "list", "--spec", "nope"}, code: 1, stderr: []string{"[SPEC_NOT_FOUND, not retryable]"}},
		{name: "invoke", args: []string{"tool", "invoke", "shout", "--args", `{"text": "hi"}`}, exact: "{\"text\":\"HI\"}\n"},
		{name: "invoke with json", args: []string{"--json", "tool", "invoke", "shout", "--args", `{"text": "hi"}`}, stdout: []string{`"callId":"inv_`, `"output":{"text":"HI"}`, `"error":null`}},
		{name: "a retryable tool failure", args: []string{"tool", "invoke", "flaky"}, code: 75, stderr: []string{"the backend is down", "retryable"}},
		{name: "a tool failure", args: []string{"tool", "invoke", "broken"}, code: 1, stderr: []string{"bad input", ", not retryable]"}},
		{name: "no such tool", args: []string{"tool", "invoke", "nope"}, code: 1, stderr: []string{"[TOOL_NOT_FOUND, not retryable]"}},
		{name: "a client tool", args: []string{"tool", "invoke", "lookup", "--spec", "hello"}, code: 1, stderr: []string{"only a Run can call", "[INVALID_REQUEST"}},
		{name: "args not an object", args: []string{"tool", "invoke", "shout", "--args", "[1]"}, code: 2, stderr: []string{"--args must be a JSON object"}},
		{name: "args from a file", args: []string{"tool", "invoke", "shout", "--args", "@" + writeFile(t, "args.json", `{"text": "file"}`)}, exact: "{\"text\":\"FILE\"}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { c.check(t, tt, "") })
	}
}

// TestMemoryCommands sets, gets and watches memory in a namespace and in
// a Run's family.
func TestMemoryCommands(t *testing.T) {
	srv := testserver.Start(t)
	c := newClient(t, srv)
	c.publishHello()
	id := c.startSuspended()
	tests := []commandCase{
		{name: "set JSON", args: []string{"memory", "set", "count", "42", "--namespace", "team"}, exact: "set count (version 1)\n"},
		{name: "get one", args: []string{"memory", "get", "count", "--namespace", "team"}, exact: "42\n"},
		{name: "set text", args: []string{"memory", "set", "note", "buy milk", "--namespace", "team"}, exact: "set note (version 2)\n"},
		{name: "set --text keeps JSON as text", args: []string{"memory", "set", "count", "43", "--text", "--namespace", "team"}, exact: "set count (version 3)\n"},
		{name: "get several", args: []string{"memory", "get", "count", "note", "--namespace", "team"}, exact: "count = \"43\"\nnote = \"buy milk\"\n"},
		{name: "get a missing key", args: []string{"memory", "get", "count", "nope", "--namespace", "team"}, code: 1, exact: "count = \"43\"\nnope is not set\n"},
		{name: "wait for a missing key", args: []string{"memory", "get", "nope", "--namespace", "team", "--wait", "200ms"}, code: 1, stderr: []string{"[AWAIT_TIMEOUT, not retryable]"}},
		{name: "json", args: []string{"--json", "memory", "get", "count", "--namespace", "team"}, stdout: []string{`{"entries":[{"key":"count","value":"43","version":"3","updateTime":"`}},
		{name: "json with a missing key", args: []string{"--json", "memory", "get", "count", "nope", "--namespace", "team"}, code: 1, stdout: []string{`{"entries":[{"key":"count",`}},
		{name: "a run's family", args: []string{"memory", "set", "plan", `{"step": 1}`, "--run", "<run>"}, exact: "set plan (version 1)\n"},
		{name: "get in a run's family", args: []string{"memory", "get", "plan", "--run", "<run>"}, exact: "{\"step\":1}\n"},
		{name: "watch what is set", args: []string{"memory", "watch", "co*", "--namespace", "team", "--existing", "--count", "1"}, stdout: []string{` count = "43" (version 3)`}},
		{name: "no scope", args: []string{"memory", "get", "count"}, code: 2, stderr: []string{"name the memory with --run RUN_ID or --namespace NAMESPACE"}},
		{name: "two scopes", args: []string{"memory", "get", "count", "--run", "<run>", "--namespace", "team"}, code: 2, stderr: []string{"give --run or --namespace, not both"}},
		{name: "unknown run", args: []string{"memory", "get", "plan", "--run", "run_nope"}, code: 1, stderr: []string{"[RUN_NOT_FOUND, not retryable]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { c.check(t, tt, id) })
	}
}

// TestMemoryWatchLive watches a key another command sets afterwards.
func TestMemoryWatchLive(t *testing.T) {
	srv := testserver.Start(t)
	c := newClient(t, srv)
	var wg sync.WaitGroup
	var watched result
	wg.Add(1)
	go func() {
		defer wg.Done()
		watched = c.run("memory", "watch", "status", "--namespace", "team", "--count", "2")
	}()
	// The watch sees only changes after it started: set until it has seen
	// two, however long it took to connect.
	deadline := time.Now().Add(20 * time.Second)
	for i := 0; ; i++ {
		c.must("memory", "set", "status", "ready", "--namespace", "team")
		if done := waitTimeout(&wg, 100*time.Millisecond); done || time.Now().After(deadline) {
			break
		}
	}
	wg.Wait()
	if watched.code != 0 {
		t.Fatalf("watch: exit %d\n%s%s", watched.code, watched.stdout, watched.stderr)
	}
	lines := strings.Split(strings.TrimSuffix(watched.stdout, "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("watch printed %d lines, want 2:\n%s", len(lines), watched.stdout)
	}
	for _, l := range lines {
		contains(t, "watch", l, ` status = "ready" (version `)
	}
}

// waitTimeout waits for wg at most d and says whether it finished.
func waitTimeout(wg *sync.WaitGroup, d time.Duration) bool {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(d):
		return false
	}
}

// TestBusCommands sends messages between robots and receives them.
func TestBusCommands(t *testing.T) {
	srv := testserver.Start(t)
	c := newClient(t, srv)
	srv.Publish(t, `{"name": "alice", "bus": {"enabled": true}, "model": {"provider": "scripted", "script": {"turns": [{"text": "x"}]}}}`)
	srv.Publish(t, `{"name": "bob", "bus": {"enabled": true}, "model": {"provider": "scripted", "script": {"turns": [{"text": "x"}]}}}`)
	srv.Publish(t, `{"name": "carol", "model": {"provider": "scripted", "script": {"turns": [{"text": "x"}]}}}`)
	first := strings.TrimSpace(c.must("bus", "send", "bob", "hello bob", "--sender", "alice"))
	if !strings.HasPrefix(first, "msg_") {
		t.Fatalf("bus send printed %q, want a message id", first)
	}
	tests := []commandCase{
		{name: "send JSON", args: []string{"bus", "send", "bob", `{"n": 1}`, "--sender", "alice"}, stdout: []string{"msg_"}},
		{name: "receive and acknowledge", args: []string{"bus", "receive", "bob", "--count", "2", "--ack-timeout", "1s"}, stdout: []string{" " + first + " from alice: hello bob\n", ` from alice: {"n":1}` + "\n"}},
		{name: "reply", args: []string{"bus", "send", "bob", "thanks", "--sender", "alice", "--in-reply-to", first}, stdout: []string{"msg_"}},
		// The server may deliver the reply once more to the last receive's
		// stream as it closes: hence the short ack timeouts, and no
		// delivery counts below.
		{name: "only the reply is left", args: []string{"bus", "receive", "bob", "--count", "1", "--ack=false", "--ack-timeout", "1s"}, stdout: []string{" from alice in reply to " + first, ": thanks\n"}},
		{name: "unacknowledged comes again", args: []string{"--json", "bus", "receive", "bob", "--count", "1"}, stdout: []string{`"content":"thanks"`, `"inReplyTo":"` + first + `"`}},
		{name: "no sender", args: []string{"bus", "send", "bob", "x"}, code: 2, stderr: []string{"bus send needs --sender SPEC"}},
		{name: "a robot without the bus", args: []string{"bus", "send", "bob", "x", "--sender", "carol"}, code: 1, stderr: []string{"[BUS_NOT_CONFIGURED, not retryable]"}},
		{name: "an unknown channel", args: []string{"bus", "receive", "nowhere"}, code: 1, stderr: []string{"[CHANNEL_NOT_FOUND, not retryable]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { c.check(t, tt, "") })
	}
}

// TestSendAndReport steers a suspended Run, completes it and reads its
// report.
func TestSendAndReport(t *testing.T) {
	srv := testserver.Start(t)
	c := newClient(t, srv)
	// hello with a third turn, for the follow-up.
	c.must("spec", "publish", writeFile(t, "hello.yaml", strings.Replace(helloYAML, `{text: "It is sunny."}]`, `{text: "It is sunny."}, {text: "A poem."}]`, 1)))
	id := c.startSuspended()
	steps := []commandCase{
		{name: "send", args: []string{"run", "send", "<run>", "and the wind?"}, exact: "queued for run <run> as record 7\n"},
		{name: "send a follow-up", args: []string{"run", "send", "<run>", "then a poem", "--mode", "follow-up"}, exact: "queued for run <run> as record 8\n"},
		{name: "bad mode", args: []string{"run", "send", "<run>", "x", "--mode", "later"}, code: 2, stderr: []string{`--mode "later" is not a message mode: use steer or follow-up`}},
		{name: "report while suspended", args: []string{"run", "report", "<run>"}, stdout: []string{"<run>  SUSPENDED  in progress\n", "  now        waiting for the results of 1 client tool call", "  tool calls 1\n", "turn 1  lookup [call_1_1] {\"q\":\"weather\"}\n", "no result yet\n"}},
		{name: "watch shows the messages", args: []string{"run", "watch", "<run>", "--until-suspended"}, stdout: []string{"message queued (steer): and the wind?\n", "message queued (follow-up): then a poem\n"}},
		{name: "send to an unknown run", args: []string{"run", "send", "run_nope", "x"}, code: 1, stderr: []string{"[RUN_NOT_FOUND, not retryable]"}},
	}
	for _, tt := range steps {
		if !t.Run(tt.name, func(t *testing.T) { c.check(t, tt, id) }) {
			t.FailNow()
		}
	}
	c.must("run", "resume", id, "--results", `{"call_1_1": {"forecast": "sunny"}}`)
	srv.Settled(t, id)
	t.Run("report when settled", func(t *testing.T) {
		r := c.check(t, commandCase{args: []string{"run", "report", "<run>"}, stdout: []string{"<run>  COMPLETED  finished\n", "  spec       hello (version ", "  answer     A poem.\n", "  tool calls 1\n", "returned {\"forecast\":\"sunny\"}\n"}}, id)
		if strings.Contains(r.stdout, "no result yet") {
			t.Errorf("a finished call shows no result:\n%s", r.stdout)
		}
	})
	t.Run("report json", func(t *testing.T) {
		c.check(t, commandCase{args: []string{"--json", "run", "report", "<run>"}, stdout: []string{`{"report":{"run":{"runId":"<run>"`, `"finished":true`}}, id)
	})
}

// TestDelegateCommands delegates to a Spec from the command line, waiting
// and not.
func TestDelegateCommands(t *testing.T) {
	srv := testserver.Start(t)
	c := newClient(t, srv)
	srv.Publish(t, `{"name": "analyst", "model": {"provider": "scripted", "script": {"turns": [{"text": "Analysed."}]}}}`)
	r := c.check(t, commandCase{args: []string{"delegate", "start", "analyst", "look at Q3"}, stdout: []string{"  COMPLETED\n", "  child     run run_", " of spec analyst\n", "  task      look at Q3\n", "  answer    Analysed.\n"}}, "")
	if !strings.HasPrefix(r.stdout, "dlg_") {
		t.Fatalf("delegate start printed %q, want the delegation first", r.stdout)
	}
	async := strings.TrimSpace(c.must("delegate", "start", "analyst", "again", "--async"))
	if !strings.HasPrefix(async, "dlg_") || strings.Contains(async, " ") {
		t.Fatalf("--async printed %q, want a delegation id", async)
	}
	tests := []commandCase{
		{name: "await", args: []string{"delegate", "await", async, "--wait", "20s"}, stdout: []string{async + "  COMPLETED\n", "  answer    Analysed.\n"}},
		{name: "get", args: []string{"delegate", "get", async}, stdout: []string{async + "  COMPLETED\n", "  task      again\n"}},
		{name: "json", args: []string{"--json", "delegate", "get", async}, stdout: []string{`{"delegation":{"delegationId":"` + async + `"`, `"state":"RUN_STATE_COMPLETED"`}},
		{name: "unknown spec", args: []string{"delegate", "start", "nope", "x"}, code: 1, stderr: []string{"[SPEC_NOT_FOUND, not retryable]"}},
		{name: "unknown delegation", args: []string{"delegate", "get", "dlg_nope"}, code: 1, stderr: []string{"not found"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { c.check(t, tt, "") })
	}
}

// TestSuggestions checks that a typo gets the nearest command or flag.
func TestSuggestions(t *testing.T) {
	c := client{t: t, addr: closedAddr(t)}
	tests := []struct {
		name  string
		args  []string
		first string
	}{
		{"a command in a group", []string{"run", "sned", "r", "x"}, `runsvc: unknown command "run sned"; did you mean 'run send'?`},
		{"a group", []string{"memroy", "get", "k"}, `runsvc: unknown command "memroy"; did you mean 'memory'?`},
		{"a command without its group", []string{"report", "r"}, `runsvc: unknown command "report"; did you mean 'run report'?`},
		{"serve", []string{"sevre"}, `runsvc: unknown command "sevre"; did you mean 'serve'?`},
		{"nothing near", []string{"frobnicate"}, `runsvc: unknown command "frobnicate"`},
		{"a flag", []string{"run", "wait", "r", "--wiat", "1s"}, "runsvc: unknown flag --wiat; did you mean --wait?"},
		{"a global flag", []string{"--jsn", "run", "get", "r"}, "runsvc: unknown flag --jsn; did you mean --json?"},
		{"a flag of another command", []string{"tool", "invoke", "t", "--arg", "{}"}, "runsvc: unknown flag --arg; did you mean --args?"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := c.run(tt.args...)
			if r.code != 2 {
				t.Fatalf("exit %d, want 2\n%s%s", r.code, r.stdout, r.stderr)
			}
			if first, _, _ := strings.Cut(r.stderr, "\n"); first != tt.first {
				t.Errorf("first stderr line\n got %q\nwant %q", first, tt.first)
			}
		})
	}
}

// TestRunFork forks a settled Run before its second turn: the fork does
// not suspend on the first turn's client call again, and completes.
func TestRunFork(t *testing.T) {
	srv := testserver.Start(t)
	c := newClient(t, srv)
	c.publishHello()
	id := c.startSuspended()
	c.must("run", "resume", id, "--results", `{"call_1_1": {"forecast": "sunny"}}`)
	srv.Settled(t, id)
	fork := strings.TrimSpace(c.must("run", "fork", id, "--turn", "2"))
	if got := srv.Settled(t, fork); got.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED || got.GetAnswer() != "It is sunny." {
		t.Fatalf("fork %s settled %v with %q", fork, got.GetState(), got.GetAnswer())
	}
	for _, tt := range []commandCase{
		{name: "get shows the origin", args: []string{"run", "get", fork}, stdout: []string{fork + "  COMPLETED\n", "  forked    from " + id + " before turn 2 (seq "}},
		{name: "neither turn nor seq", args: []string{"run", "fork", id}, code: 2, stderr: []string{"give one of --turn or --at-seq, positive"}},
		{name: "not a boundary", args: []string{"run", "fork", id, "--at-seq", "1"}, code: 1, stderr: []string{"[INVALID_REQUEST, not retryable]", "seq 1 is not a turn boundary"}},
	} {
		t.Run(tt.name, func(t *testing.T) { c.check(t, tt, id) })
	}
}
