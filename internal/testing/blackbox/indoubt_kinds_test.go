package blackbox_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/blackbox"
	"github.com/runsvc/runsvc/internal/testing/testserver"
	"github.com/runsvc/runsvc/internal/tool/mcptool"
)

// heldMCP is an MCP server whose tool charge_mcp counts its calls by
// idempotency key and holds each key's first call until release closes.
type heldMCP struct {
	mu      sync.Mutex
	calls   map[string]int
	held    chan string
	release chan struct{}
}

func startHeldMCP(t *testing.T, held chan string, release chan struct{}) (*heldMCP, string) {
	t.Helper()
	m := &heldMCP{calls: map[string]int{}, held: held, release: release}
	srv := mcp.NewServer(&mcp.Implementation{Name: "held", Version: "v0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "charge_mcp"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		key, _ := req.Params.GetMeta()[mcptool.MetaIdempotencyKey].(string)
		m.mu.Lock()
		m.calls[key]++
		n := m.calls[key]
		m.mu.Unlock()
		if n == 1 {
			m.held <- key
			select {
			case <-m.release:
			case <-ctx.Done():
			}
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprint("mcp call ", n)}}}, nil, nil
	})
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(hs.Close)
	return m, hs.URL
}

func (m *heldMCP) count(key string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.calls[key]
}

// TestInDoubtEveryKind: the at-most-once route of issue 20 for worker and
// MCP tools, as TestCallsInDoubtAfterACrash shows it for http tools.
// runsvc is kill -9'd with every Run's call in flight; after the restart
// a call told to the model is closed in doubt and never made again, and
// one routed to a person is made again once the answer is
// did_not_happen, with the same idempotency key.
func TestInDoubtEveryKind(t *testing.T) {
	held, release := make(chan string, 16), make(chan struct{})
	var once sync.Once
	open := func() { once.Do(func() { close(release) }) }
	m, mcpURL := startHeldMCP(t, held, release)
	t.Cleanup(open) // before the MCP server's Close, which waits for held calls
	data, addr := t.TempDir(), blackbox.FreePort(t)
	args := []string{"--data", data, "--lease-ttl", "1s"}
	p := blackbox.Serve(t, addr, args...)
	conn := p.Dial(t)
	specs, runs := runsvcv1.NewSpecServiceClient(conn), runsvcv1.NewRunServiceClient(conn)
	// The worker's first two runs are the two Runs' calls: they hold.
	var ran atomic.Int32
	charge := func(map[string]any) (any, *runsvcv1.ToolError) {
		if ran.Add(1) <= 2 {
			held <- "worker"
			<-release
		}
		return "worker charged", nil
	}
	w := testserver.StartWorker(t, runsvcv1.NewToolServiceClient(testserver.Dial(t, addr)), "charger", map[string]testserver.ToolFunc{"charge_w": charge}, testserver.Reconnecting())
	decls := map[string]string{
		"charge_w":   `"kind": "TOOL_KIND_WORKER"`,
		"charge_mcp": fmt.Sprintf(`"kind": "TOOL_KIND_MCP", "mcp": {"url": %q}`, mcpURL),
	}
	type run struct{ tool, inDoubt, id string }
	cases := []*run{{tool: "charge_w", inDoubt: "IN_DOUBT_TELL_MODEL"}, {tool: "charge_w", inDoubt: "IN_DOUBT_ASK"},
		{tool: "charge_mcp", inDoubt: "IN_DOUBT_TELL_MODEL"}, {tool: "charge_mcp", inDoubt: "IN_DOUBT_ASK"}}
	for _, c := range cases {
		name := c.tool + "-" + strings.ToLower(c.inDoubt)
		testserver.Publish(t, specs, fmt.Sprintf(`{"name": %q, "model": {"provider": "scripted", "script": {"turns": [
		  {"toolCalls": [{"name": %q, "arguments": {}}]}, {"text": "done"}]}},
		  "tools": [{"name": %q, %s, "delivery": "DELIVERY_AT_MOST_ONCE", "inDoubt": %q}], "limits": {"transientRetryBudget": 100}}`,
			name, c.tool, c.tool, decls[c.tool], c.inDoubt))
		resp, err := runs.StartRun(testserver.Context(t), &runsvcv1.StartRunRequest{Spec: name, Input: "go"})
		if err != nil {
			t.Fatal(err)
		}
		c.id = resp.GetRun().GetRunId()
	}
	for range cases {
		select {
		case <-held:
		case <-time.After(time.Minute):
			t.Fatal("not every call reached its tool")
		}
	}
	p.Kill()
	open()
	p = blackbox.Serve(t, addr, args...)
	runs = runsvcv1.NewRunServiceClient(p.Dial(t))
	sent := func(c *run) int {
		if c.tool == "charge_w" {
			return w.Received(c.id + "/call_1_1")
		}
		return m.count(c.id + "/call_1_1")
	}
	for _, c := range cases {
		t.Run(c.tool+" "+c.inDoubt, func(t *testing.T) { checkInDoubtKind(t, runs, c.id, c.inDoubt, func() int { return sent(c) }) })
	}
}

// checkInDoubtKind checks one Run of TestInDoubtEveryKind: told to the
// model, the call is closed in doubt and sent once; asked, the Run
// suspends, and did_not_happen makes the call a second time.
func checkInDoubtKind(t *testing.T, runs runsvcv1.RunServiceClient, id, inDoubt string, sent func() int) {
	t.Helper()
	if inDoubt == "IN_DOUBT_ASK" {
		sus := waitState(t, runs, id, runsvcv1.RunState_RUN_STATE_SUSPENDED).GetSuspension()
		if sus.GetReason() != runsvcv1.SuspensionReason_SUSPENSION_REASON_APPROVAL || !sus.GetInDoubt() {
			t.Fatalf("suspension %v: want APPROVAL in doubt", sus)
		}
		if n := sent(); n != 1 {
			t.Fatalf("the call was sent %d times before the answer, want 1", n)
		}
		_, err := runs.ResumeRun(testserver.Context(t), &runsvcv1.ResumeRunRequest{RunId: id, InDoubt: &runsvcv1.InDoubtAnswer{Outcome: runsvcv1.InDoubtOutcome_IN_DOUBT_OUTCOME_DID_NOT_HAPPEN}})
		if err != nil {
			t.Fatal(err)
		}
	}
	got := waitState(t, runs, id, runsvcv1.RunState_RUN_STATE_COMPLETED)
	f := finishedCall(t, runs, id)
	wantSent, wantInDoubt := 1, true
	if inDoubt == "IN_DOUBT_ASK" {
		wantSent, wantInDoubt = 2, false
	}
	if n := sent(); n != wantSent || f.GetInDoubt() != wantInDoubt || got.GetAnswer() != "done" {
		t.Errorf("sent %d times, in_doubt %t (%v), answer %q: want %d, %t, done", n, f.GetInDoubt(), f.GetError(), got.GetAnswer(), wantSent, wantInDoubt)
	}
	if !wantInDoubt && (f.GetError() != nil || f.GetOutput() == nil) {
		t.Errorf("the call made again: output %v, error %v; want the tool's output", f.GetOutput(), f.GetError())
	}
}
