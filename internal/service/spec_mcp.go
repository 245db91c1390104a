package service

import (
	"fmt"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/spec"
)

// mcpToolFromProto converts a tool's mcp settings.
func mcpToolFromProto(mc *runsvcv1.McpTool) *spec.MCPTool {
	return &spec.MCPTool{
		URL: mc.GetUrl(), RemoteName: mc.GetRemoteName(), Credential: mc.GetCredential(),
		Command: mc.GetCommand(), Args: mc.GetArgs(), Env: envFromProto(mc.GetEnv()), Server: mc.GetServer(),
	}
}

func mcpToolToProto(mc *spec.MCPTool) *runsvcv1.McpTool {
	return &runsvcv1.McpTool{
		Url: mc.URL, RemoteName: mc.RemoteName, Credential: mc.Credential,
		Command: mc.Command, Args: mc.Args, Env: envToProto(mc.Env), Server: mc.Server,
	}
}

func mcpServersFromProto(ps []*runsvcv1.McpServer, bad *[]errs.FieldViolation) []spec.MCPServer {
	var out []spec.MCPServer
	for i, p := range ps {
		out = append(out, spec.MCPServer{
			Name: p.GetName(), URL: p.GetUrl(), Credential: p.GetCredential(),
			Command: p.GetCommand(), Args: p.GetArgs(), Env: envFromProto(p.GetEnv()), Import: p.GetImport(),
			Timeout: durationField(fmt.Sprintf("mcp_servers[%d].timeout", i), p.GetTimeout(), bad),
		})
	}
	return out
}

func mcpServersToProto(ms []spec.MCPServer) []*runsvcv1.McpServer {
	var out []*runsvcv1.McpServer
	for _, m := range ms {
		out = append(out, &runsvcv1.McpServer{
			Name: m.Name, Url: m.URL, Credential: m.Credential,
			Command: m.Command, Args: m.Args, Env: envToProto(m.Env), Import: m.Import, Timeout: dur(m.Timeout),
		})
	}
	return out
}

func envFromProto(ps []*runsvcv1.McpEnv) []spec.EnvVar {
	var out []spec.EnvVar
	for _, p := range ps {
		out = append(out, spec.EnvVar{Name: p.GetName(), Value: p.GetValue(), Credential: p.GetCredential()})
	}
	return out
}

func envToProto(es []spec.EnvVar) []*runsvcv1.McpEnv {
	var out []*runsvcv1.McpEnv
	for _, e := range es {
		out = append(out, &runsvcv1.McpEnv{Name: e.Name, Value: e.Value, Credential: e.Credential})
	}
	return out
}
