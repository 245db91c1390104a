package cli_test

import (
	"strings"
	"testing"

	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// specPublishTest is one `spec publish` of a file, or of stdin, and what
// it must print and exit with.
type specPublishTest struct {
	name      string
	file      string // file name, for its extension
	content   string
	stdin     bool
	code      int
	stdout    []string
	stderr    []string
	lines     int // stderr lines, when not 0
	firstLine string
}

// specPublishTests are TestSpecPublish's cases, in order: "republish is
// unchanged" relies on the first case having published hello.
var specPublishTests = []specPublishTest{
	{
		name: "yaml with kind client", file: "hello.yaml", content: helloYAML,
		stdout: []string{"published spec hello, version ", "(created)"},
	},
	{
		name: "json with kind client and snake_case", file: "weather.json",
		content: `{"name": "weather-json", "model": {"provider": "scripted", "script": {"turns": [
			{"text": "Let me look.", "tool_calls": [{"name": "lookup", "arguments": {"q": "weather"}}]},
			{"text": "It is sunny."}]}},
			"tools": [{"name": "lookup", "kind": "client", "description": "Look things up"}],
			"limits": {"deadline": "5m", "max_tool_rounds": 3}}`,
		stdout: []string{"published spec weather-json, version ", "(created)"},
	},
	{
		name: "json request with enum kinds", file: "request.json",
		content: `{"spec": {"name": "enum-kinds", "model": {"provider": "scripted", "script": {"turns": [{"text": "hi"}]}},
			"tools": [{"name": "lookup", "kind": "TOOL_KIND_CLIENT"}, {"name": "ask_user", "kind": "Builtin"}]}}`,
		stdout: []string{"published spec enum-kinds", "(created)"},
	},
	{
		name: "yaml from stdin", file: "-", stdin: true, content: strings.Replace(helloYAML, "name: hello", "name: from-stdin", 1),
		stdout: []string{"published spec from-stdin", "(created)"},
	},
	{
		name: "republish is unchanged", file: "hello.yml", content: helloYAML,
		stdout: []string{"published spec hello, version ", "(unchanged: an identical version already existed)"},
	},
	{
		name: "invalid spec", file: "bad.yaml", code: 1,
		content: `name: Bad Name
model: {provider: nope}
tools: [{name: x}, {name: x, kind: http}]
limits: {deadline: 100h}
`,
		firstLine: "runsvc: spec 'Bad Name' is invalid: name: \"Bad Name\" must start with a lower-case letter and hold only a-z, 0-9, '-' and '_' (at most 63) (and 5 more) [SPEC_INVALID, not retryable]",
		stderr: []string{
			"\n  name: \"Bad Name\" must start with a lower-case letter",
			"\n  model.provider: unknown provider \"nope\"",
			"\n  tools[0].kind: is required",
			"\n  tools[1].name: duplicates tools[0].name",
			"\n  tools[1].http.url: is required",
			"\n  limits.deadline: 100h0m0s is out of range",
		},
		lines: 7,
	},
	{
		name: "unknown tool kind", file: "kind.yaml", code: 2,
		content: "name: k\nmodel: {provider: scripted}\ntools: [{name: t, kind: robot}]\n",
		stderr:  []string{`kind.yaml: tools[0].kind: unknown value "robot": use client, worker, http, mcp, builtin or a2a`},
	},
	{
		name: "yaml with delivery at_most_once", file: "pay.yaml",
		content: "name: pay\nmodel: {provider: scripted, script: {turns: [{text: hi}]}}\n" +
			"tools: [{name: charge, kind: http, http: {url: 'http://127.0.0.1:9/charge'}, delivery: at_most_once, in_doubt: ask}]\n",
		stdout: []string{"published spec pay, version ", "(created)"},
	},
	{
		name: "at_most_once on a client tool", file: "pay-client.yaml", code: 1,
		content: "name: pay-client\nmodel: {provider: scripted}\ntools: [{name: charge, kind: client, delivery: at_most_once}]\n",
		stderr:  []string{"tools[0].delivery: at_most_once is for worker, http and mcp tools"},
	},
	{
		name: "unknown field", file: "field.json", code: 2,
		content: `{"name": "f", "modle": {}}`,
		stderr:  []string{"field.json: modle: unknown field; did you mean model?"},
	},
	{
		name: "unknown nested fields", file: "fields.yaml", code: 2,
		content: "name: f\nmodel: {provider: scripted}\ntools: [{name: t, kind: client, descripton: x}]\n",
		stderr:  []string{"fields.yaml: tools[0].descripton: unknown field; did you mean description?"},
	},
	{
		name: "unknown snake_case field", file: "limits.yaml", code: 2,
		content: "name: f\nmodel: {provider: scripted}\nlimits: {max_turn: 3}\n",
		stderr:  []string{"limits.yaml: limits.max_turn: unknown field; did you mean max_turns?"},
	},
	{
		name: "unknown field nothing near", file: "far.yaml", code: 2,
		content: "name: f\nmodel: {provider: scripted}\nzzzzzzzzzz: 1\n",
		stderr:  []string{"far.yaml: zzzzzzzzzz: unknown field\n"},
	},
	{
		name: "not yaml", file: "broken.yaml", code: 2,
		content: "name: [unclosed\n",
		stderr:  []string{"broken.yaml is not valid YAML"},
	},
}

func TestSpecPublish(t *testing.T) {
	srv := testserver.Start(t)
	c := newClient(t, srv)
	for _, tt := range specPublishTests {
		t.Run(tt.name, func(t *testing.T) {
			arg, stdin := tt.file, ""
			if tt.stdin {
				stdin = tt.content
			} else {
				arg = writeFile(t, tt.file, tt.content)
			}
			r := c.runStdin(stdin, "spec", "publish", arg)
			if r.code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, tt.code, r.stdout, r.stderr)
			}
			contains(t, "stdout", r.stdout, tt.stdout...)
			contains(t, "stderr", r.stderr, tt.stderr...)
			lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
			if tt.firstLine != "" && lines[0] != tt.firstLine {
				t.Errorf("first stderr line\n got %q\nwant %q", lines[0], tt.firstLine)
			}
			if tt.lines != 0 && len(lines) != tt.lines {
				t.Errorf("stderr has %d lines, want %d:\n%s", len(lines), tt.lines, r.stderr)
			}
		})
	}
}

