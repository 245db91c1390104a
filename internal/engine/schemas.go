package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"strings"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/lru"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/schema"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/tool"
)

// schemaCacheSize bounds the Versions whose compiled schemas an Engine
// keeps.
const schemaCacheSize = 4096

// schemas returns the compiled schemas of the Run's Spec Version.
func (a *attempt) schemas() *spec.Schemas {
	return a.e.compiledSchemas(a.log, a.state.Admission.Tenant, a.spec)
}

// compiledSchemas returns the compiled schemas of the tenant's Spec
// Version sv, compiled once per Version and shared by every Attempt of
// every Run of it and by InvokeTool.
func (e *Engine) compiledSchemas(log *slog.Logger, tenant string, sv *spec.Version) *spec.Schemas {
	key := lru.Key{Tenant: tenant, ID: sv.Name + "\x00" + sv.Version}
	if s, ok := e.schemaCache.Get(key); ok {
		return s
	}
	s, err := spec.CompileSchemas(sv.Spec)
	if err != nil {
		// Published before runsvc compiled schemas at publish: what does
		// not compile is not checked.
		log.Warn("a schema of the spec does not compile; it is not applied", "spec", sv.Name, "version", sv.Version, "err", err)
	}
	e.schemaCache.Add(key, s)
	return s
}

// argumentsRejected checks a call's arguments against its tool's
// parameters (argumentsRejected at the Run's site), except for a call
// already started.
func (a *attempt) argumentsRejected(ctx context.Context, c *runlog.Call, decl spec.Tool) error {
	if c.StartedAttempt != 0 {
		// Checked before it started: a call in flight (perhaps in doubt)
		// is never answered "not called".
		return nil
	}
	return a.e.argumentsRejected(ctx, a.site(), decl, c.Name, c.Arguments)
}

// argumentsRejected checks the arguments of a call to decl made at site
// against the tool's parameters (the Spec's, or else those its provider
// describes) and returns the error the caller sees instead of a call, or
// nil when they conform (or no schema is known).
func (e *Engine) argumentsRejected(ctx context.Context, site callSite, decl spec.Tool, name string, args []byte) error {
	var s *schema.Schema
	if site.sv != nil {
		s = e.compiledSchemas(site.log, site.tenant, site.sv).Tools[name]
	}
	if s == nil {
		s = e.describedSchema(ctx, site.log, site.tenant, decl)
	}
	if s == nil {
		return nil
	}
	problems := s.Validate(args)
	if len(problems) == 0 {
		return nil
	}
	return &errs.ToolRejected{Tool: name, Message: "the arguments do not match the tool's parameters, so it was not called: " + describe(problems)}
}

// describe lists problems on one line, at most maxListed of them.
func describe(problems []schema.Problem) string {
	parts := make([]string, 0, min(len(problems), maxListed)+1)
	for _, p := range problems[:min(len(problems), maxListed)] {
		parts = append(parts, p.String())
	}
	if more := len(problems) - maxListed; more > 0 {
		parts = append(parts, fmt.Sprintf("and %d more", more))
	}
	return strings.Join(parts, "; ")
}

// outputViolations checks a final answer against the Spec's output schema
// and returns its mismatches, each at the answer's JSON path; none when it
// conforms or the Spec has no schema. An answer wrapped in a Markdown code
// fence is read without the fence.
func (a *attempt) outputViolations(text string) []errs.FieldViolation {
	s := a.schemas().Output
	if s == nil {
		return nil
	}
	problems := s.Validate([]byte(unfence(text)))
	if len(problems) == 0 {
		return nil
	}
	out := spec.OutputViolations(problems[:min(len(problems), maxListed)])
	if more := len(problems) - maxListed; more > 0 {
		out = append(out, errs.FieldViolation{Field: "answer", Description: fmt.Sprintf("and %d more mismatches", more)})
	}
	return out
}

// maxListed bounds the mismatches a record, a tool result or a re-ask
// lists; the rest are counted.
const maxListed = 20

// unfence strips a Markdown code fence (```json ... ```) around text.
func unfence(text string) string {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "```") || !strings.HasSuffix(t, "```") || len(t) < 6 {
		return t
	}
	t = strings.TrimSuffix(strings.TrimPrefix(t, "```"), "```")
	if nl := strings.IndexByte(t, '\n'); nl >= 0 && !strings.ContainsAny(t[:nl], "{[\"") {
		t = t[nl+1:] // the fence's language tag
	}
	return strings.TrimSpace(t)
}

// described fills in what the Spec leaves out of a tool's declaration (its
// description, its parameters) from what the tool's provider says: a
// worker's registration today, an MCP server's listing later. The Spec's
// own words win.
func (a *attempt) described(ctx context.Context, t spec.Tool) spec.Tool {
	if t.Description != "" && len(t.Parameters) > 0 {
		return t
	}
	d, ok := a.describe(ctx, t)
	if !ok {
		return t
	}
	if t.Description == "" {
		t.Description = d.Description
	}
	if len(t.Parameters) == 0 {
		t.Parameters = d.Parameters
	}
	return t
}

// describe asks the executor of t's kind what it knows of t.
func (a *attempt) describe(ctx context.Context, t spec.Tool) (tool.Description, bool) {
	return a.e.describe(ctx, a.log, a.state.Admission.Tenant, t)
}

// describe asks the executor of t's kind what it knows of the tenant's t.
func (e *Engine) describe(ctx context.Context, log *slog.Logger, tenant string, t spec.Tool) (tool.Description, bool) {
	x, ok := e.Tools[t.Kind].(tool.Describer)
	if !ok || t.Kind == spec.KindBuiltin {
		return tool.Description{}, false
	}
	d, ok, err := x.Describe(ctx, tenant, t.Name)
	if err != nil {
		log.Warn("describing a tool failed; the model sees the Spec's declaration only", "tool", t.Name, "err", err)
		return tool.Description{}, false
	}
	return d, ok
}

// describedSchema is the compiled schema a tool's provider describes, for
// a tool whose Spec entry declares none; nil when none is known or it does
// not compile. Compiled schemas are cached by content.
func (e *Engine) describedSchema(ctx context.Context, log *slog.Logger, tenant string, decl spec.Tool) *schema.Schema {
	if len(decl.Parameters) > 0 {
		return nil
	}
	d, ok := e.describe(ctx, log, tenant, decl)
	if !ok || len(d.Parameters) == 0 {
		return nil
	}
	sum := sha256.Sum256(d.Parameters)
	key := lru.Key{Tenant: tenant, ID: "described\x00" + hex.EncodeToString(sum[:])}
	if s, ok := e.describedCache.Get(key); ok {
		return s
	}
	s, problems := schema.Compile(d.Parameters)
	if s == nil {
		log.Warn("a tool's registered schema does not compile; its arguments are not checked", "tool", decl.Name, "problems", describe(problems))
	}
	e.describedCache.Add(key, s)
	return s
}
