package engine

import (
	"context"
	"encoding/json"
	"sort"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/secret"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/tool"
)

// resourceReader is the MCP executor, when it reads resources, or what
// is missing for mcp_read_resource.
func (e *Engine) resourceReader() (tool.ResourceReader, error) {
	if r, ok := e.Tools[spec.KindMCP].(tool.ResourceReader); ok {
		return r, nil
	}
	return nil, &errs.DependencyMissing{Dependency: "mcp tools", Description: "this runsvc does not run MCP tools, so it reads no MCP resources"}
}

// readResource makes an mcp_read_resource call: {"server": S, "uri": U}
// reads U from S, an entry of the Spec's mcp_servers or the name of one
// of its MCP tools (whose server is read), with that server's credential
// and environment.
func (b builtinCalls) readResource(ctx context.Context, c tool.Call) (json.RawMessage, error) {
	var args struct {
		Server string `json:"server"`
		URI    string `json:"uri"`
	}
	if json.Unmarshal(c.Arguments, &args) != nil || args.Server == "" || args.URI == "" {
		return nil, &errs.ToolRejected{Tool: c.Name, Message: `mcp_read_resource needs {"server": "...", "uri": "..."}`}
	}
	endpoint, ok := b.mcpServer(args.Server)
	if !ok {
		return nil, &errs.ToolRejected{Tool: c.Name, Message: "no MCP server " + args.Server + "; the servers are " + b.mcpServerNames()}
	}
	r, err := b.e.resourceReader()
	if err != nil {
		return nil, err
	}
	scope := secret.Scope(c.Tenant, b.site.specName())
	call := c
	call.Tool = spec.Tool{Name: c.Name, Kind: spec.KindMCP, MCP: &endpoint}
	if endpoint.Credential != "" {
		if call.Credential, err = b.e.Secrets.Resolve(ctx, scope, endpoint.Credential); err != nil {
			return nil, err
		}
	}
	if call.Env, err = tool.ResolveEnv(ctx, b.e.Secrets, scope, endpoint.Env); err != nil {
		return nil, err
	}
	return r.ReadResource(ctx, call, args.URI)
}

// mcpServer is the endpoint the Spec names name: an mcp_servers entry,
// or the server of an MCP tool of that name.
func (b builtinCalls) mcpServer(name string) (spec.MCPTool, bool) {
	sv := b.site.sv
	if sv == nil {
		return spec.MCPTool{}, false
	}
	for _, m := range sv.MCPServers {
		if m.Name == name {
			return m.Endpoint(), true
		}
	}
	if t, ok := sv.Tool(name); ok && t.Kind == spec.KindMCP && t.MCP != nil {
		return *t.MCP, true
	}
	return spec.MCPTool{}, false
}

func (b builtinCalls) mcpServerNames() string {
	var names []string
	if sv := b.site.sv; sv != nil {
		for _, m := range sv.MCPServers {
			names = append(names, m.Name)
		}
		for _, t := range sv.Tools {
			if t.Kind == spec.KindMCP && t.MCP != nil && t.MCP.Server == "" {
				names = append(names, t.Name)
			}
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		return "none"
	}
	out := names[0]
	for _, n := range names[1:] {
		out += ", " + n
	}
	return out
}
