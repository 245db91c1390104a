package mcptool_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"google.golang.org/protobuf/encoding/protojson"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// serveResources serves an MCP server with one tool and one text
// resource on loopback.
func serveResources(t *testing.T) string {
	srv := mcp.NewServer(&mcp.Implementation{Name: "files", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "noop", InputSchema: map[string]any{"type": "object"}}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
	})
	srv.AddResource(&mcp.Resource{URI: "file:///colours.txt", Name: "colours", MIMEType: "text/plain"}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: "red, green, blue"}}}, nil
	})
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(hs.Close)
	return hs.URL + "/mcp"
}

// TestReadResource: a Spec declaring the mcp_read_resource built-in reads
// a resource of its MCP server; an unknown URI is the tool's failure,
// shown to the model; a Spec without MCP servers cannot declare it.
func TestReadResource(t *testing.T) {
	url := serveResources(t)
	s := testserver.Start(t)
	s.Publish(t, fmt.Sprintf(`{"name": "reader", "model": {"provider": "scripted", "script": {"turns": [
	    {"toolCalls": [{"name": "mcp_read_resource", "arguments": {"server": "noop", "uri": "file:///colours.txt"}}]},
	    {"toolCalls": [{"name": "mcp_read_resource", "arguments": {"server": "noop", "uri": "file:///nothing"}}]},
	    {"text": "read"}]}},
	  "tools": [{"name": "noop", "kind": "TOOL_KIND_MCP", "mcp": {"url": %q}}, {"name": "mcp_read_resource", "kind": "TOOL_KIND_BUILTIN"}]}`, url))
	run := s.Settled(t, s.Start(t, "reader", "read").GetRunId())
	if run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED {
		t.Fatalf("the Run ended %v: %v", run.GetState(), run.GetFailure())
	}
	var outputs []string
	for _, r := range s.Records(t, run.GetRunId()) {
		if f := r.GetToolCallFinished(); f != nil {
			raw, _ := protojson.Marshal(f)
			outputs = append(outputs, string(raw))
		}
	}
	if len(outputs) != 2 || !strings.Contains(outputs[0], "red, green, blue") || !strings.Contains(outputs[1], `"error"`) {
		t.Fatalf("the reads recorded %v, want the resource's text, then a failure", outputs)
	}
	sp := &runsvcv1.Spec{}
	_ = protojson.Unmarshal([]byte(`{"name": "noserver", "model": {"provider": "scripted"}, "tools": [{"name": "mcp_read_resource", "kind": "TOOL_KIND_BUILTIN"}]}`), sp)
	_, err := s.Specs.PublishSpec(testserver.Context(t), &runsvcv1.PublishSpecRequest{Spec: sp})
	if c := errdetails.Classify(err); c.Reason != "SPEC_INVALID" {
		t.Fatalf("a Spec reading resources without MCP servers: %+v, want SPEC_INVALID", c)
	}
}
