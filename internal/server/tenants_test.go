package server_test

import (
	"context"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/structpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestTenantIsolation runs the cross-tenant suite on SQLite and on
// PostgreSQL.
func TestTenantIsolation(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { tenantIsolation(t) })
	t.Run("postgres", func(t *testing.T) {
		cluster := pgtest.Start(t)
		dsn := cluster.NewDatabase(t)
		tenantIsolation(t, func(c *server.Config) { c.Store = dsn })
	})
}

// acmeWorld is what tenant acme made, for globex to look for.
type acmeWorld struct{ runID, delegationID string }

// bossSpec may delegate to hello; its Runs suspend like hello's.
const bossSpec = `{"name": "boss", "delegates": ["hello"], "model": {"provider": "scripted", "script": {"turns": [
  {"toolCalls": [{"name": "lookup", "arguments": {}}]}, {"text": "done"}]}},
  "tools": [{"name": "lookup", "kind": "TOOL_KIND_CLIENT", "description": "Look things up"}]}`

// busSpec is a bus-enabled robot with a channel.
const busSpec = `{"name": "robot", "model": {"provider": "scripted", "script": {"turns": [{"text": "done"}]}},
  "bus": {"enabled": true, "channels": ["team"]}}`

// tenantIsolation: tenant acme publishes a Spec, starts a Run, writes
// memory and serves a worker tool; tenant globex, with the admin role,
// finds none of it on any RPC: every lookup is NOT_FOUND (never
// ACCESS_DENIED) and every list is empty. The same request_id in both
// tenants makes two Runs.
func tenantIsolation(t *testing.T, opts ...testserver.Option) {
	s := startSecured(t, []string{"acme", "globex"}, opts...)
	acme, globex := s.conn(t, s.keys["acme/admin"], nil), s.conn(t, s.keys["globex/admin"], nil)
	w := seedAcme(t, s, acme)
	for _, c := range crossTenantLookups(w) {
		t.Run(c.name, func(t *testing.T) {
			err := c.call(ctxT(t), globex)
			if status.Code(err) != codes.NotFound {
				t.Fatalf("globex %s: %v, want NOT_FOUND", c.name, err)
			}
			if err := c.call(ctxT(t), acme); status.Code(err) == codes.NotFound {
				t.Fatalf("acme %s: %v: the owner must find it", c.name, err)
			}
		})
	}
	t.Run("lists", func(t *testing.T) { emptyLists(t, globex) })
	t.Run("memory", func(t *testing.T) {
		got, err := mm(globex).GetValue(ctxT(t), &runsvcv1.GetValueRequest{Scope: ns("team"), Keys: []string{"plan"}})
		if err != nil || len(got.GetEntries()) != 0 {
			t.Fatalf("globex reads acme's memory: %v %v", got, err)
		}
	})
	t.Run("same request id is two Runs", func(t *testing.T) {
		testserver.Publish(t, sp(globex), helloSpec)
		resp, err := rn(globex).StartRun(ctxT(t), &runsvcv1.StartRunRequest{Spec: "hello", RequestId: "shared-req"})
		if err != nil {
			t.Fatal(err)
		}
		if resp.GetRun().GetRunId() == w.runID {
			t.Fatal("globex's StartRun returned acme's Run for the same request_id")
		}
	})
}

func ns(n string) *runsvcv1.MemoryScope {
	return &runsvcv1.MemoryScope{Scope: &runsvcv1.MemoryScope_Namespace{Namespace: n}}
}

