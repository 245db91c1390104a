package engine_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/engine"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/model/scripted"
	"github.com/runsvc/runsvc/internal/policy"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/secret"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/spec/versions"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/sqlite"
	"github.com/runsvc/runsvc/internal/store/sqlite/sqlitetest"
	"github.com/runsvc/runsvc/internal/tool"
	"github.com/runsvc/runsvc/internal/tool/httptool"
	"github.com/runsvc/runsvc/internal/tool/mcptool"
	"github.com/runsvc/runsvc/internal/toolworkers"
)

// The real executors of the kind × outcome table: each does what its
// call's arguments say ({"do": "ok" | "retry" | "refuse" | "hang"}).

// doOf reads "do" from a call's arguments (or a bus message's content).
func doOf(raw []byte) string {
	var a struct{ Do string }
	_ = json.Unmarshal(raw, &a)
	return a.Do
}

// serveHTTPTool is an http tool on 127.0.0.1.
func serveHTTPTool(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		switch doOf(body) {
		case "retry":
			_, _ = io.WriteString(w, `{"error": "the ledger is busy", "retryable": true}`)
		case "refuse":
			_, _ = io.WriteString(w, `{"error": "no such account"}`)
		case "hang":
			<-r.Context().Done()
		case "echo":
			_, _ = io.WriteString(w, `{"echo": "`+knownSecret+`"}`)
		default:
			_, _ = io.WriteString(w, `{"charged": true}`)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// serveMCPTool is an MCP server of the SDK on 127.0.0.1 serving "charge".
// A call asking for a retry is answered 503 at the HTTP level, which is
// how an MCP server says another try may work.
func serveMCPTool(t *testing.T) string {
	t.Helper()
	// The SDK does not cancel a stateless call's handler when the client
	// gives up: a hanging call is released when the test ends.
	release := make(chan struct{})
	srv := mcp.NewServer(&mcp.Implementation{Name: "pipeline", Version: "v0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "charge"}, func(ctx context.Context, _ *mcp.CallToolRequest, in map[string]any) (*mcp.CallToolResult, any, error) {
		switch in["do"] {
		case "refuse":
			return nil, nil, errors.New("no such account")
		case "hang":
			select {
			case <-ctx.Done():
			case <-release:
			}
			return nil, nil, errors.New("released")
		case "echo":
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: knownSecret}}}, nil, nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "charged"}}}, nil, nil
	})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true})
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if bytes.Contains(body, []byte(`"do":"retry"`)) {
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	t.Cleanup(func() { close(release) })
	return hs.URL + "/mcp"
}

// serveWorker connects a worker serving "charge" to hub.
func serveWorker(t *testing.T, hub *toolworkers.Hub) {
	t.Helper()
	w := hub.Connect(store.DefaultTenant, "pipeline", []toolworkers.Definition{{Name: "charge"}}, 0)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case out := <-w.Outbox():
				if out.Call != nil {
					answerWorkerCall(hub, w, out.Call)
				}
			case <-stop:
				return
			}
		}
	}()
	t.Cleanup(func() { close(stop); <-done; hub.Disconnect(w) })
}

func answerWorkerCall(hub *toolworkers.Hub, w *toolworkers.Worker, c *toolworkers.Call) {
	switch doOf(c.Arguments) {
	case "retry":
		hub.Deliver(w, c.ID, nil, &toolworkers.Failure{Message: "the ledger is busy", Retryable: true})
	case "refuse":
		hub.Deliver(w, c.ID, nil, &toolworkers.Failure{Message: "no such account"})
	case "echo":
		hub.Deliver(w, c.ID, json.RawMessage(`{"echo": "`+knownSecret+`"}`), nil)
	case "hang":
		// No answer: the call's deadline ends it.
	default:
		hub.Deliver(w, c.ID, json.RawMessage(`{"charged": true}`), nil)
	}
}

// doBus is the bus the bus_send built-in sends to; it answers by the
// message's content, as the other kinds' tools do by their arguments.
type doBus struct{}

