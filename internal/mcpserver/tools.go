package mcpserver

import (
	"encoding/json"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// inputSchema is every Spec tool's input: the Run's input message.
var inputSchema = json.RawMessage(`{"type":"object","properties":{"message":{"type":"string","description":"The Run's input: what the agent is asked (empty when omitted)."}},"additionalProperties":false}`)

// session builds the MCP server of a new session: one tool per Spec of
// the caller's tenant exposed over MCP, as listed when the session opens.
// It is nil when the listing fails (the SDK then refuses the session).
func (s *Server) session(r *http.Request) *mcp.Server {
	specs, err := s.listExposed(r.Context(), r.Header)
	if err != nil {
		s.log.Warn("an MCP session could not list its Specs", "err", err)
		return nil
	}
	srv := mcp.NewServer(s.impl, &mcp.ServerOptions{
		Instructions: "Each tool is a runsvc agent (a Spec): calling it starts a durable Run with your message and answers with the Run's answer.",
		Logger:       s.log,
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
	})
	for _, sp := range specs {
		srv.AddTool(toolOf(sp), s.handler(sp))
	}
	return srv
}

// toolOf describes a Spec as an MCP tool: its name, exposure.description
// (or "runsvc agent <name>"), the message input, and the output schema
// of a Spec whose structured output is a JSON object.
func toolOf(sp *runsvcv1.Spec) *mcp.Tool {
	desc := sp.GetExposure().GetDescription()
	if desc == "" {
		desc = "runsvc agent " + sp.GetName()
	}
	t := &mcp.Tool{Name: sp.GetName(), Description: desc, InputSchema: inputSchema}
	if schema := objectSchema(sp); schema != nil {
		t.OutputSchema = schema
	}
	return t
}

// objectSchema is the Spec's output schema when it describes a JSON
// object (MCP's structured content is one), else nil.
func objectSchema(sp *runsvcv1.Spec) json.RawMessage {
	schema := sp.GetOutput().GetSchema()
	if schema == nil || schema.GetFields()["type"].GetStringValue() != "object" {
		return nil
	}
	raw, err := schema.MarshalJSON()
	if err != nil {
		return nil
	}
	return raw
}
