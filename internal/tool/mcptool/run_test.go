package mcptool_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	errdetailspb "google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/model/scripted"
	"github.com/runsvc/runsvc/internal/secret"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// recording is the scripted model, keeping every request it is sent.
type recording struct {
	model.Model
	mu   sync.Mutex
	reqs []model.Request
}

func (r *recording) Complete(ctx context.Context, req model.Request) (model.Response, error) {
	r.mu.Lock()
	r.reqs = append(r.reqs, req)
	r.mu.Unlock()
	return r.Model.Complete(ctx, req)
}

func (r *recording) requests() []model.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]model.Request(nil), r.reqs...)
}

// startRecorded starts runsvc with the recording scripted model.
func startRecorded(t *testing.T) (*testserver.Server, *recording) {
	t.Helper()
	rec := &recording{Model: scripted.New(clock.Real{})}
	srv := testserver.Start(t, func(c *server.Config) {
		c.Models = model.Providers{spec.ProviderScripted: rec}
		c.MCPCommands = []string{"*"}
	})
	return srv, rec
}

const tokenValue = "ev-t0ken-4242"

// TestEverythingRun publishes a Spec importing the tools of the MCP
// project's reference server (npm @modelcontextprotocol/server-everything)
// over stdio and over streamable HTTP, runs it over gRPC, and checks that
// the Version lists the imported tools with the server's schemas, that
// the model was sent them, and that text, image and resource results are
// recorded.
func TestEverythingRun(t *testing.T) {
	node, script := everything(t)
	t.Setenv(secret.DefaultEnvPrefix+"EV_TOKEN", tokenValue)
	t.Setenv("RUNSVC_TEST_CANARY", "runsvc's own setting")
	tests := []struct {
		name   string
		server string // the mcpServers entry, without name and import
		stdio  bool
	}{
		{name: "stdio", stdio: true, server: fmt.Sprintf(`"command": %q, "args": [%q, "stdio"], "env": [{"name": "EV_TOKEN", "credential": "ev_token"}]`, node, script)},
		{name: "streamable HTTP", server: fmt.Sprintf(`"url": %q`, everythingHTTP(t))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, rec := startRecorded(t)
			calls := `{"name": "echo", "arguments": {"message": "hi"}}, {"name": "get-tiny-image", "arguments": {}},
			  {"name": "get-resource-reference", "arguments": {"resourceType": "Text", "resourceId": 1}}`
			if tt.stdio {
				calls += `, {"name": "get-env", "arguments": {}}`
			}
			published := srv.Publish(t, `{"name": "everything", "credentials": [{"name": "ev_token"}],
			  "model": {"provider": "scripted", "script": {"turns": [{"toolCalls": [`+calls+`]}, {"text": "done"}]}},
			  "mcpServers": [{"name": "ev", "import": ["*"], `+tt.server+`}]}`)
			imported := checkImported(t, published)
			again, err := srv.Specs.PublishSpec(testserver.Context(t), &runsvcv1.PublishSpecRequest{Spec: published})
			if err != nil || again.GetCreated() || again.GetSpec().GetVersion() != published.GetVersion() {
				t.Errorf("republishing the Version: %v, created %v, version %s; want the same Version, not created", err, again.GetCreated(), again.GetSpec().GetVersion())
			}

			run := srv.Settled(t, srv.Start(t, "everything", "go").GetRunId())
			if run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED {
				t.Fatalf("state %v failure %v", run.GetState(), run.GetFailure())
			}
			outputs := map[string]string{}
			for _, r := range srv.Records(t, run.GetRunId()) {
				if f := r.GetToolCallFinished(); f != nil {
					if f.GetError() != nil {
						t.Errorf("%s failed: %v", f.GetName(), f.GetError())
					}
					raw, _ := protojson.Marshal(f.GetOutput())
					outputs[f.GetName()] = string(raw)
				}
			}
			if outputs["echo"] != `"Echo: hi"` {
				t.Errorf("echo's result = %s, want \"Echo: hi\"", outputs["echo"])
			}
			checkImage(t, outputs["get-tiny-image"])
			if !strings.Contains(outputs["get-resource-reference"], `"type":"resource"`) || !strings.Contains(outputs["get-resource-reference"], `"uri":"demo://resource/dynamic/text/1"`) {
				t.Errorf("get-resource-reference's result = %s, want an embedded text resource", outputs["get-resource-reference"])
			}
			if tt.stdio {
				env := outputs["get-env"]
				if !strings.Contains(env, "EV_TOKEN") || strings.Contains(env, tokenValue) || strings.Contains(env, "RUNSVC_TEST_CANARY") {
					t.Errorf("get-env's recorded result = %s, want EV_TOKEN set, its value scrubbed and runsvc's own variables absent", env)
				}
			}
			checkSentToModel(t, rec.requests(), imported)
		})
	}
}