func (doBus) Send(ctx context.Context, _, _, channel string, content json.RawMessage, _ string) (store.BusMessage, error) {
	switch doOf(content) {
	case "retry":
		return store.BusMessage{}, &errs.ToolFailed{Tool: spec.BuiltinBusSend, Message: "the channel is busy"}
	case "refuse":
		return store.BusMessage{}, &errs.ToolRejected{Tool: spec.BuiltinBusSend, Message: "no such channel"}
	case "hang":
		<-ctx.Done()
		return store.BusMessage{}, ctx.Err()
	case "echo":
		return store.BusMessage{MessageID: knownSecret, Channel: channel}, nil
	}
	return store.BusMessage{MessageID: "msg-1", Channel: channel}, nil
}

// knownSecret is the value of the credential "api", which the tools
// echo when asked to.
const knownSecret = "value-of-api"

// knownSecrets resolves the credential "api" only.
type knownSecrets struct{}

func (knownSecrets) Resolve(_ context.Context, scope, name string) (string, error) {
	if name == "api" {
		return knownSecret, nil
	}
	return "", &errs.CredentialNotFound{Scope: scope, Name: name}
}

// kindsRig is an Engine on SQLite whose http, mcp and worker tools are
// real executors, with the bus_send built-in on doBus, and the addresses
// of the tools it calls.
type kindsRig struct {
	eng             *engine.Engine
	mgr             *runs.Manager
	db              *sqlite.DB
	reg             *versions.Registry
	httpURL, mcpURL string
}

func startKindsRig(t *testing.T) kindsRig {
	t.Helper()
	errs.SetFailureEncoder(errdetails.StoredFailure)
	db := sqlitetest.Open(t)
	log, clk := slog.New(slog.NewTextHandler(io.Discard, nil)), clock.Real{}
	hub := toolworkers.New()
	serveWorker(t, hub)
	mcpx := mcptool.New(mcptool.Options{ClientName: "pipeline"})
	t.Cleanup(mcpx.Close)
	reg := versions.New(db, clk, versions.Options{})
	// The scrub knows the secret, as it does once a Run resolved its
	// Spec's credentials.
	scrub := secret.NewScrubber()
	scrub.Add(knownSecret)
	cfg := engine.Config{WorkerID: "kinds", PollInterval: 20 * time.Millisecond}
	slots := engine.NewSlots(cfg)
	mgr := runs.New(runs.Deps{Store: db, Specs: reg, Policy: policy.AllowAll{}, Clock: clk, Log: log, Scrubber: scrub, Local: slots})
	writer := mgr.Writer()
	kinds := map[spec.Kind]tool.Executor{spec.KindHTTP: httptool.New(&http.Client{}), spec.KindMCP: mcpx, spec.KindWorker: hub}
	eng := engine.New(engine.Deps{
		Store: db, Writer: writer, Runs: mgr, Specs: reg, Models: model.Providers{spec.ProviderScripted: scripted.New(clk)},
		Tools: kinds, Bus: doBus{}, Secrets: scrub.Watch(knownSecrets{}), Scrub: scrub, Policy: byArgsPolicy{}, Clock: clk, Log: log, Slots: slots,
	}, cfg)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); eng.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	return kindsRig{eng: eng, mgr: mgr, db: db, reg: reg, httpURL: serveHTTPTool(t), mcpURL: serveMCPTool(t)}
}

// pathOutcome is how one call ended on one path, as a client classifies
// it: the reason (errdetails) and retry bit, "" for a result.
type pathOutcome struct {
	reason    string
	retryable bool
	// rpcError (InvokeTool only): the RPC failed with the reason, rather
	// than answering the tool's failure as the call's result.
	rpcError bool
	// suspended and failed (a Run only): the Run suspended for this
	// reason instead of making the call, or the call's failure settled the
	// Run FAILED instead of being the result the model sees.
	suspended runlog.Reason
	failed    bool
	// leaked: the result holds the secret.
	leaked bool
}

