package cli_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/cli"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

const doneYAML = `name: done
model: {provider: scripted, script: {turns: [{text: "Done."}]}}
`

func TestErrors(t *testing.T) {
	srv := testserver.Start(t)
	c := newClient(t, srv)
	c.must("spec", "publish", writeFile(t, "done.yaml", doneYAML))
	done := strings.TrimSpace(c.must("run", "start", "done"))
	c.must("run", "wait", done)
	down := client{t: t, addr: closedAddr(t)}

	tests := []struct {
		name   string
		client client
		args   []string
		code   int
		first  string   // the whole first line of stderr
		stderr []string // further text stderr holds
	}{
		{
			name: "run not found", client: c, args: []string{"run", "get", "run_nope"}, code: 1,
			first: "runsvc: run run_nope not found [RUN_NOT_FOUND, not retryable]",
		},
		{
			name: "run not suspended", client: c, args: []string{"run", "resume", done, "--answer", "yes"}, code: 1,
			first: "runsvc: run " + done + " is not suspended, so there is nothing to resume. Its state is COMPLETED. [RUN_NOT_SUSPENDED, not retryable]",
		},
		{
			name: "spec not found", client: c, args: []string{"run", "start", "nope"}, code: 1,
			first: "runsvc: spec 'nope' not found [SPEC_NOT_FOUND, not retryable]",
		},
		{
			name: "bad request lists its fields", client: c, args: []string{"run", "wait", done, "--wait", "11m"}, code: 1,
			first:  "runsvc: invalid request: wait: must be at most 10m0s [INVALID_REQUEST, not retryable]",
			stderr: []string{"\n  wait: must be at most 10m0s\n"},
		},
		{
			name: "connection refused", client: down, args: []string{"run", "get", "run_x"}, code: 75,
			first:  "runsvc: cannot reach runsvc at " + down.addr + ": connection refused [UNAVAILABLE, retryable]",
			stderr: []string{"RUNSVC_ADDR"},
		},
		{
			name: "connection refused while publishing", client: down, args: []string{"spec", "publish", writeFile(t, "done.yaml", doneYAML)}, code: 75,
			first: "runsvc: cannot reach runsvc at " + down.addr + ": connection refused [UNAVAILABLE, retryable]",
		},
		{name: "no command", client: c, args: nil, code: 2, first: "runsvc: a command is required: spec, run, tool, delegate, memory, bus, thread, schedule, webhook"},
		{name: "no subcommand", client: c, args: []string{"run"}, code: 2, first: "runsvc: run needs a command: delete, export, fork, get, import, interrupt, list, report, resume, send, start, wait, watch"},
		{name: "global flags between the words", client: c, args: []string{"run", "--timeout", "5s", "get", "run_nope"}, code: 1, first: "runsvc: run run_nope not found [RUN_NOT_FOUND, not retryable]"},
		{name: "group help", client: c, args: []string{"spec", "-h"}, code: 0},
		{name: "unknown command", client: c, args: []string{"runs"}, code: 2, first: `runsvc: unknown command "runs"; did you mean 'run'?`},
		{name: "unknown subcommand", client: c, args: []string{"run", "stop"}, code: 2, first: `runsvc: unknown command "run stop"`},
		{name: "missing argument", client: c, args: []string{"run", "watch"}, code: 2, first: "runsvc: run watch needs RUN_ID", stderr: []string{`Run "runsvc run watch -h" for usage.`}},
		{name: "extra argument", client: c, args: []string{"run", "get", "a", "b"}, code: 2, first: `runsvc: unexpected argument "b"`},
		{name: "unknown flag", client: c, args: []string{"run", "get", "a", "--color"}, code: 2, first: "runsvc: unknown flag --color"},
		{name: "resume needs an answer", client: c, args: []string{"run", "resume", "a"}, code: 2, first: "runsvc: give exactly one of --results, --answer, --approve, --deny or --in-doubt"},
		{name: "resume with two answers", client: c, args: []string{"run", "resume", "a", "--approve", "--answer", "x"}, code: 2, first: "runsvc: give exactly one of --results, --answer, --approve, --deny or --in-doubt"},
		{name: "bad results", client: c, args: []string{"run", "resume", "a", "--results", `[{"call_id": "c", "result": 1}]`}, code: 2, first: `runsvc: --results [{"call_id": "c", "result": 1}]: [0]: unknown field "result": use call_id, output and error`},
		{name: "results without output", client: c, args: []string{"run", "resume", "a", "--results", `{"call_id": "c"}`}, code: 2, first: `runsvc: --results {"call_id": "c"}: c: output or error is required`},
		{name: "results file missing", client: c, args: []string{"run", "resume", "a", "--results", "/nonexistent/results.json"}, code: 2, first: "runsvc: open /nonexistent/results.json: no such file or directory"},
		{name: "bad state", client: c, args: []string{"run", "list", "--state", "sleeping"}, code: 2, first: `runsvc: --state "sleeping" is not a run state: use queued, running, suspended, completed, failed, aborted or abandoned`},
		{name: "help", client: c, args: []string{"run", "start", "-h"}, code: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.client.run(tt.args...)
			if r.code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, tt.code, r.stdout, r.stderr)
			}
			if first, _, _ := strings.Cut(r.stderr, "\n"); first != tt.first {
				t.Errorf("first stderr line\n got %q\nwant %q", first, tt.first)
			}
			contains(t, "stderr", r.stderr, tt.stderr...)
		})
	}
}

