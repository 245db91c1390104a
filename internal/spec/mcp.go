package spec

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
)

// MCPServer is an MCP server a Spec imports tools from. At publish runsvc
// lists the server's tools (tools/list) and adds those Import names (or
// all of them, for "*") to the Spec's Tools as mcp tools, with the
// descriptions and input schemas the server gave, so the Version lists
// them and the model sees them.
//
// The server is reached over streamable HTTP at URL, or run by runsvc as
// Command with Args and Env and spoken to over stdio: one process per
// tenant and server, started when first needed, started again after it
// dies, stopped when runsvc stops.
type MCPServer struct {
	Name       string   `json:"name"`
	URL        string   `json:"url,omitempty"`
	Credential string   `json:"credential,omitempty"`
	Command    string   `json:"command,omitempty"`
	Args       []string `json:"args,omitempty"`
	Env        []EnvVar `json:"env,omitempty"`
	Import     []string `json:"import"`
	// Timeout is every imported tool's Timeout.
	Timeout time.Duration `json:"timeout,omitempty"`
}

// EnvVar is an environment variable of a stdio MCP server: a literal
// Value, or the value of the declared Credential.
type EnvVar struct {
	Name       string `json:"name"`
	Value      string `json:"value,omitempty"`
	Credential string `json:"credential,omitempty"`
}

// ImportAll in MCPServer.Import imports every tool of the server.
const ImportAll = "*"

// Endpoint is where the server's imported tools live: their mcp settings.
func (m MCPServer) Endpoint() MCPTool {
	return MCPTool{URL: m.URL, Credential: m.Credential, Command: m.Command, Args: m.Args, Env: m.Env, Server: m.Name}
}

// Label names the tool's server in errors: its URL, or "stdio:" and its
// command line.
func (t MCPTool) Label() string {
	if t.Command == "" {
		return t.URL
	}
	line := strings.Join(append([]string{t.Command}, t.Args...), " ")
	if len(line) > 200 {
		line = line[:200] + "…"
	}
	return "stdio:" + line
}

// Stdio reports whether runsvc runs the tool's server as a command.
func (t MCPTool) Stdio() bool { return t.Command != "" }

// Credentials lists the credentials the tool's server needs: its bearer
// token and its environment's.
func (t MCPTool) Credentials() []string {
	var out []string
	if t.Credential != "" {
		out = append(out, t.Credential)
	}
	for _, e := range t.Env {
		if e.Credential != "" {
			out = append(out, e.Credential)
		}
	}
	return out
}

var envNamePattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,127}$`)

// Limits of MCP server entries.
const (
	maxMCPServers = 32
	maxMCPArgs    = 256
	maxMCPEnv     = 128
)

// mcpEndpoint checks the settings of an mcp tool or server at path: a URL
// or a command, not both.
func (v *validator) mcpEndpoint(path string, m MCPTool, credential func(string, string)) {
	switch {
	case m.URL == "" && m.Command == "":
		v.add(path+".url", "an MCP server needs a url (streamable HTTP) or a command (stdio)")
	case m.URL != "" && m.Command != "":
		v.add(path+".command", "give a url or a command, not both")
	case m.URL != "":
		v.url(path+".url", m.URL, true)
		credential(path+".credential", m.Credential)
	}
	if m.Command == "" && (len(m.Args) > 0 || len(m.Env) > 0) {
		v.add(path+".command", "args and env need a command")
	}
	if m.Command != "" && m.Credential != "" {
		v.add(path+".credential", "a stdio server takes no bearer credential; pass it in env")
	}
	if len(m.Args) > maxMCPArgs {
		v.add(path+".args", "has %d arguments; at most %d are allowed", len(m.Args), maxMCPArgs)
	}
	if len(m.Env) > maxMCPEnv {
		v.add(path+".env", "has %d variables; at most %d are allowed", len(m.Env), maxMCPEnv)
	}
	seen := map[string]bool{}
	for i, e := range m.Env[:min(len(m.Env), maxMCPEnv)] {
		p := fmt.Sprintf("%s.env[%d]", path, i)
		switch {
		case !envNamePattern.MatchString(e.Name):
			v.add(p+".name", "%q is not an environment variable name (letters, digits and '_', not starting with a digit)", e.Name)
		case seen[e.Name]:
			v.add(p+".name", "%q is set twice", e.Name)
		}
		seen[e.Name] = true
		if (e.Value == "") == (e.Credential == "") {
			v.add(p, "give a value or a credential, exactly one")
		}
		credential(p+".credential", e.Credential)
	}
}

// mcpServers checks the Spec's MCP server entries and the tools that say
// they were imported from one.
func (v *validator) mcpServers(s Spec, credential func(string, string)) {
	if len(s.MCPServers) > maxMCPServers {
		v.add("mcp_servers", "has %d servers; at most %d are allowed", len(s.MCPServers), maxMCPServers)
	}
	names := map[string]int{}
	for i, m := range s.MCPServers[:min(len(s.MCPServers), maxMCPServers)] {
		p := fmt.Sprintf("mcp_servers[%d]", i)
		switch first, dup := names[m.Name]; {
		case m.Name == "":
			v.add(p+".name", "is required")
		case !toolNamePattern.MatchString(m.Name):
			v.add(p+".name", "%q must hold only letters, digits, '_' and '-' (1 to 64)", m.Name)
		case dup:
			v.add(p+".name", "duplicates mcp_servers[%d].name %q", first, m.Name)
		default:
			names[m.Name] = i
		}
		v.mcpEndpoint(p, m.Endpoint(), credential)
		v.imports(p+".import", m.Import)
		if m.Timeout < 0 || m.Timeout > maxToolTimeout {
			v.add(p+".timeout", "must be between 0 and %s", maxToolTimeout)
		}
	}
	for i, t := range s.Tools {
		if t.MCP == nil || t.MCP.Server == "" {
			continue
		}
		if _, ok := names[t.MCP.Server]; !ok {
			v.add(fmt.Sprintf("tools[%d].mcp.server", i), "%q names no entry of mcp_servers", t.MCP.Server)
		}
	}
}

func (v *validator) imports(path string, names []string) {
	if len(names) == 0 {
		v.add(path, `is required: the names of the tools to import, or "*" for all`)
	}
	for j, n := range names {
		switch {
		case n == ImportAll && len(names) > 1:
			v.add(fmt.Sprintf("%s[%d]", path, j), `"*" imports every tool; list no other name beside it`)
		case n != ImportAll && !toolNamePattern.MatchString(n):
			v.add(fmt.Sprintf("%s[%d]", path, j), "%q is not a tool name (letters, digits, '_' and '-', 1 to 64)", n)
		case slices.Index(names, n) < j:
			v.add(fmt.Sprintf("%s[%d]", path, j), "%q is listed twice", n)
		}
	}
}
