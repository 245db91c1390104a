package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"sync"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/engine"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/model/scripted"
	"github.com/runsvc/runsvc/internal/policy"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/spec/versions"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/sqlite"
	"github.com/runsvc/runsvc/internal/store/sqlite/sqlitetest"
	"github.com/runsvc/runsvc/internal/tool"
)

// byArgs is every kind's executor in the kind × outcome table: what a call
// does is in its arguments ({"do": "ok" | "refuse" | "hang"}), and what it
// was given (credential, environment) is kept by call id.
type byArgs struct {
	mu    sync.Mutex
	given map[string]tool.Call
}

func (x *byArgs) Execute(ctx context.Context, c tool.Call) (json.RawMessage, error) {
	x.mu.Lock()
	x.given[c.GlobalID()] = c
	x.mu.Unlock()
	var args struct{ Do string }
	_ = json.Unmarshal(c.Arguments, &args)
	switch args.Do {
	case "refuse":
		if c.Tool.Kind == spec.KindMCP {
			return nil, &errs.MCPRejected{Server: c.Tool.MCP.Label(), Tool: c.Name, Message: "no such record"}
		}
		return nil, &errs.ToolRejected{Tool: c.Name, Message: "no such record"}
	case "hang":
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return json.RawMessage(`{"ok": true}`), nil
}

// byArgsPolicy denies or asks approval for calls whose arguments say so.
type byArgsPolicy struct{ policy.AllowAll }

func (byArgsPolicy) ToolCall(_ context.Context, _ policy.Subject, _ string, args json.RawMessage) policy.Decision {
	var a struct{ Do string }
	_ = json.Unmarshal(args, &a)
	switch a.Do {
	case "deny":
		return policy.Decision{Outcome: policy.Deny, Reason: "not on weekends"}
	case "approve":
		return policy.Decision{Outcome: policy.Approve, Reason: "it spends money"}
	}
	return policy.Decision{Outcome: policy.Allow}
}

// fixedSecrets resolves every credential to a value of its name.
type fixedSecrets struct{}

func (fixedSecrets) Resolve(_ context.Context, _, name string) (string, error) {
	return "value-of-" + name, nil
}

// outcome is how one call ended, as a client classifies it.
type outcome struct {
	reason    string // "" for a result
	retryable bool
	suspended runlog.Reason
}

func outcomeOf(err error) outcome {
	if err == nil {
		return outcome{}
	}
	st := errs.Store(err, "")
	return outcome{reason: st.Reason, retryable: st.Retryable}
}

// TestOneToolCallPipeline runs every tool kind InvokeTool can call, with
// every outcome, through InvokeTool and through a Run, and compares what
// each path answers: reason and retry bit, and, for MCP tools, the
// credential and environment the executor was given. A Run asks a person
// when the policy requires approval; InvokeTool, which cannot, refuses
// the call without making it. Built-in and client tools only a Run can
// call (InvokeTool refuses them as a bad name).
// pipelineEngine starts an Engine on the tests' SQLite store whose http, mcp
// and worker tools all run on x; it stops with the test.
func pipelineEngine(t *testing.T, x *byArgs) (*engine.Engine, *runs.Manager, *sqlite.DB, *versions.Registry) {
	t.Helper()
	errs.SetFailureEncoder(errdetails.StoredFailure)
	db, log, clk := sqlitetest.Open(t), slog.New(slog.NewTextHandler(io.Discard, nil)), clock.Real{}
	reg := versions.New(db, clk, versions.Options{})
	cfg := engine.Config{WorkerID: "pipeline", PollInterval: 20 * time.Millisecond}
	slots := engine.NewSlots(cfg)
	mgr := runs.New(runs.Deps{Store: db, Specs: reg, Policy: policy.AllowAll{}, Clock: clk, Log: log, Local: slots})
	writer := mgr.Writer()
	kinds := map[spec.Kind]tool.Executor{spec.KindHTTP: x, spec.KindMCP: x, spec.KindWorker: x}
	eng := engine.New(engine.Deps{
		Store: db, Writer: writer, Runs: mgr, Specs: reg, Models: model.Providers{spec.ProviderScripted: scripted.New(clk)},
		Tools: kinds, Secrets: fixedSecrets{}, Policy: byArgsPolicy{}, Clock: clk, Log: log,
		Slots: slots,
	}, cfg)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); eng.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	return eng, mgr, db, reg
}

// sameServerEnv checks that InvokeTool's call and a Run's handed an MCP
// server the same credential and env, the stdio one its resolved TOKEN.
func sameServerEnv(t *testing.T, x *byArgs, decl spec.Tool, invoked, ran string) {
	t.Helper()
	x.mu.Lock()
	a, b := x.given[invoked], x.given[ran]
	x.mu.Unlock()
	if a.Credential != b.Credential || !maps.Equal(a.Env, b.Env) || (decl.MCP.Command != "" && a.Env["TOKEN"] != "value-of-api") {
		t.Errorf("InvokeTool gave the server credential %q env %v, a Run %q %v", a.Credential, a.Env, b.Credential, b.Env)
	}
}

