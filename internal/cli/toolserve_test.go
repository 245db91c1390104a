package cli_test

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/cli"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// serveTool runs "runsvc tool serve" until the test ends and waits until
// runsvc lists the tool with a worker. It returns the command's output so
// far, read after the test stops it, and its exit code.
func serveTool(t *testing.T, srv *testserver.Server, name string, args ...string) func() (int, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out := &testserver.Buffer{}
	done := make(chan int, 1)
	go func() {
		done <- cli.Main(ctx, append([]string{"--addr", srv.Addr, "tool", "serve", name}, args...), strings.NewReader(""), out, out)
	}()
	deadline := time.Now().Add(20 * time.Second)
	for !served(t, srv, name) {
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("tool %s was never served:\n%s", name, out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	var once sync.Once
	var code int
	stop := func() (int, string) {
		once.Do(func() {
			cancel()
			code = <-done
		})
		return code, out.String()
	}
	t.Cleanup(func() { stop() })
	return stop
}

func served(t *testing.T, srv *testserver.Server, name string) bool {
	resp, err := srv.Tools.ListTools(testserver.Context(t), &runsvcv1.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range resp.GetTools() {
		if tool.GetName() == name && tool.GetWorkers() > 0 {
			return true
		}
	}
	return false
}

// TestToolServe serves tools from shell commands and calls them with
// tool invoke and from a Run.
func TestToolServe(t *testing.T) {
	srv := testserver.Start(t)
	c := newClient(t, srv)
	stop := serveTool(t, srv, "shout", "--exec", "tr a-z A-Z", "--description", "Upper-cases")
	serveTool(t, srv, "busy", "--exec", "echo come back later >&2; exit 75")
	serveTool(t, srv, "broken", "--exec", "echo first >&2; echo no such file >&2; exit 2")
	serveTool(t, srv, "whoami", "--exec", `printf '%s %s' "$RUNSVC_TOOL" "$RUNSVC_RUN_ID"`)
	tests := []commandCase{
		{name: "listed", args: []string{"tool", "list"}, stdout: []string{"shout              worker   1        Upper-cases\n"}},
		{name: "JSON in, JSON out", args: []string{"tool", "invoke", "shout", "--args", `{"text": "hi"}`}, exact: "{\"TEXT\":\"HI\"}\n"},
		{name: "exit 75 is retryable", args: []string{"tool", "invoke", "busy"}, code: 75, stderr: []string{"come back later", "retryable"}},
		{name: "another exit is not", args: []string{"tool", "invoke", "broken"}, code: 1, stderr: []string{"no such file", ", not retryable]"}},
		{name: "text out", args: []string{"tool", "invoke", "whoami"}, exact: "\"whoami \"\n"},
		{name: "needs --exec", args: []string{"tool", "serve", "x"}, code: 2, stderr: []string{"tool serve needs --exec COMMAND"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { c.check(t, tt, "") })
	}
	t.Run("a run calls it", func(t *testing.T) {
		c.must("spec", "publish", writeFile(t, "who.yaml", `name: who
model: {provider: scripted, script: {turns: [{toolCalls: [{name: whoami}]}, {text: "Done."}]}}
tools: [{name: whoami, kind: worker}]
`))
		id := strings.TrimSpace(c.must("run", "start", "who"))
		out := c.must("run", "watch", id)
		contains(t, "watch", out, `tool whoami [call_1_1] returned after `, `: "whoami `+id+`"`, "completed: Done.\n")
	})
	code, out := stop()
	if code != cli.ExitInterrupted {
		t.Errorf("tool serve stopped with exit %d, want %d", code, cli.ExitInterrupted)
	}
	if !strings.HasPrefix(out, "serving tool shout as worker ") || !strings.Contains(out, " returned after ") {
		t.Errorf("tool serve printed:\n%s", out)
	}
	if bytes.Count([]byte(out), []byte(" call inv_")) != 1 {
		t.Errorf("tool serve should log its one call:\n%s", out)
	}
}