// pipelineCase is one outcome of the kind × outcome table: what the
// call's arguments ask for, and what InvokeTool and a Run answer.
type pipelineCase struct {
	name       string
	args       string // {"do": ...} unless set
	do         string
	atMostOnce bool
	credential string
	// kinds the outcome applies to; every kind when empty.
	kinds       []string
	invoke, run pathOutcome
	// byKind overrides invoke and run for the kinds whose executor names
	// the failure differently.
	byKind map[string][2]pathOutcome
}

// pipelineCases is the table. Where the two paths differ, they differ by
// design, and each such difference says why.
var pipelineCases = []pipelineCase{
	{name: "success", do: "ok"},
	{
		name: "tool error retryable", do: "retry",
		// The tool ran and failed: the model sees it, marked retryable.
		invoke: pathOutcome{reason: "TOOL_FAILED", retryable: true}, run: pathOutcome{reason: "TOOL_FAILED", retryable: true},
		// An MCP server answering 503 was not reached: a Run retries
		// within its retry budget (none here) and then fails, retryably.
		byKind: map[string][2]pathOutcome{"mcp": {{reason: "MCP_FAILED", retryable: true}, {reason: "MCP_FAILED", retryable: true, failed: true}}},
	},
	{
		name: "tool error not retryable", do: "refuse",
		invoke: pathOutcome{reason: "TOOL_REJECTED"}, run: pathOutcome{reason: "TOOL_REJECTED"},
	},
	{
		name: "timeout", do: "hang",
		// No answer in time is a failure to reach the tool: a Run retries
		// it within its budget (none here), then fails.
		invoke: pathOutcome{reason: "TRANSIENT_FAILURE", retryable: true}, run: pathOutcome{reason: "TRANSIENT_FAILURE", retryable: true, failed: true},
		byKind: map[string][2]pathOutcome{"mcp": {{reason: "MCP_FAILED", retryable: true}, {reason: "MCP_FAILED", retryable: true, failed: true}}},
	},
	{
		name: "policy denied", do: "deny",
		// InvokeTool's caller is refused; a Run's model is told.
		invoke: pathOutcome{reason: "ACCESS_DENIED", rpcError: true}, run: pathOutcome{reason: "ACCESS_DENIED"},
	},
	{
		name: "bad arguments", args: `{"do": 5}`,
		invoke: pathOutcome{reason: "TOOL_REJECTED"}, run: pathOutcome{reason: "TOOL_REJECTED"},
	},
	{
		name: "missing credential", do: "ok", credential: "missing", kinds: []string{"http", "mcp"},
		// InvokeTool's caller must fix the setup; a Run's model is told.
		invoke: pathOutcome{reason: "CREDENTIAL_NOT_FOUND", rpcError: true}, run: pathOutcome{reason: "CREDENTIAL_NOT_FOUND"},
	},
	{
		// A Spec cannot make a built-in at most once: runsvc runs it.
		name: "at-most-once in doubt", do: "hang", atMostOnce: true, kinds: []string{"http", "mcp", "worker"},
		invoke: pathOutcome{reason: "TOOL_IN_DOUBT"}, run: pathOutcome{reason: "TOOL_IN_DOUBT"},
	},
	{
		// The tool echoes a secret: neither path answers it (the scrub).
		name: "result echoes a secret", do: "echo",
	},
	{
		name: "require approval", do: "approve",
		// A Run asks a person; InvokeTool, which has nobody to ask, does
		// not make the call.
		invoke: pathOutcome{reason: "TOOL_REJECTED"}, run: pathOutcome{suspended: runlog.ReasonApproval},
	},
}

// pipelineKinds are the kinds of the table: each's declaration of the
// tool "charge" (bus_send for the built-in), credential aside.
func pipelineKinds(rig kindsRig) map[string]spec.Tool {
	return map[string]spec.Tool{
		"http":    {Name: "charge", Kind: spec.KindHTTP, HTTP: &spec.HTTPTool{URL: rig.httpURL}},
		"mcp":     {Name: "charge", Kind: spec.KindMCP, MCP: &spec.MCPTool{URL: rig.mcpURL}},
		"worker":  {Name: "charge", Kind: spec.KindWorker},
		"builtin": {Name: spec.BuiltinBusSend, Kind: spec.KindBuiltin},
	}
}

