package mcptool_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/secret"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/tool"
	"github.com/runsvc/runsvc/internal/tool/mcptool"
)

// stdioServerEnv makes the test binary an MCP server on stdio (TestMain).
const stdioServerEnv = "MCPTOOL_TEST_STDIO_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(stdioServerEnv) == "1" {
		serveStdio()
		return
	}
	os.Exit(m.Run())
}

// serveStdio is a real MCP server of the Go SDK on stdin/stdout: pid
// answers its process id, env a variable of its environment, die exits
// mid-call, slow answers when the call is cancelled.
func serveStdio() {
	srv := mcp.NewServer(&mcp.Implementation{Name: "stdio-test", Version: "v0"}, nil)
	type nameIn struct {
		Name string `json:"name"`
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "pid", Description: "The server's process id."}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strconv.Itoa(os.Getpid())}}}, nil, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "env", Description: "A variable of the server's environment."}, func(_ context.Context, _ *mcp.CallToolRequest, in nameIn) (*mcp.CallToolResult, any, error) {
		v, ok := os.LookupEnv(in.Name)
		if !ok {
			v = "<unset>"
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: v}}}, nil, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "die"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		os.Exit(3)
		return nil, nil, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "slow"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		<-ctx.Done()
		return nil, nil, ctx.Err()
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "refuse"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return nil, nil, errors.New("no such record")
	})
	_ = srv.Run(context.Background(), &mcp.StdioTransport{})
}

// stdioTool is a tool of the test binary's stdio server.
func stdioTool(t *testing.T, tenant, name, args string, env map[string]string) tool.Call {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	vars := []spec.EnvVar{{Name: stdioServerEnv, Value: "1"}}
	for k, v := range env {
		vars = append(vars, spec.EnvVar{Name: k, Value: v})
	}
	resolved := map[string]string{stdioServerEnv: "1"}
	for k, v := range env {
		resolved[k] = v
	}
	return tool.Call{
		Tenant: tenant, RunID: "run-1", CallID: "call-1", Name: name, Arguments: json.RawMessage(args),
		Tool: spec.Tool{Name: name, Kind: spec.KindMCP, MCP: &spec.MCPTool{Command: self, Args: []string{"-test.run=^$"}, Env: vars}},
		Env:  resolved,
	}
}

func execText(t *testing.T, x *mcptool.Executor, c tool.Call) string {
	t.Helper()
	out, err := x.Execute(testContext(t), c)
	if err != nil {
		t.Fatalf("Execute(%s): %v", c.Name, err)
	}
	var s string
	if err := json.Unmarshal(out, &s); err != nil {
		t.Fatalf("output %s is not a string: %v", out, err)
	}
	return s
}

// TestStdioProcesses: one process per tenant and server, shared by its
// calls; restarted after it dies; given the Spec's environment and only
// PATH, HOME, TMPDIR and LANG of runsvc's; stopped by Close.
func TestStdioProcesses(t *testing.T) {
	t.Setenv("RUNSVC_TEST_CANARY", "runsvc's own")
	x := mcptool.New(mcptool.Options{Commands: []string{"*"}})
	a1 := execText(t, x, stdioTool(t, "a", "pid", `{}`, nil))
	a2 := execText(t, x, stdioTool(t, "a", "pid", `{}`, nil))
	b := execText(t, x, stdioTool(t, "b", "pid", `{}`, nil))
	if a1 != a2 || a1 == b {
		t.Errorf("pids: tenant a %s then %s, tenant b %s; want one process per tenant", a1, a2, b)
	}
	if got := execText(t, x, stdioTool(t, "a", "env", `{"name":"TOKEN"}`, map[string]string{"TOKEN": "from-spec"})); got != "from-spec" {
		t.Errorf("TOKEN = %q, want the Spec's value", got)
	}
	if got := execText(t, x, stdioTool(t, "a", "env", `{"name":"RUNSVC_TEST_CANARY"}`, nil)); got != "<unset>" {
		t.Errorf("runsvc's own variable reached the server: %q", got)
	}
	if got := execText(t, x, stdioTool(t, "a", "env", `{"name":"PATH"}`, nil)); got != os.Getenv("PATH") {
		t.Errorf("PATH = %q, want runsvc's", got)
	}

	_, err := x.Execute(testContext(t), stdioTool(t, "a", "die", `{}`, nil))
	var failed *errs.MCPFailed
	if !errors.As(err, &failed) || !strings.Contains(failed.Message, "ended") {
		t.Fatalf("a call whose process died: %#v, want a retryable *errs.MCPFailed saying the process ended", err)
	}
	a3 := execText(t, x, stdioTool(t, "a", "pid", `{}`, nil))
	if a3 == a1 {
		t.Errorf("pid after the process died = %s, the dead one's", a3)
	}
	pids := []string{a3, b}
	x.Close()
	for _, p := range pids {
		pid, _ := strconv.Atoi(p)
		if alive(pid) {
			t.Errorf("process %d still runs after Close", pid)
		}
	}
}

