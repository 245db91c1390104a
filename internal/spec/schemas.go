package spec

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/schema"
)

// Schemas are a Spec's JSON Schemas, compiled: the parameters of each tool
// that declares them and the final answer's. Compile them once per
// Version (they never change) and share them: they are safe for
// concurrent use.
type Schemas struct {
	// Tools holds the compiled parameters by tool name; a tool without
	// parameters has none.
	Tools map[string]*schema.Schema
	// Output is the final answer's schema, or nil.
	Output *schema.Schema
}

// CompileSchemas compiles a Spec's schemas. When one does not compile
// (which a Spec that passed Validate never does, but a Version published
// by an older runsvc may), it returns the others and *errs.SpecInvalid
// listing every problem.
func CompileSchemas(s Spec) (*Schemas, error) {
	out := &Schemas{Tools: map[string]*schema.Schema{}}
	v := &validator{}
	for i, t := range s.Tools {
		t = t.WithA2ADefaults()
		if len(t.Parameters) == 0 {
			continue
		}
		if c := v.compile(fmt.Sprintf("tools[%d].parameters", i), t.Parameters); c != nil {
			out.Tools[t.Name] = c
		}
	}
	if s.Output != nil && len(s.Output.Schema) > 0 {
		out.Output = v.compile("output.schema", s.Output.Schema)
	}
	if len(v.violations) > 0 {
		return out, &errs.SpecInvalid{Spec: s.Name, Violations: v.violations}
	}
	return out, nil
}

// compile compiles a schema found at path, adding one violation per
// problem: the field is the problem's place in the Spec, the description
// says what is wrong and where in the schema.
func (v *validator) compile(path string, raw json.RawMessage) *schema.Schema {
	c, problems := schema.Compile(raw)
	for _, p := range problems {
		at := p.Path
		if at == "" {
			at = "/"
		}
		v.add(path+DottedPath(p.Path), "%s (schema path %s)", p.Message, at)
	}
	return c
}

// DottedPath renders a JSON Pointer as the dotted suffix of a field path:
// "/properties/q/type" is ".properties.q.type", "/required/1" is
// ".required[1]" and "" is "".
func DottedPath(pointer string) string {
	if pointer == "" {
		return ""
	}
	var sb strings.Builder
	for _, tok := range strings.Split(pointer[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		if _, err := strconv.Atoi(tok); err == nil {
			sb.WriteString("[" + tok + "]")
			continue
		}
		sb.WriteString("." + tok)
	}
	return sb.String()
}

// OutputViolations turns an answer's mismatches with the output schema
// into field violations: the field is the answer's JSON path ("answer",
// "answer.items[2].name"), the description says what is wrong and which
// keyword of the schema refused it.
func OutputViolations(problems []schema.Problem) []errs.FieldViolation {
	out := make([]errs.FieldViolation, 0, len(problems))
	for _, p := range problems {
		desc := p.Message
		if p.SchemaPath != "" {
			desc += " (schema path " + p.SchemaPath + ")"
		}
		out = append(out, errs.FieldViolation{Field: "answer" + DottedPath(p.Path), Description: desc})
	}
	return out
}
