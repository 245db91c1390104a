package mcptool_test

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// The third-party MCP server the tests run: the MCP project's reference
// server "everything" from npm, installed by `npm ci` in
// testdata/everything (see .ci/run).
const everythingDir = "testdata/everything"

// everything returns node and the server's script, or skips the test (or
// fails it under RUNSVC_REQUIRE_ALL=1) when either is missing.
func everything(t *testing.T) (node, script string) {
	t.Helper()
	node, err := exec.LookPath("node")
	script, _ = filepath.Abs(filepath.Join(everythingDir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js"))
	if err == nil {
		_, err = os.Stat(script)
	}
	if err != nil {
		why := fmt.Sprintf("skipped: npx/node or server-everything not installed (run npm ci in internal/tool/mcptool/%s): %v", everythingDir, err)
		if os.Getenv(pgtest.RequireAllEnv) == "1" {
			t.Fatal(why + "; RUNSVC_REQUIRE_ALL=1 requires every test to run")
		}
		t.Skip(why)
	}
	return node, script
}

// everythingHTTP runs the server in its streamableHttp mode on a free
// port of 127.0.0.1 until the test ends and returns its endpoint.
func everythingHTTP(t *testing.T) string {
	t.Helper()
	node, script := everything(t)
	port, err := pgtest.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	loopback, _ := filepath.Abs(filepath.Join(everythingDir, "loopback.cjs"))
	cmd := exec.Command(node, "-r", loopback, script, "streamableHttp")
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	out := &testserver.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	for deadline := time.Now().Add(20 * time.Second); ; {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			_ = c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("server-everything did not listen on %s: %v\n%s", addr, err, out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	return "http://" + addr + "/mcp"
}