// alive reports whether a process with pid exists and is not a zombie.
func alive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	fields := strings.Fields(string(stat))
	return len(fields) > 2 && fields[2] != "Z"
}

// TestStdioFailures: each failure of a stdio server classified once.
func TestStdioFailures(t *testing.T) {
	x := newExecutor(t)
	missing := stdioTool(t, "a", "pid", `{}`, nil)
	missing.Tool.MCP.Command = "/nonexistent/mcp-server"
	exits := stdioTool(t, "a", "pid", `{}`, nil)
	exits.Tool.MCP.Command, exits.Tool.MCP.Args = "sh", []string{"-c", "echo 'cannot open config' >&2; exit 2"}
	tests := []struct {
		name      string
		call      tool.Call
		kind      string
		retryable bool
		message   string
	}{
		{name: "tool error", call: stdioTool(t, "a", "refuse", `{}`, nil), kind: "ToolRejected", message: "no such record"},
		{name: "unknown tool (JSON-RPC -32602)", call: stdioTool(t, "a", "nope", `{}`, nil), kind: "MCPRejected", message: "unknown tool"},
		{name: "command not found", call: missing, kind: "MCPRejected", message: "cannot be run"},
		{name: "exits at start", call: exits, kind: "MCPFailed", retryable: true, message: "cannot open config"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := x.Execute(testContext(t), tt.call)
			typed := errs.Typed(err)
			if errs.Kind(typed) != tt.kind {
				t.Fatalf("error = %#v, want *errs.%s", err, tt.kind)
			}
			if _, r := errs.IsRetryable(err); r != tt.retryable {
				t.Errorf("retryable = %v, want %v", r, tt.retryable)
			}
			if !strings.Contains(errs.Metadata(typed)["detail"], tt.message) {
				t.Errorf("detail = %q, want it to mention %q", errs.Metadata(typed)["detail"], tt.message)
			}
		})
	}
}

// TestImportStdio lists a stdio server's tools with their descriptions
// and schemas, resolving its environment from credentials.
func TestImportStdio(t *testing.T) {
	x := newExecutor(t)
	c := stdioTool(t, "a", "pid", `{}`, nil)
	srv := spec.MCPServer{Name: "local", Command: c.Tool.MCP.Command, Args: c.Tool.MCP.Args, Env: append(c.Tool.MCP.Env, spec.EnvVar{Name: "TOKEN", Credential: "tok"})}
	t.Setenv(secret.DefaultEnvPrefix+"TOK", "v4lue")
	tools, err := mcptool.Importer{Executor: x, Secrets: secret.Env{}}.ImportTools(testContext(t), "a", "spec", srv)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]spec.Tool{}
	for _, tl := range tools {
		byName[tl.Name] = tl
	}
	env, ok := byName["env"]
	if len(tools) != 5 || !ok {
		t.Fatalf("imported %d tools (%v), want pid, env, die, slow, refuse", len(tools), byName)
	}
	if env.Description != "A variable of the server's environment." || !strings.Contains(string(env.Parameters), `"name":{"type":"string"}`) {
		t.Errorf("env tool = %q %s, want the server's description and schema", env.Description, env.Parameters)
	}
	if env.Kind != spec.KindMCP || env.MCP.Server != "local" || env.MCP.Command != srv.Command {
		t.Errorf("env tool settings = %+v, want the server's with server %q", env.MCP, "local")
	}

	missing := srv
	missing.Env = []spec.EnvVar{{Name: "TOKEN", Credential: "absent"}}
	_, err = mcptool.Importer{Executor: x, Secrets: secret.Env{}}.ImportTools(testContext(t), "a", "spec", missing)
	var nf *errs.CredentialNotFound
	if !errors.As(err, &nf) {
		t.Errorf("an env credential that does not resolve: %#v, want *errs.CredentialNotFound", err)
	}
}
