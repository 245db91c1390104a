package mcptool

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/secret"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/tool"
)

// maxListed bounds the tools read from one server's tools/list.
const maxListed = 1024

// Importer lists the tools of the MCP servers a Spec imports, at publish,
// on the Executor's sessions: a stdio server started to list its tools
// stays up for the Runs that call them.
type Importer struct {
	Executor *Executor
	// Secrets resolves the server's credential and environment in the
	// Spec's scope.
	Secrets secret.Resolver
}

// ImportTools lists every tool of server (tools/list, all pages) as an
// mcp tool of the Spec named specName: the server's name for the tool, its
// description and its input schema, and the server's settings with
// mcp.server set to its name. Failing to reach the server is
// *errs.MCPFailed when another try may work and *errs.MCPRejected when
// not; a credential that does not resolve is *errs.CredentialNotFound.
func (i Importer) ImportTools(ctx context.Context, tenant, specName string, server spec.MCPServer) ([]spec.Tool, error) {
	ep := server.Endpoint()
	c := tool.Call{Tenant: tenant, Name: "tools/list", Tool: spec.Tool{Name: server.Name, Kind: spec.KindMCP, MCP: &ep}}
	scope := secret.Scope(tenant, specName)
	if ep.Credential != "" {
		v, err := i.Secrets.Resolve(ctx, scope, ep.Credential)
		if err != nil {
			return nil, err
		}
		c.Credential = v
	}
	env, err := tool.ResolveEnv(ctx, i.Secrets, scope, ep.Env)
	if err != nil {
		return nil, err
	}
	c.Env = env
	listed, err := i.Executor.list(ctx, c)
	if err != nil {
		return nil, err
	}
	out := make([]spec.Tool, 0, len(listed))
	for _, t := range listed {
		params, err := json.Marshal(t.InputSchema)
		if err != nil || t.InputSchema == nil {
			params = json.RawMessage(`{"type":"object"}`)
		}
		desc := t.Description
		if desc == "" {
			desc = t.Title
		}
		mcpTool := ep
		out = append(out, spec.Tool{Name: t.Name, Kind: spec.KindMCP, Description: desc, Parameters: params, MCP: &mcpTool})
	}
	return out, nil
}

// AllowCommand is nil when stdio servers may be run as command, else
// *errs.AccessDenied about subject (see Executor.AllowCommand).
func (i Importer) AllowCommand(subject, command string) error {
	return i.Executor.AllowCommand(subject, command)
}

// list reads the tools of c's server, on its session, establishing it
// again once when it was lost.
func (x *Executor) list(ctx context.Context, c tool.Call) ([]*mcp.Tool, error) {
	if c.Tool.MCP.Stdio() == usableURL(c.Tool.MCP.URL) {
		return nil, &errs.ConfigurationInvalid{Subject: "MCP server " + c.Tool.Name, Description: "an MCP server needs an http or https url or a command"}
	}
	if err := x.AllowCommand("MCP server "+c.Tool.Name, c.Tool.MCP.Command); err != nil {
		return nil, err
	}
	k := keyOf(c)
	for attempt := 0; ; attempt++ {
		p := new(probe)
		cs, err := x.session(ctx, k, p)
		if err == nil {
			var tools []*mcp.Tool
			tools, err = listAll(withProbe(ctx, p), cs)
			if err == nil {
				return tools, nil
			}
		}
		if denied := refusal(c, err, p); denied != nil {
			return nil, denied
		}
		v := x.judge(k, err, p)
		if ctx.Err() == nil && v.drop && cs != nil {
			x.drop(k, cs)
		}
		if ctx.Err() == nil && v.drop && v.retryable && attempt == 0 {
			continue // listing runs nothing: it is safe to ask again
		}
		v.message = fmt.Sprintf("listing the tools of MCP server %q: %s", c.Tool.Name, v.message)
		return nil, report(ctx, c, v)
	}
}

func listAll(ctx context.Context, cs *mcp.ClientSession) ([]*mcp.Tool, error) {
	var out []*mcp.Tool
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		out = append(out, t)
		if len(out) >= maxListed {
			break
		}
	}
	return out, nil
}