// TestToolCallPipelineKindsAndOutcomes runs every tool kind (real http,
// MCP and worker executors, the bus_send built-in) × outcome through
// InvokeTool and through a Run on SQLite, and compares reason and retry
// bit with the table's.
func TestToolCallPipelineKindsAndOutcomes(t *testing.T) {
	rig := startKindsRig(t)
	kinds := pipelineKinds(rig)
	n := 0
	for _, kind := range []string{"http", "mcp", "worker", "builtin"} {
		for _, c := range pipelineCases {
			if len(c.kinds) > 0 && !slices.Contains(c.kinds, kind) {
				continue
			}
			n++
			t.Run(kind+"/"+c.name, func(t *testing.T) {
				sp, args := pipelineSpec(fmt.Sprintf("kinds-%d", n), kinds[kind], c)
				sv, _, err := rig.reg.Publish(context.Background(), store.DefaultTenant, sp)
				if err != nil {
					t.Fatal(err)
				}
				wantInvoke, wantRun := c.invoke, c.run
				if o, ok := c.byKind[kind]; ok {
					wantInvoke, wantRun = o[0], o[1]
				}
				if got := invokeOutcome(rig.eng, sv, sp.Tools[0].Name, args); got != wantInvoke {
					t.Errorf("InvokeTool: %+v, want %+v", got, wantInvoke)
				}
				if got := kindsRunOutcome(t, rig, sp.Name); got != wantRun {
					t.Errorf("a Run's call: %+v, want %+v", got, wantRun)
				}
			})
		}
	}
}

// pipelineSpec is a Spec declaring decl for case c, with a JSON Schema,
// whose model calls it once, and the call's arguments.
func pipelineSpec(name string, decl spec.Tool, c pipelineCase) (spec.Spec, json.RawMessage) {
	args := c.args
	if args == "" {
		args = fmt.Sprintf(`{"do": %q, "channel": "ledger", "content": {"do": %q}}`, c.do, c.do)
	}
	decl.Timeout = 200 * time.Millisecond
	decl.Parameters = json.RawMessage(`{"type": "object", "properties": {"do": {"type": "string"}}, "required": ["do"]}`)
	if c.atMostOnce {
		decl.Delivery = spec.AtMostOnce
	}
	var credentials []string
	switch {
	case c.credential == "":
	case decl.HTTP != nil:
		h := *decl.HTTP
		h.Credential, decl.HTTP = c.credential, &h
		credentials = []string{c.credential}
	case decl.MCP != nil:
		m := *decl.MCP
		m.Credential, decl.MCP = c.credential, &m
		credentials = []string{c.credential}
	}
	return spec.Spec{
		Name: name, Tools: []spec.Tool{decl}, Bus: spec.Bus{Enabled: true}, Credentials: credentials,
		Limits: spec.Limits{TransientRetryBudget: -1},
		Model: spec.Model{Provider: spec.ProviderScripted, Script: []spec.Turn{
			{ToolCalls: []spec.ScriptCall{{Name: decl.Name, Arguments: json.RawMessage(args)}}}, {Text: "done"},
		}},
	}, json.RawMessage(args)
}

// invokeOutcome is how InvokeTool's call of name ends.
func invokeOutcome(eng *engine.Engine, sv *spec.Version, name string, args json.RawMessage) pathOutcome {
	inv, err := eng.Invoke(context.Background(), store.DefaultTenant, sv, name, args, 0)
	if err != nil {
		st := errs.Store(err, "")
		return pathOutcome{reason: st.Reason, retryable: st.Retryable, rpcError: true}
	}
	if inv.Failure == nil {
		return pathOutcome{leaked: bytes.Contains(inv.Output, []byte(knownSecret))}
	}
	st := errs.Store(inv.Failure, "")
	return pathOutcome{reason: st.Reason, retryable: st.Retryable}
}

