// Package agenttest runs the sample A2A agent of the a2a tool kind's
// tests: testdata/agent/agent.mjs, an @a2a-js/sdk 1.3.0 (A2A 1.0) server
// installed by `npm ci` in internal/tool/a2atool/testdata/agent (see
// .ci/run), on a free port of 127.0.0.1. It answers by the message's text
// (see agent.mjs) and counts the messages and cancels it receives.
package agenttest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Agent is a running sample agent.
type Agent struct {
	// Base is its root URL, http://127.0.0.1:port.
	Base string
	cmd  *exec.Cmd
}

// Stop kills the agent: it is down from then on.
func (a *Agent) Stop() {
	_ = a.cmd.Process.Kill()
	_ = a.cmd.Wait()
}

// CardURL is the URL of its agent card.
func (a *Agent) CardURL() string { return a.Base + "/.well-known/agent-card.json" }

// JSONRPC is its JSON-RPC endpoint.
func (a *Agent) JSONRPC() string { return a.Base + "/a2a/jsonrpc" }

// REST is its HTTP+JSON base URL.
func (a *Agent) REST() string { return a.Base + "/a2a/rest" }

// Messages returns the ids of the messages it received, in order.
func (a *Agent) Messages(t testing.TB) []string {
	t.Helper()
	return a.stats(t).MessageIDs
}

// Cancels returns the ids of the tasks it was asked to cancel
// (CancelTask), in order.
func (a *Agent) Cancels(t testing.TB) []string {
	t.Helper()
	return a.stats(t).Cancels
}

type stats struct {
	MessageIDs []string `json:"messageIds"`
	Cancels    []string `json:"cancels"`
}

func (a *Agent) stats(t testing.TB) stats {
	t.Helper()
	resp, err := http.Get(a.Base + "/stats")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var s stats
	if err := json.NewDecoder(resp.Body).Decode(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

// dir is testdata/agent beside this package.
func dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "testdata", "agent")
}

// Start runs the agent until the test ends, or skips the test (fails it
// under RUNSVC_REQUIRE_ALL=1) when node or the agent's npm packages are
// not installed.
func Start(t testing.TB) *Agent {
	t.Helper()
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(dir(), "node_modules", "@a2a-js", "sdk", "package.json"))
	}
	if err != nil {
		why := fmt.Sprintf("skipped: node or @a2a-js/sdk not installed (run npm ci in internal/tool/a2atool/testdata/agent): %v", err)
		if os.Getenv("RUNSVC_REQUIRE_ALL") == "1" {
			t.Fatal(why + "; RUNSVC_REQUIRE_ALL=1 requires every test to run")
		}
		t.Skip(why)
	}
	cmd := exec.Command(node, "agent.mjs")
	cmd.Dir = dir()
	cmd.Env = append(os.Environ(), "PORT=0")
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	a := &Agent{cmd: cmd}
	t.Cleanup(a.Stop)
	port := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if p, ok := strings.CutPrefix(sc.Text(), "listening "); ok {
				port <- p
				break
			}
		}
		_, _ = io.Copy(io.Discard, out)
	}()
	select {
	case p := <-port:
		a.Base = "http://127.0.0.1:" + p
		return a
	case <-time.After(30 * time.Second):
		t.Fatal("the sample A2A agent did not start within 30s")
	}
	return nil
}
