package spec_test

import (
	"strings"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/spec"
)

// withMCP is the valid Spec with a token credential, the stdio tool t
// and the MCP servers ms.
func withMCP(t *spec.MCPTool, ms ...spec.MCPServer) func() spec.Spec {
	return func() spec.Spec {
		s := valid()
		s.Credentials = []string{"tok"}
		if t != nil {
			s.Tools = []spec.Tool{{Name: "files", Kind: spec.KindMCP, MCP: t}}
		}
		s.MCPServers = ms
		return s
	}
}

func TestValidateMCPAcceptsValidSpecs(t *testing.T) {
	tests := []struct {
		name string
		spec func() spec.Spec
	}{
		{"stdio tool with a literal and a credential variable", withMCP(&spec.MCPTool{Command: "npx", Args: []string{"-y", "server"}, Env: []spec.EnvVar{{Name: "MODE", Value: "ro"}, {Name: "API_TOKEN", Credential: "tok"}}})},
		{"http server importing everything", withMCP(nil, spec.MCPServer{Name: "remote", URL: "https://mcp.example.com/mcp", Credential: "tok", Import: []string{"*"}})},
		{"stdio server importing by name, and a tool it imported", func() spec.Spec {
			s := withMCP(nil, spec.MCPServer{Name: "local", Command: "mcp-server", Import: []string{"read", "write"}})()
			s.Tools = []spec.Tool{{Name: "read", Kind: spec.KindMCP, MCP: &spec.MCPTool{Command: "mcp-server", Server: "local"}}}
			return s
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if vs := violations(t, tt.spec(), lookupFrom(nil)); len(vs) > 0 {
				t.Fatalf("violations: %s", describe(vs))
			}
		})
	}
}

func TestValidateMCPRules(t *testing.T) {
	srv := func(m spec.MCPServer) func() spec.Spec {
		if m.Name == "" {
			m.Name = "local"
		}
		if m.URL == "" && m.Command == "" {
			m.Command = "mcp-server"
		}
		if m.Import == nil {
			m.Import = []string{"*"}
		}
		return withMCP(nil, m)
	}
	tests := []struct {
		name     string
		spec     func() spec.Spec
		field    string
		contains string
	}{
		{"tool with neither url nor command", withMCP(&spec.MCPTool{}), "tools[0].mcp.url", "url (streamable HTTP) or a command"},
		{"tool with both", withMCP(&spec.MCPTool{URL: "https://x", Command: "y"}), "tools[0].mcp.command", "not both"},
		{"args without a command", withMCP(&spec.MCPTool{URL: "https://x", Args: []string{"a"}}), "tools[0].mcp.command", "need a command"},
		{"stdio with a bearer credential", withMCP(&spec.MCPTool{Command: "y", Credential: "tok"}), "tools[0].mcp.credential", "pass it in env"},
		{"env name invalid", withMCP(&spec.MCPTool{Command: "y", Env: []spec.EnvVar{{Name: "1X", Value: "v"}}}), "tools[0].mcp.env[0].name", "1X"},
		{"env name twice", withMCP(&spec.MCPTool{Command: "y", Env: []spec.EnvVar{{Name: "X", Value: "v"}, {Name: "X", Value: "w"}}}), "tools[0].mcp.env[1].name", "twice"},
		{"env with value and credential", withMCP(&spec.MCPTool{Command: "y", Env: []spec.EnvVar{{Name: "X", Value: "v", Credential: "tok"}}}), "tools[0].mcp.env[0]", "exactly one"},
		{"env credential not declared", withMCP(&spec.MCPTool{Command: "y", Env: []spec.EnvVar{{Name: "X", Credential: "other"}}}), "tools[0].mcp.env[0].credential", "other"},
		{"server without a name", srv(spec.MCPServer{Name: "!"}), "mcp_servers[0].name", "letters"},
		{"server with a bad url", srv(spec.MCPServer{URL: "localhost:1"}), "mcp_servers[0].url", "localhost:1"},
		{"server importing nothing", srv(spec.MCPServer{Import: []string{}}), "mcp_servers[0].import", "required"},
		{"star beside a name", srv(spec.MCPServer{Import: []string{"*", "a"}}), "mcp_servers[0].import[0]", "no other name"},
		{"import name invalid", srv(spec.MCPServer{Import: []string{"a b"}}), "mcp_servers[0].import[0]", "a b"},
		{"timeout too long", srv(spec.MCPServer{Timeout: 31 * time.Minute}), "mcp_servers[0].timeout", "between"},
		{"import name twice", srv(spec.MCPServer{Import: []string{"a", "a"}}), "mcp_servers[0].import[1]", "twice"},
		{"tool from an unknown server", func() spec.Spec {
			s := srv(spec.MCPServer{})()
			s.Tools = []spec.Tool{{Name: "read", Kind: spec.KindMCP, MCP: &spec.MCPTool{Command: "x", Server: "elsewhere"}}}
			return s
		}, "tools[0].mcp.server", "elsewhere"},
		{"two servers of one name", func() spec.Spec {
			s := srv(spec.MCPServer{})()
			s.MCPServers = append(s.MCPServers, s.MCPServers[0])
			return s
		}, "mcp_servers[1].name", "mcp_servers[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vs := violations(t, tt.spec(), lookupFrom(nil))
			if len(vs) != 1 || vs[0].Field != tt.field {
				t.Fatalf("violations = %s\nwant exactly one, of %s", describe(vs), tt.field)
			}
			if !strings.Contains(vs[0].Description, tt.contains) {
				t.Errorf("description %q does not mention %q", vs[0].Description, tt.contains)
			}
		})
	}
}
