package mcptool

import (
	"maps"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runsvc/runsvc/internal/tool"
)

// inherited are the variables of runsvc's own environment a stdio server
// gets; everything else it gets from the Spec, so none of runsvc's own
// settings and secrets reach a server.
var inherited = []string{"PATH", "HOME", "TMPDIR", "LANG"}

// stopGrace is how long a stdio server may take to exit after its stdin
// closes before it is sent SIGTERM (and, as long again later, SIGKILL).
const stopGrace = 2 * time.Second

// stderrTail bounds what is kept of a stdio server's stderr, for the
// message of a server that exits.
const stderrTail = 1 << 10

// keyOf names the session a call uses: one per HTTP server and
// credential, one per tenant and stdio server (command, arguments and
// resolved environment).
func keyOf(c tool.Call) key {
	m := c.Tool.MCP
	if !m.Stdio() {
		return key{url: m.URL, credential: c.Credential}
	}
	env := make([]string, 0, len(c.Env))
	for _, name := range slices.Sorted(maps.Keys(c.Env)) {
		env = append(env, name+"="+c.Env[name])
	}
	return key{tenant: c.Tenant, command: m.Command, args: strings.Join(m.Args, "\x00"), env: strings.Join(env, "\x00")}
}

// cmd builds a stdio server's process for k.
func (k key) cmd(stderr *tail) *exec.Cmd {
	var args []string
	if k.args != "" {
		args = strings.Split(k.args, "\x00")
	}
	cmd := exec.Command(k.command, args...)
	for _, name := range inherited {
		if v, ok := os.LookupEnv(name); ok {
			cmd.Env = append(cmd.Env, name+"="+v)
		}
	}
	if k.env != "" {
		cmd.Env = append(cmd.Env, strings.Split(k.env, "\x00")...)
	}
	cmd.Stderr = stderr
	return cmd
}

// transport is the MCP transport of k's server.
func (x *Executor) transport(k key, stderr *tail) mcp.Transport {
	if k.command != "" {
		return &mcp.CommandTransport{Command: k.cmd(stderr), TerminateDuration: stopGrace}
	}
	hc := *x.http
	hc.Transport = newRoundTripper(x.http.Transport, k)
	return &mcp.StreamableClientTransport{Endpoint: k.url, HTTPClient: &hc, DisableStandaloneSSE: true}
}

// watch forgets a stdio server's session as soon as its process ends, so
// the next call starts the server again.
func (x *Executor) watch(k key, cs *mcp.ClientSession) {
	if k.command == "" {
		return
	}
	go func() {
		_ = cs.Wait()
		x.drop(k, cs)
	}()
}

// tail keeps the last stderrTail bytes written to it.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - stderrTail; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

// String is the kept text, trimmed.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(strings.ToValidUTF8(string(t.buf), "?"))
}