// TestRetryableServerError checks a status with RetryInfo: OVERLOADED,
// with a server that admits one stream while another is held open.
func TestRetryableServerError(t *testing.T) {
	srv := testserver.Start(t, func(c *server.Config) { c.MaxStreams = 1 })
	c := newClient(t, srv)
	c.publishHello()
	id := strings.TrimSpace(c.must("run", "start", "hello"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	held, err := srv.Runs.WatchRun(ctx, &runsvcv1.WatchRunRequest{RunId: id})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := held.Recv(); err != nil {
		t.Fatal(err)
	}
	r := c.run("run", "watch", id)
	if r.code != 75 {
		t.Fatalf("exit %d, want 75\n%s%s", r.code, r.stdout, r.stderr)
	}
	contains(t, "stderr", r.stderr, "[OVERLOADED, retryable after 250ms]\n")

	r = c.run("--json", "run", "watch", id)
	var e jsonError
	if err := json.Unmarshal([]byte(r.stderr), &e); err != nil {
		t.Fatalf("stderr is not one JSON error: %v\n%s", err, r.stderr)
	}
	if r.code != 75 || e.Error.Reason != "OVERLOADED" || !e.Error.Retryable || e.Error.RetryDelay == nil || *e.Error.RetryDelay != "0.25s" {
		t.Errorf("exit %d, error %+v", r.code, e.Error)
	}
}

// jsonError is the --json error object.
type jsonError = cli.JSONError

func TestJSONErrors(t *testing.T) {
	srv := testserver.Start(t)
	c := newClient(t, srv)
	down := client{t: t, addr: closedAddr(t)}
	bad := writeFile(t, "bad.yaml", "name: Bad Name\nmodel: {provider: nope}\n")
	tests := []struct {
		name      string
		client    client
		args      []string
		code      int
		grpcCode  string
		reason    string
		retryable bool
		metadata  map[string]string
		fields    []string
	}{
		{name: "not found", client: c, args: []string{"run", "get", "run_nope"}, code: 1, grpcCode: "NOT_FOUND", reason: "RUN_NOT_FOUND", metadata: map[string]string{"runId": "run_nope"}},
		{name: "invalid spec", client: c, args: []string{"spec", "publish", bad}, code: 1, grpcCode: "INVALID_ARGUMENT", reason: "SPEC_INVALID", fields: []string{"name", "model.provider"}},
		{name: "connection refused", client: down, args: []string{"spec", "list"}, code: 75, grpcCode: "UNAVAILABLE", retryable: true},
		{name: "usage", client: c, args: []string{"run", "get"}, code: 2, grpcCode: "INVALID_ARGUMENT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.client.run(append([]string{"--json"}, tt.args...)...)
			if r.code != tt.code {
				t.Fatalf("exit %d, want %d\n%s%s", r.code, tt.code, r.stdout, r.stderr)
			}
			if strings.Count(r.stderr, "\n") != 1 {
				t.Fatalf("stderr is not one line:\n%s", r.stderr)
			}
			var e jsonError
			if err := json.Unmarshal([]byte(r.stderr), &e); err != nil {
				t.Fatalf("stderr is not JSON: %v\n%s", err, r.stderr)
			}
			got := e.Error
			if got.Code != tt.grpcCode || got.Reason != tt.reason || got.Retryable != tt.retryable || got.Message == "" || got.Metadata == nil {
				t.Errorf("error = %+v", got)
			}
			if tt.reason != "" && got.Domain != "runsvc" {
				t.Errorf("domain = %q, want runsvc", got.Domain)
			}
			for k, v := range tt.metadata {
				if got.Metadata[k] != v {
					t.Errorf("metadata[%s] = %q, want %q", k, got.Metadata[k], v)
				}
			}
			if len(got.Violations) != len(tt.fields) {
				t.Fatalf("violations = %+v, want fields %v", got.Violations, tt.fields)
			}
			for i, f := range tt.fields {
				if got.Violations[i].Field != f {
					t.Errorf("violation %d is on %q, want %q", i, got.Violations[i].Field, f)
				}
			}
		})
	}
}