// checkImported checks the Version's imported tools and returns them by
// name.
func checkImported(t *testing.T, v *runsvcv1.Spec) map[string]*runsvcv1.Tool {
	t.Helper()
	byName := map[string]*runsvcv1.Tool{}
	for _, tl := range v.GetTools() {
		if tl.GetKind() != runsvcv1.ToolKind_TOOL_KIND_MCP || tl.GetMcp().GetServer() != "ev" {
			t.Errorf("tool %s is %v from server %q, want an mcp tool from ev", tl.GetName(), tl.GetKind(), tl.GetMcp().GetServer())
		}
		byName[tl.GetName()] = tl
	}
	for _, name := range []string{"echo", "get-tiny-image", "get-resource-reference", "get-env", "get-sum"} {
		if byName[name] == nil {
			t.Fatalf("the Version lists %d tools without %s", len(byName), name)
		}
	}
	echo := byName["echo"]
	props := echo.GetParameters().GetFields()["properties"].GetStructValue().GetFields()
	if echo.GetDescription() != "Echoes back the input string" || props["message"].GetStructValue().GetFields()["type"].GetStringValue() != "string" {
		t.Errorf("echo = %q %v, want the server's description and schema", echo.GetDescription(), echo.GetParameters())
	}
	return byName
}

// checkImage checks that the recorded result holds the server's PNG.
func checkImage(t *testing.T, out string) {
	t.Helper()
	var res struct {
		Content []struct {
			Type, MIMEType, Data string
			Bytes                int
		} `json:"content"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("get-tiny-image's result %s: %v", out, err)
	}
	for _, p := range res.Content {
		if p.Type != "image" {
			continue
		}
		png, err := base64.StdEncoding.DecodeString(p.Data)
		if err != nil || p.MIMEType != "image/png" || len(png) != p.Bytes || !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
			t.Errorf("image part %s %d bytes (%v), want a PNG of that size", p.MIMEType, p.Bytes, err)
		}
		return
	}
	t.Errorf("get-tiny-image's result %s has no image part", out)
}

// checkSentToModel checks that every model request offered the imported
// tools with the schemas and descriptions the Version lists.
func checkSentToModel(t *testing.T, reqs []model.Request, imported map[string]*runsvcv1.Tool) {
	t.Helper()
	if len(reqs) != 2 {
		t.Fatalf("the model was called %d times, want 2", len(reqs))
	}
	for i, req := range reqs {
		sent := map[string]model.Tool{}
		for _, tl := range req.Tools {
			sent[tl.Name] = tl
		}
		for name, want := range imported {
			got, ok := sent[name]
			wantParams, _ := protojson.Marshal(want.GetParameters())
			if !ok || got.Description != want.GetDescription() || !sameJSON(got.Parameters, wantParams) {
				t.Errorf("request %d offered %s as %+v, want %q with %s", i+1, name, got, want.GetDescription(), wantParams)
			}
		}
	}
}

func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return bytes.Equal(ja, jb)
}

// TestPublishImportFailures: a Spec whose server cannot be reached or
// listed fails to publish with a reason saying so, over gRPC.
func TestPublishImportFailures(t *testing.T) {
	srv, _ := startRecorded(t)
	port, err := pgtest.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	self := stdioTool(t, "default", "pid", `{}`, nil).Tool.MCP
	stdio := fmt.Sprintf(`"command": %q, "args": [%q], "env": [{"name": %q, "value": "1"}]`, self.Command, self.Args[0], stdioServerEnv)
	plain := notMCP(t, "text/plain; charset=utf-8", "hello from a plain web server\n")
	html := notMCP(t, "text/html; charset=utf-8", "<!doctype html><html><body><h1>It works!</h1></body></html>")
	jsonNotRPC := notMCP(t, "application/json", `{"status": "ok"}`)
	tests := []struct {
		name      string
		server    string
		code      codes.Code
		reason    string
		retryable bool
		message   string
	}{
		{name: "nothing listening", server: fmt.Sprintf(`"url": "http://127.0.0.1:%d/mcp", "import": ["*"]`, port), code: codes.Unavailable, reason: "MCP_FAILED", retryable: true, message: "listing the tools of MCP server \"local\""},
		{name: "an http server answering plain text", server: fmt.Sprintf(`"url": %q, "import": ["*"]`, plain), code: codes.FailedPrecondition, reason: "MCP_REJECTED", message: "listing the tools of MCP server \"local\""},
		{name: "an http server answering HTML", server: fmt.Sprintf(`"url": %q, "import": ["*"]`, html), code: codes.FailedPrecondition, reason: "MCP_REJECTED", message: "listing the tools of MCP server \"local\""},
		{name: "an http server answering JSON that is not JSON-RPC", server: fmt.Sprintf(`"url": %q, "import": ["*"]`, jsonNotRPC), code: codes.FailedPrecondition, reason: "MCP_REJECTED", message: "listing the tools of MCP server \"local\""},
		{name: "command not found", server: `"command": "/nonexistent/mcp-server", "import": ["*"]`, code: codes.FailedPrecondition, reason: "MCP_REJECTED", message: "cannot be run"},
		{name: "a name the server lacks", server: stdio + `, "import": ["pid", "nope"]`, code: codes.InvalidArgument, reason: "SPEC_INVALID", message: `mcp_servers[0].import[1]: MCP server "local" has no tool "nope"; it has die, env, pid, refuse, slow`},
		{name: "an env credential not declared", server: `"command": "true", "env": [{"name": "K", "credential": "undeclared"}], "import": ["*"]`, code: codes.InvalidArgument, reason: "SPEC_INVALID", message: `mcp_servers[0].env[0].credential: credential "undeclared" is referenced but not declared`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sp := &runsvcv1.Spec{}
			body := `{"name": "importer", "model": {"provider": "scripted", "script": {"turns": [{"text": "hi"}]}},
			  "mcpServers": [{"name": "local", ` + tt.server + `}]}`
			if err := protojson.Unmarshal([]byte(body), sp); err != nil {
				t.Fatal(err)
			}
			_, err := srv.Specs.PublishSpec(testserver.Context(t), &runsvcv1.PublishSpecRequest{Spec: sp})
			c := errdetails.Classify(err)
			if c.Code != tt.code || c.Reason != tt.reason || c.Retryable != tt.retryable || !strings.Contains(c.Message+violations(err), tt.message) {
				t.Errorf("PublishSpec: %+v, want %v %s retryable=%v mentioning %q", c, tt.code, tt.reason, tt.retryable, tt.message)
			}
		})
	}
}

// notMCP is the URL of a web server on loopback that answers every
// request with body, of content type ctype, status 200: it answered, and
// it does not speak MCP.
func notMCP(t *testing.T, ctype, body string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", ctype)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

// violations lists a status's BadRequest violations as "field: description".
func violations(err error) string {
	var out []string
	for _, d := range status.Convert(err).Details() {
		if br, ok := d.(*errdetailspb.BadRequest); ok {
			for _, v := range br.GetFieldViolations() {
				out = append(out, v.GetField()+": "+v.GetDescription())
			}
		}
	}
	return strings.Join(out, "; ")
}

// TestToolTimeoutIsMCPFailed: a stdio MCP tool that does not answer within
// its timeout fails the Run (no retries left) with MCP_FAILED, retryable.
func TestToolTimeoutIsMCPFailed(t *testing.T) {
	srv, _ := startRecorded(t)
	self := stdioTool(t, "default", "slow", `{}`, nil).Tool.MCP
	srv.Publish(t, fmt.Sprintf(`{"name": "slowpoke", "limits": {"transientRetryBudget": -1},
	  "model": {"provider": "scripted", "script": {"turns": [{"toolCalls": [{"name": "slow", "arguments": {}}]}, {"text": "done"}]}},
	  "tools": [{"name": "slow", "kind": "TOOL_KIND_MCP", "timeout": "0.3s", "raiseOnError": false,
	    "mcp": {"command": %q, "args": [%q], "env": [{"name": %q, "value": "1"}]}}]}`, self.Command, self.Args[0], stdioServerEnv))
	run := srv.Settled(t, srv.Start(t, "slowpoke", "go").GetRunId())
	c := errdetails.ClassifyStatus(run.GetFailure())
	if run.GetState() != runsvcv1.RunState_RUN_STATE_FAILED || c.Reason != "MCP_FAILED" || c.Code != codes.Unavailable || !c.Retryable || !strings.Contains(c.Message, "no answer within 300ms") {
		t.Fatalf("state %v failure %+v, want FAILED with a retryable MCP_FAILED", run.GetState(), c)
	}
}

// TestStdioCommandsAllowList: only the commands the operator lists run as
// stdio MCP servers; a Spec naming another fails to publish ACCESS_DENIED,
// whether it imports from the server or declares a tool on it.
func TestStdioCommandsAllowList(t *testing.T) {
	self := stdioTool(t, "default", "pid", `{}`, nil).Tool.MCP
	srv := testserver.Start(t, func(c *server.Config) { c.MCPCommands = []string{self.Command} })
	env := fmt.Sprintf(`"args": [%q], "env": [{"name": %q, "value": "1"}]`, self.Args[0], stdioServerEnv)
	tests := []struct {
		name    string
		servers string
		tools   string
		reason  string
	}{
		{name: "an allowed command", servers: fmt.Sprintf(`[{"name": "local", "command": %q, %s, "import": ["pid"], "timeout": "2s"}]`, self.Command, env)},
		{name: "an import from another", servers: `[{"name": "local", "command": "sh", "import": ["*"]}]`, reason: "ACCESS_DENIED"},
		{name: "a tool on another", tools: `[{"name": "pid", "kind": "TOOL_KIND_MCP", "mcp": {"command": "sh"}}]`, reason: "ACCESS_DENIED"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := `{"name": "allowed", "model": {"provider": "scripted", "script": {"turns": [{"text": "hi"}]}}`
			if tt.servers != "" {
				body += `, "mcpServers": ` + tt.servers
			}
			if tt.tools != "" {
				body += `, "tools": ` + tt.tools
			}
			sp := &runsvcv1.Spec{}
			if err := protojson.Unmarshal([]byte(body+"}"), sp); err != nil {
				t.Fatal(err)
			}
			resp, err := srv.Specs.PublishSpec(testserver.Context(t), &runsvcv1.PublishSpecRequest{Spec: sp})
			c := errdetails.Classify(err)
			switch {
			case tt.reason == "" && (err != nil || len(resp.GetSpec().GetTools()) != 1 || resp.GetSpec().GetTools()[0].GetTimeout().AsDuration() != 2*time.Second):
				t.Fatalf("PublishSpec: %v, tools %v; want the pid tool imported with the server's 2s timeout", err, resp.GetSpec().GetTools())
			case tt.reason != "" && (c.Code != codes.PermissionDenied || c.Reason != tt.reason || !strings.Contains(c.Message, `command "sh"`)):
				t.Fatalf("PublishSpec: %+v, want PERMISSION_DENIED %s naming the command", c, tt.reason)
			}
		})
	}
}