// kindsRunOutcome starts a Run of specName and returns how its one call
// ended: its result's reason, or what the Run suspended for, and whether
// the Run failed.
func kindsRunOutcome(t *testing.T, rig kindsRig, specName string) pathOutcome {
	t.Helper()
	ctx := context.Background()
	run, _, err := rig.mgr.Start(ctx, runs.StartRequest{Tenant: store.DefaultTenant, Spec: specName, Input: "go"})
	if err != nil {
		t.Fatal(err)
	}
	var got runs.Run
	waitFor(t, func() bool {
		got, err = rig.mgr.Get(ctx, store.DefaultTenant, run.RunID)
		return err == nil && (got.Settled() || got.Status == runlog.StatusSuspended)
	})
	recs, err := rig.db.ReadLog(ctx, store.DefaultTenant, run.RunID, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := pathOutcome{failed: got.Status == runlog.StatusFailed}
	for _, r := range recs {
		op, err := runlog.Decode(r.Kind, r.Body)
		if err != nil {
			t.Fatal(err)
		}
		switch op := op.(type) {
		case *runlog.Suspended:
			out.suspended = op.Reason
		case *runlog.ToolCallFinished:
			if op.Error != nil {
				out.reason, out.retryable = op.Error.Reason, op.Error.Retryable
			}
			out.leaked = bytes.Contains(op.Output, []byte(knownSecret))
		}
	}
	return out
}

// TestInvokeToolRefusesWhatNeedsARun: the kinds whose execution is a
// Run's (a client tool and ask_user suspend it, delegate starts its
// children, the memory built-ins use its family's memory) go through a
// Run's pipeline and are refused by InvokeTool, which has no Run, as a bad
// name, before anything else is checked.
func TestInvokeToolRefusesWhatNeedsARun(t *testing.T) {
	rig := startKindsRig(t)
	helper := spec.Spec{Name: "needs-run-helper", Model: spec.Model{Provider: spec.ProviderScripted, Script: []spec.Turn{{Text: "helped"}}}}
	if _, _, err := rig.reg.Publish(context.Background(), store.DefaultTenant, helper); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		decl spec.Tool
		args string
		run  pathOutcome
	}{
		{"client", spec.Tool{Name: "lookup", Kind: spec.KindClient}, `{}`, pathOutcome{suspended: runlog.ReasonToolResults}},
		{"ask_user", spec.Tool{Name: spec.BuiltinAskUser, Kind: spec.KindBuiltin}, `{"question": "which?"}`, pathOutcome{suspended: runlog.ReasonQuestion}},
		{"delegate", spec.Tool{Name: spec.BuiltinDelegate, Kind: spec.KindBuiltin}, `{"to": "needs-run-helper", "task": "help"}`, pathOutcome{suspended: runlog.ReasonChildren}},
		// The rig runs no memory service: a Run's call is told so.
		{"memory_get", spec.Tool{Name: spec.BuiltinMemoryGet, Kind: spec.KindBuiltin}, `{"keys": ["k"]}`, pathOutcome{reason: "DEPENDENCY_MISSING"}},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sp := spec.Spec{
				Name: fmt.Sprintf("needs-run-%d", i), Tools: []spec.Tool{c.decl}, Delegates: []string{helper.Name},
				Model: spec.Model{Provider: spec.ProviderScripted, Script: []spec.Turn{
					{ToolCalls: []spec.ScriptCall{{Name: c.decl.Name, Arguments: json.RawMessage(c.args)}}}, {Text: "done"},
				}},
			}
			sv, _, err := rig.reg.Publish(context.Background(), store.DefaultTenant, sp)
			if err != nil {
				t.Fatal(err)
			}
			want := pathOutcome{reason: "INVALID_REQUEST", rpcError: true}
			if got := invokeOutcome(rig.eng, sv, c.decl.Name, json.RawMessage(c.args)); got != want {
				t.Errorf("InvokeTool: %+v, want %+v", got, want)
			}
			if got := kindsRunOutcome(t, rig, sp.Name); got != c.run {
				t.Errorf("a Run's call: %+v, want %+v", got, c.run)
			}
		})
	}
}
