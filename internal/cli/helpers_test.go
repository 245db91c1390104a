package cli_test

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/cli"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// helloYAML is a scripted Spec whose Runs suspend on the client tool
// `lookup` (call call_1_1), then answer "It is sunny.".
const helloYAML = `name: hello
model: {provider: scripted, script: {turns: [{text: "Let me look.", toolCalls: [{name: lookup, arguments: {q: weather}}]}, {text: "It is sunny."}]}}
tools: [{name: lookup, kind: client, description: Look things up}]
`

// result is what one CLI invocation did.
type result struct {
	code           int
	stdout, stderr string
}

// client runs CLI commands against one address.
type client struct {
	t    *testing.T
	addr string
}

func newClient(t *testing.T, srv *testserver.Server) client {
	return client{t: t, addr: srv.Addr}
}

// run runs the CLI with --addr and args, stdin empty.
func (c client) run(args ...string) result {
	c.t.Helper()
	return c.runStdin("", args...)
}

// runStdin runs the CLI with --addr, args and stdin.
func (c client) runStdin(stdin string, args ...string) result {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var stdout, stderr bytes.Buffer
	code := cli.Main(ctx, append([]string{"--addr", c.addr}, args...), strings.NewReader(stdin), &stdout, &stderr)
	return result{code: code, stdout: stdout.String(), stderr: stderr.String()}
}

// must runs a command that has to succeed and returns its stdout.
func (c client) must(args ...string) string {
	c.t.Helper()
	r := c.run(args...)
	if r.code != 0 {
		c.t.Fatalf("runsvc %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
	}
	return r.stdout
}

// publishHello publishes helloYAML.
func (c client) publishHello() {
	c.t.Helper()
	c.must("spec", "publish", writeFile(c.t, "hello.yaml", helloYAML))
}

// startSuspended starts a Run of hello and waits until it suspends.
func (c client) startSuspended() string {
	c.t.Helper()
	id := strings.TrimSpace(c.must("run", "start", "hello", "--input", "weather?"))
	c.must("run", "watch", id, "--until-suspended")
	return id
}

// writeFile writes a file in a temporary directory and returns its path.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// closedAddr returns a 127.0.0.1 address nothing listens on.
func closedAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return addr
}

// contains fails the test unless s holds every one of want.
func contains(t *testing.T, what, s string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(s, w) {
			t.Errorf("%s does not contain %q; it is:\n%s", what, w, s)
		}
	}
}

// plainText fails the test if s holds control characters other than
// newlines: output without a terminal must not.
func plainText(t *testing.T, s string) {
	t.Helper()
	for i, r := range s {
		if r < 0x20 && r != '\n' || r == 0x7f {
			t.Fatalf("control character %q at %d in:\n%s", r, i, s)
		}
	}
}