func TestSpecGetAndList(t *testing.T) {
	srv := testserver.Start(t)
	c := newClient(t, srv)
	c.publishHello()
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string
		stderr []string
	}{
		{name: "get", args: []string{"spec", "get", "hello"}, stdout: []string{"name: hello\n", "kind: TOOL_KIND_CLIENT\n", "q: weather\n", "version: "}},
		{name: "get unknown version", args: []string{"spec", "get", "hello", "--version", "0000"}, code: 1, stderr: []string{"[SPEC_NOT_FOUND, not retryable]"}},
		{name: "get unknown spec", args: []string{"spec", "get", "nope"}, code: 1, stderr: []string{"runsvc: spec 'nope' not found [SPEC_NOT_FOUND, not retryable]\n"}},
		{name: "list", args: []string{"spec", "list"}, stdout: []string{"NAME", "VERSION", "hello", "scripted", "lookup"}},
		{name: "list versions of one", args: []string{"spec", "list", "hello"}, stdout: []string{"hello"}},
		{name: "get needs a name", args: []string{"spec", "get"}, code: 2, stderr: []string{"runsvc: spec get needs NAME\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := c.run(tt.args...)
			if r.code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, tt.code, r.stdout, r.stderr)
			}
			contains(t, "stdout", r.stdout, tt.stdout...)
			contains(t, "stderr", r.stderr, tt.stderr...)
		})
	}
	t.Run("get prints YAML that publishes unchanged", func(t *testing.T) {
		file := writeFile(t, "hello.yaml", c.must("spec", "get", "hello"))
		contains(t, "stdout", c.must("spec", "publish", file), "(unchanged")
	})
}