// seedAcme makes acme's Spec, Run (request id shared-req) and memory.
func seedAcme(t *testing.T, s *secured, acme *grpc.ClientConn) acmeWorld {
	t.Helper()
	testserver.Publish(t, sp(acme), helloSpec)
	resp, err := rn(acme).StartRun(ctxT(t), &runsvcv1.StartRunRequest{Spec: "hello", RequestId: "shared-req"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mm(acme).SetValue(ctxT(t), &runsvcv1.SetValueRequest{Scope: ns("team"), Key: "plan", Value: structpb.NewStringValue("secret plan")}); err != nil {
		t.Fatal(err)
	}
	testserver.Publish(t, sp(acme), bossSpec)
	boss, err := rn(acme).StartRun(ctxT(t), &runsvcv1.StartRunRequest{Spec: "boss"})
	if err != nil {
		t.Fatal(err)
	}
	d, err := dl(acme).Delegate(ctxT(t), &runsvcv1.DelegateRequest{ParentRunId: boss.GetRun().GetRunId(), Spec: "hello", Task: "look", Async: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rn(acme).StartRun(ctxT(t), &runsvcv1.StartRunRequest{Spec: "hello", ThreadId: "acme-thread"}); err != nil {
		t.Fatal(err)
	}
	testserver.Publish(t, sp(acme), busSpec)
	if _, err := bs(acme).SendMessage(ctxT(t), &runsvcv1.BusServiceSendMessageRequest{Sender: "robot", Channel: "team", Content: structpb.NewStringValue("hi")}); err != nil {
		t.Fatal(err)
	}
	return acmeWorld{runID: resp.GetRun().GetRunId(), delegationID: d.GetDelegation().GetDelegationId()}
}

type lookup struct {
	name string
	call func(context.Context, *grpc.ClientConn) error
}

func crossTenantLookups(w acmeWorld) []lookup {
	id := w.runID
	return []lookup{
		{"GetSpec", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := sp(c).GetSpec(ctx, &runsvcv1.GetSpecRequest{Name: "hello"})
			return err
		}},
		{"StartRun of the Spec", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := rn(c).StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "hello", RequestId: "shared-req"})
			return err
		}},
		{"GetRun", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := rn(c).GetRun(ctx, &runsvcv1.GetRunRequest{RunId: id})
			return err
		}},
		{"GetThread", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := rn(c).GetThread(ctx, &runsvcv1.GetThreadRequest{ThreadId: "acme-thread"})
			return err
		}},
		{"WatchRun", func(ctx context.Context, c *grpc.ClientConn) error {
			return recvFirst(rn(c).WatchRun(ctx, &runsvcv1.WatchRunRequest{RunId: id}))
		}},
		{"StreamText", func(ctx context.Context, c *grpc.ClientConn) error {
			return recvFirst(rn(c).StreamText(ctx, &runsvcv1.StreamTextRequest{RunId: id}))
		}},
		{"WaitRun", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := rn(c).WaitRun(ctx, &runsvcv1.WaitRunRequest{RunId: id})
			return err
		}},
		{"SendMessage", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := rn(c).SendMessage(ctx, &runsvcv1.SendMessageRequest{RunId: id, Text: "hi"})
			return err
		}},
		{"GetReport", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := rn(c).GetReport(ctx, &runsvcv1.GetReportRequest{RunId: id})
			return err
		}},
		{"ListTools of the Spec", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := tl(c).ListTools(ctx, &runsvcv1.ListToolsRequest{Spec: "hello"})
			return err
		}},
		{"Delegate from the Run", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := dl(c).Delegate(ctx, &runsvcv1.DelegateRequest{ParentRunId: id, Spec: "hello", Task: "t"})
			return err
		}},
		{"ResumeRun", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := rn(c).ResumeRun(ctx, &runsvcv1.ResumeRunRequest{RunId: id, ToolResults: []*runsvcv1.ToolResult{{CallId: "call_9_9", Output: structpb.NewStringValue("x")}}})
			return err
		}},
		{"InvokeTool of the Spec", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := tl(c).InvokeTool(ctx, &runsvcv1.InvokeToolRequest{Spec: "hello", Name: "lookup"})
			return err
		}},
		{"GetDelegation", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := dl(c).GetDelegation(ctx, &runsvcv1.GetDelegationRequest{DelegationId: w.delegationID})
			return err
		}},
		{"AwaitDelegation", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := dl(c).AwaitDelegation(ctx, &runsvcv1.AwaitDelegationRequest{DelegationId: w.delegationID, Timeout: durationpb.New(100 * time.Millisecond)})
			return err
		}},
		{"bus SendMessage as acme's robot", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := bs(c).SendMessage(ctx, &runsvcv1.BusServiceSendMessageRequest{Sender: "robot", Channel: "team", Content: structpb.NewStringValue("x")})
			return err
		}},
		{"bus Receive on acme's channel", func(ctx context.Context, c *grpc.ClientConn) error {
			return recvFirst(bs(c).Receive(ctx, &runsvcv1.ReceiveRequest{Channel: "team"}))
		}},
		{"bus AcknowledgeMessages on acme's channel", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := bs(c).AcknowledgeMessages(ctx, &runsvcv1.AcknowledgeMessagesRequest{Channel: "team", MessageIds: []string{"msg_x"}})
			return err
		}},
		{"InterruptRun (last: it ends the Run)", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := rn(c).InterruptRun(ctx, &runsvcv1.InterruptRunRequest{RunId: id, Reason: "x"})
			return err
		}},
	}
}

