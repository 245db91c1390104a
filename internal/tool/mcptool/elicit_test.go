package mcptool_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// asker is an MCP server whose pick tool asks which colour: with an
// elicitation/create request within the call on a session (2025-11-25),
// or with an input-required result (2026-07-28, stateless).
type asker struct {
	mu       sync.Mutex
	calls    int
	versions []string // the MCP-Protocol-Version of every tools/call
}

var colourSchema = map[string]any{"type": "object", "properties": map[string]any{"colour": map[string]any{"type": "string"}}, "required": []string{"colour"}}

func (a *asker) pick(stateless bool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		a.mu.Lock()
		a.calls++
		a.mu.Unlock()
		ask := &mcp.ElicitParams{Message: "Which colour?", RequestedSchema: colourSchema}
		var res *mcp.ElicitResult
		switch r, ok := req.Params.InputResponses["colour"].(*mcp.ElicitResult); {
		case ok:
			res = r
		case stateless:
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"colour": ask}}, nil
		default:
			var err error
			if res, err = req.Session.Elicit(ctx, ask); err != nil {
				return nil, err
			}
		}
		if res.Action != "accept" {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "not picked: " + res.Action}}}, nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("picked %v", res.Content["colour"])}}}, nil
	}
}

// serve serves the asker on loopback, pinned to versions when given.
func (a *asker) serve(t *testing.T, stateless bool, versions []string) string {
	srv := mcp.NewServer(&mcp.Implementation{Name: "asker", Version: "1"}, &mcp.ServerOptions{SupportedProtocolVersions: versions})
	srv.AddTool(&mcp.Tool{Name: "pick", InputSchema: map[string]any{"type": "object"}}, a.pick(stateless))
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: stateless})
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if v := r.Header.Get("Mcp-Protocol-Version"); v != "" {
			a.mu.Lock()
			a.versions = append(a.versions, v)
			a.mu.Unlock()
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	return hs.URL + "/mcp"
}

// TestElicitationSuspendsRun: an MCP server asking a question during a
// tool call suspends the Run QUESTION with the server's question; the
// answer given through ResumeRun goes back as the elicitation's result,
// and the call completes with it. runsvc speaks the newest revision the
// SDK has (2026-07-28) and falls back to 2025-11-25 for a server pinned
// to it.
func TestElicitationSuspendsRun(t *testing.T) {
	for _, tt := range []struct {
		name      string
		stateless bool
		pinned    []string
		version   string
	}{
		{name: "2026-07-28, input required", stateless: true, version: "2026-07-28"},
		{name: "2025-11-25, elicitation request", pinned: []string{"2025-11-25"}, version: "2025-11-25"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := &asker{}
			url := a.serve(t, tt.stateless, tt.pinned)
			s := testserver.Start(t)
			s.Publish(t, fmt.Sprintf(`{"name": "painter", "model": {"provider": "scripted", "script": {"turns": [{"toolCalls": [{"name": "pick", "arguments": {}}]}, {"text": "painted"}]}},
			  "tools": [{"name": "pick", "kind": "TOOL_KIND_MCP", "mcp": {"url": %q}}]}`, url))
			run := s.Wait(t, s.Start(t, "painter", "paint").GetRunId())
			sus := run.GetSuspension()
			if run.GetState() != runsvcv1.RunState_RUN_STATE_SUSPENDED || sus.GetReason() != runsvcv1.SuspensionReason_SUSPENSION_REASON_QUESTION || sus.GetQuestion() != "Which colour?" {
				t.Fatalf("the Run is %v %v %q, want SUSPENDED QUESTION on the server's question", run.GetState(), sus.GetReason(), sus.GetQuestion())
			}
			if _, err := s.Runs.ResumeRun(testserver.Context(t), &runsvcv1.ResumeRunRequest{RunId: run.GetRunId(), Answer: "blue"}); err != nil {
				t.Fatal(err)
			}
			run = s.Settled(t, run.GetRunId())
			if run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED {
				t.Fatalf("the Run ended %v: %v", run.GetState(), run.GetFailure())
			}
			if out := toolOutput(t, s, run.GetRunId()); out != "picked blue" {
				t.Fatalf("the call's output %q, want the server's answer to blue", out)
			}
			a.mu.Lock()
			defer a.mu.Unlock()
			// The handshake tries 2026-07-28 first (server/discover); the
			// calls speak what was negotiated.
			if n := len(a.versions); n == 0 || a.versions[0] != "2026-07-28" || a.versions[n-1] != tt.version {
				t.Fatalf("requests spoke %v, want 2026-07-28 first and %s last", a.versions, tt.version)
			}
		})
	}
}

// toolOutput is the output of the Run's finished tool call.
func toolOutput(t *testing.T, s *testserver.Server, runID string) string {
	t.Helper()
	for _, r := range s.Records(t, runID) {
		if f := r.GetToolCallFinished(); f != nil {
			return strings.TrimSpace(f.GetOutput().GetStringValue())
		}
	}
	return ""
}