func TestOneToolCallPipeline(t *testing.T) {
	x := &byArgs{given: map[string]tool.Call{}}
	eng, mgr, db, reg := pipelineEngine(t, x)

	const timeout = 100 * time.Millisecond
	kindsUnderTest := []struct {
		name string
		tool spec.Tool
	}{
		{"http", spec.Tool{Kind: spec.KindHTTP, HTTP: &spec.HTTPTool{URL: "http://127.0.0.1:9/charge", Credential: "api"}}},
		{"mcp stdio", spec.Tool{Kind: spec.KindMCP, MCP: &spec.MCPTool{Command: "/bin/true", Env: []spec.EnvVar{{Name: "TOKEN", Credential: "api"}, {Name: "MODE", Value: "test"}}}}},
		{"mcp http", spec.Tool{Kind: spec.KindMCP, MCP: &spec.MCPTool{URL: "http://127.0.0.1:9/mcp", Credential: "api"}}},
		{"worker", spec.Tool{Kind: spec.KindWorker}},
	}
	outcomes := []struct {
		name       string
		do         string
		atMostOnce bool
		// want is InvokeTool's outcome, and a Run's unless run is set.
		want, run *outcome
		mcp       *outcome // for an MCP tool, when it differs
	}{
		{name: "ok", do: "ok", want: &outcome{}},
		{name: "error", do: "refuse", want: &outcome{reason: "TOOL_REJECTED"}, mcp: &outcome{reason: "MCP_REJECTED"}},
		{name: "timeout", do: "hang", want: &outcome{reason: "TRANSIENT_FAILURE", retryable: true}, mcp: &outcome{reason: "MCP_FAILED", retryable: true}},
		{name: "policy deny", do: "deny", want: &outcome{reason: "ACCESS_DENIED"}},
		{name: "require approval", do: "approve", want: &outcome{reason: "TOOL_REJECTED"}, run: &outcome{suspended: runlog.ReasonApproval}},
		{name: "at-most-once timeout", do: "hang", atMostOnce: true, want: &outcome{reason: "TOOL_IN_DOUBT"}},
	}
	n := 0
	for _, k := range kindsUnderTest {
		for _, o := range outcomes {
			t.Run(k.name+"/"+o.name, func(t *testing.T) {
				n++
				decl := k.tool
				decl.Name, decl.Timeout = "charge", timeout
				if o.atMostOnce {
					decl.Delivery = spec.AtMostOnce
				}
				args := json.RawMessage(fmt.Sprintf(`{"do": %q}`, o.do))
				sp := spec.Spec{
					Name: fmt.Sprintf("pipeline-%d", n), Tools: []spec.Tool{decl}, Credentials: []string{"api"},
					Limits: spec.Limits{TransientRetryBudget: -1},
					Model: spec.Model{Provider: spec.ProviderScripted, Script: []spec.Turn{
						{ToolCalls: []spec.ScriptCall{{Name: "charge", Arguments: args}}}, {Text: "done"},
					}},
				}
				sv, _, err := reg.Publish(context.Background(), store.DefaultTenant, sp)
				if err != nil {
					t.Fatal(err)
				}
				want, wantRun := *o.want, *o.want
				if o.mcp != nil && decl.Kind == spec.KindMCP {
					want, wantRun = *o.mcp, *o.mcp
				}
				if o.run != nil {
					wantRun = *o.run
				}

				inv, err := eng.Invoke(context.Background(), store.DefaultTenant, sv, "charge", args, 0)
				if err == nil {
					err = inv.Failure
				}
				if got := outcomeOf(err); got != want {
					t.Errorf("InvokeTool: %+v (%v), want %+v", got, err, want)
				}

				got, runCall := runOutcome(t, mgr, db, sp.Name, args)
				if got != wantRun {
					t.Errorf("a Run's call: %+v, want %+v", got, wantRun)
				}
				if decl.Kind == spec.KindMCP && o.do == "ok" {
					sameServerEnv(t, x, decl, inv.CallID, runCall)
				}
			})
		}
	}
}

// runOutcome starts a Run of specName, whose model makes one call with
// args, and returns how the call ended (or what the Run suspended for)
// and the call's global id.
func runOutcome(t *testing.T, mgr *runs.Manager, db *sqlite.DB, specName string, args json.RawMessage) (outcome, string) {
	t.Helper()
	run, _, err := mgr.Start(context.Background(), runs.StartRequest{Tenant: store.DefaultTenant, Spec: specName, Input: "go"})
	if err != nil {
		t.Fatal(err)
	}
	var got runs.Run
	waitFor(t, func() bool {
		got, err = mgr.Get(context.Background(), store.DefaultTenant, run.RunID)
		return err == nil && (got.Settled() || got.Status == runlog.StatusSuspended)
	})
	callID := run.RunID + "/" + engine.CallID(1, 0)
	recs, err := db.ReadLog(context.Background(), store.DefaultTenant, run.RunID, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		op, err := runlog.Decode(r.Kind, r.Body)
		if err != nil {
			t.Fatal(err)
		}
		switch op := op.(type) {
		case *runlog.Suspended:
			return outcome{suspended: op.Reason}, callID
		case *runlog.ToolCallFinished:
			if op.Error != nil {
				return outcome{reason: op.Error.Reason, retryable: op.Error.Retryable}, callID
			}
			return outcome{}, callID
		}
	}
	return outcomeOf(got.Failed()), callID
}