func emptyLists(t *testing.T, globex *grpc.ClientConn) {
	specs, err := sp(globex).ListSpecs(ctxT(t), &runsvcv1.ListSpecsRequest{})
	if err != nil || len(specs.GetSpecs()) != 0 {
		t.Errorf("globex ListSpecs: %v %v", specs.GetSpecs(), err)
	}
	runs, err := rn(globex).ListRuns(ctxT(t), &runsvcv1.ListRunsRequest{})
	if err != nil || len(runs.GetRuns()) != 0 {
		t.Errorf("globex ListRuns: %d Runs %v", len(runs.GetRuns()), err)
	}
	threads, err := rn(globex).ListThreads(ctxT(t), &runsvcv1.ListThreadsRequest{})
	if err != nil || len(threads.GetThreads()) != 0 {
		t.Errorf("globex ListThreads: %v %v", threads.GetThreads(), err)
	}
	byThread, err := rn(globex).ListRuns(ctxT(t), &runsvcv1.ListRunsRequest{ThreadId: "acme-thread"})
	if err != nil || len(byThread.GetRuns()) != 0 {
		t.Errorf("globex ListRuns(acme's thread): %d Runs %v", len(byThread.GetRuns()), err)
	}
}

// workSpec calls the worker tool step once, then answers.
const workSpec = `{"name": "work", "model": {"provider": "scripted", "script": {"turns": [
  {"toolCalls": [{"name": "step", "arguments": {"n": 1}}]},
  {"text": "done"}]}},
  "tools": [{"name": "step", "kind": "TOOL_KIND_WORKER"}]}`

// TestWorkerToolsPerTenant: a worker of tenant acme never receives a call
// of tenant globex's Run, and globex does not see acme's worker tools.
func TestWorkerToolsPerTenant(t *testing.T) {
	s := startSecured(t, []string{"acme", "globex"})
	ok := func(map[string]any) (any, *runsvcv1.ToolError) { return "ok", nil }
	acmeWorker := testserver.StartWorker(t, tl(s.conn(t, s.keys["acme/worker"], nil)), "acme-w", map[string]testserver.ToolFunc{"step": ok, "acme_only": ok})
	globexWorker := testserver.StartWorker(t, tl(s.conn(t, s.keys["globex/worker"], nil)), "globex-w", map[string]testserver.ToolFunc{"step": ok})
	globex := s.conn(t, s.keys["globex/admin"], nil)
	tools, err := tl(globex).ListTools(ctxT(t), &runsvcv1.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.GetTools() {
		if tool.GetName() == "acme_only" {
			t.Fatalf("globex's ListTools shows acme's worker tool: %v", tools.GetTools())
		}
	}
	testserver.Publish(t, sp(globex), workSpec)
	for i := range 3 {
		resp, err := rn(globex).StartRun(ctxT(t), &runsvcv1.StartRunRequest{Spec: "work"})
		if err != nil {
			t.Fatalf("start %d: %v", i, err)
		}
		waitSettled(t, rn(globex), resp.GetRun().GetRunId())
	}
	if got := acmeWorker.Calls("step"); got != 0 {
		t.Errorf("acme's worker received %d calls of globex's Runs", got)
	}
	if got := globexWorker.Calls("step"); got != 3 {
		t.Errorf("globex's worker received %d calls, want 3", got)
	}
}
