package engine

import (
	"strings"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/lru"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/schema"
	"github.com/runsvc/runsvc/internal/spec"
)

// schemaCacheSize bounds the Versions whose compiled schemas an Engine
// keeps.
const schemaCacheSize = 4096

// schemas returns the compiled schemas of the Run's Spec Version, compiled
// once per Version and shared by every Attempt of every Run of it.
func (a *attempt) schemas() *spec.Schemas {
	key := lru.Key{Tenant: a.state.Admission.Tenant, ID: a.spec.Name + "\x00" + a.spec.Version}
	if s, ok := a.e.schemaCache.Get(key); ok {
		return s
	}
	s, err := spec.CompileSchemas(a.spec.Spec)
	if err != nil {
		// Published before runsvc compiled schemas at publish: what does
		// not compile is not checked.
		a.log.Warn("a schema of the spec does not compile; it is not applied", "spec", a.spec.Name, "version", a.spec.Version, "err", err)
	}
	a.e.schemaCache.Add(key, s)
	return s
}

// argumentsRejected checks a call's arguments against its tool's declared
// parameters and returns the error the model sees instead of a call, or
// nil when they conform (or the tool declares none).
func (a *attempt) argumentsRejected(c *runlog.Call) error {
	s := a.schemas().Tools[c.Name]
	if s == nil {
		return nil
	}
	problems := s.Validate(c.Arguments)
	if len(problems) == 0 {
		return nil
	}
	return &errs.ToolRejected{Tool: c.Name, Message: "the arguments do not match the tool's parameters, so it was not called: " + describe(problems)}
}

// describe lists problems on one line.
func describe(problems []schema.Problem) string {
	parts := make([]string, len(problems))
	for i, p := range problems {
		parts[i] = p.String()
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
	return spec.OutputViolations(problems)
}

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
