package versions

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/spec"
)

// Importer lists the tools of an MCP server a Spec imports (see
// spec.MCPServer): every tool the server has, as mcp tools of the Spec.
type Importer interface {
	ImportTools(ctx context.Context, tenant, specName string, server spec.MCPServer) ([]spec.Tool, error)
	// AllowCommand is nil when stdio servers may be run as command, else
	// *errs.AccessDenied about subject.
	AllowCommand(subject, command string) error
}

// checkCommands refuses a Spec naming a stdio server command the operator
// does not allow: nothing would ever run it.
func (r *Registry) checkCommands(s spec.Spec) error {
	if r.importer == nil {
		return nil
	}
	for _, t := range s.Tools {
		if t.MCP != nil {
			if err := r.importer.AllowCommand("tool "+t.Name, t.MCP.Command); err != nil {
				return err
			}
		}
	}
	for _, m := range s.MCPServers {
		if err := r.importer.AllowCommand("MCP server "+m.Name, m.Command); err != nil {
			return err
		}
	}
	return nil
}

// withoutImported drops the tools a previous publish imported from one of
// s's servers, so that republishing a Version imports them anew.
func withoutImported(s spec.Spec) spec.Spec {
	if len(s.MCPServers) == 0 {
		return s
	}
	servers := map[string]bool{}
	for _, m := range s.MCPServers {
		servers[m.Name] = true
	}
	var kept []spec.Tool
	for _, t := range s.Tools {
		if t.MCP == nil || !servers[t.MCP.Server] {
			kept = append(kept, t)
		}
	}
	s.Tools = kept
	return s
}

// imports adds the tools s imports from its MCP servers to s.Tools. A
// name the server does not have, or that another tool of the Spec
// already has, is *errs.SpecInvalid.
func (r *Registry) imports(ctx context.Context, tenant string, s spec.Spec) (spec.Spec, error) {
	if len(s.MCPServers) == 0 {
		return s, nil
	}
	if r.importer == nil {
		return s, &errs.DependencyMissing{Dependency: "MCP imports", Description: "this runsvc cannot list the tools of MCP servers"}
	}
	taken := map[string]string{}
	for i, t := range s.Tools {
		taken[t.Name] = fmt.Sprintf("tools[%d]", i)
	}
	var bad []errs.FieldViolation
	tools := append([]spec.Tool(nil), s.Tools...)
	for i, m := range s.MCPServers {
		listed, err := r.importer.ImportTools(ctx, tenant, s.Name, m)
		if err != nil {
			return s, err
		}
		chosen, missing := choose(listed, m.Import)
		for _, j := range missing {
			bad = append(bad, errs.FieldViolation{
				Field:       fmt.Sprintf("mcp_servers[%d].import[%d]", i, j),
				Description: fmt.Sprintf("MCP server %q has no tool %q; it has %s", m.Name, m.Import[j], names(listed)),
			})
		}
		for _, t := range chosen {
			if where, dup := taken[t.Name]; dup {
				bad = append(bad, errs.FieldViolation{
					Field:       fmt.Sprintf("mcp_servers[%d].import", i),
					Description: fmt.Sprintf("the imported tool %q has the name of %s", t.Name, where),
				})
				continue
			}
			taken[t.Name] = fmt.Sprintf("mcp_servers[%d]", i)
			t.Timeout = m.Timeout
			tools = append(tools, t)
		}
	}
	if len(bad) > 0 {
		return s, &errs.SpecInvalid{Spec: s.Name, Violations: bad}
	}
	s.Tools = tools
	return spec.Canonical(s), nil
}

// choose picks the tools import names, in the server's order, and the
// indexes of the names the server does not have.
func choose(listed []spec.Tool, names []string) ([]spec.Tool, []int) {
	if len(names) == 1 && names[0] == spec.ImportAll {
		return listed, nil
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	var out []spec.Tool
	have := map[string]bool{}
	for _, t := range listed {
		have[t.Name] = true
		if want[t.Name] {
			out = append(out, t)
		}
	}
	var missing []int
	for j, n := range names {
		if !have[n] {
			missing = append(missing, j)
		}
	}
	return out, missing
}

// names lists tools' names for a message, at most 20.
func names(tools []spec.Tool) string {
	var ns []string
	for _, t := range tools {
		ns = append(ns, t.Name)
	}
	sort.Strings(ns)
	if len(ns) == 0 {
		return "none"
	}
	if len(ns) > 20 {
		return strings.Join(ns[:20], ", ") + fmt.Sprintf(" and %d more", len(ns)-20)
	}
	return strings.Join(ns, ", ")
}

// imported is s with its imports added and validated again, so imported
// tools pass the checks declared ones do (names, schemas, the number of
// tools).
func (r *Registry) imported(ctx context.Context, tenant string, s spec.Spec, lookup spec.Lookup) (spec.Spec, error) {
	if len(s.MCPServers) == 0 {
		return s, nil
	}
	out, err := r.imports(ctx, tenant, s)
	if err != nil {
		return s, err
	}
	if err := spec.Validate(out, lookup); err != nil {
		return s, err
	}
	return out, nil
}
