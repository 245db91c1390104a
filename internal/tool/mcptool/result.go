package mcptool

import (
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/tool"
)

// output turns a tool's result into the call's output, or into the
// tool's own failure when the result is marked isError.
func output(c tool.Call, res *mcp.CallToolResult) (json.RawMessage, error) {
	if res.IsError {
		msg, ok := text(res.Content)
		if !ok {
			msg = "the tool reported an error without saying why"
			if len(res.Content) > 0 {
				raw, _ := json.Marshal(res.Content)
				msg = string(raw)
			}
		}
		return nil, &errs.ToolRejected{Tool: c.Name, Message: clean(msg, c.Credential)}
	}
	if res.NeedsInput() {
		return nil, &errs.MCPRejected{Server: c.Tool.MCP.URL, Tool: c.Name, Message: "the server asked for input that runsvc cannot give"}
	}
	if res.StructuredContent != nil {
		return marshal(c, res.StructuredContent)
	}
	if s, ok := text(res.Content); ok {
		return marshal(c, s)
	}
	if res.Content == nil {
		return json.RawMessage(`[]`), nil
	}
	return marshal(c, res.Content)
}

// text joins the text parts of content with newlines; ok is false when
// there are none.
func text(content []mcp.Content) (string, bool) {
	var parts []string
	for _, c := range content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n"), len(parts) > 0
}

func marshal(c tool.Call, v any) (json.RawMessage, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, &errs.MCPRejected{Server: c.Tool.MCP.URL, Tool: c.Name, Message: "the result cannot be encoded as JSON: " + clean(err.Error(), c.Credential)}
	}
	return raw, nil
}
