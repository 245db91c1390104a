// Package schema compiles and applies the JSON Schemas a Spec carries: the
// parameters of its tools and the shape of its final answer. It wraps
// github.com/santhosh-tekuri/jsonschema/v6 (draft 2020-12 unless a schema
// names its own $schema) and reports every problem with two paths: where in
// the value it is, and which keyword of the schema refused it.
//
// A schema is self-contained: a $ref may point inside the schema, never at
// a file or a URL, so compiling one reads nothing but its own bytes.
package schema

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Problem is one way a schema or a value is wrong.
type Problem struct {
	// Path is where the problem is, a JSON Pointer into the value checked
	// (into the schema itself when compiling): "" is the whole value,
	// "/properties/q/type" a keyword of it.
	Path string
	// SchemaPath is the keyword that refused the value, a JSON Pointer into
	// the schema applied ("/properties/q/type"); when compiling, the
	// keyword of the draft's meta-schema.
	SchemaPath string
	// Message says what is wrong, in English.
	Message string
}

// String is the problem as one line: "at /q: got number, want string
// (schema /properties/q/type)".
func (p Problem) String() string {
	at := p.Path
	if at == "" {
		at = "the top level"
	}
	if p.SchemaPath == "" {
		return fmt.Sprintf("at %s: %s", at, p.Message)
	}
	return fmt.Sprintf("at %s: %s (schema %s)", at, p.Message, p.SchemaPath)
}

// Schema is a compiled JSON Schema, safe for concurrent use.
type Schema struct {
	s *jsonschema.Schema
}

// resource is the name a schema compiles under; it never leaves the
// process and nothing is loaded from it.
const resource = "runsvc:///schema.json"

var printer = message.NewPrinter(language.English)

// refuseLoader loads nothing: a $ref outside the schema fails to compile
// instead of reading a file or the network.
type refuseLoader struct{}

func (refuseLoader) Load(url string) (any, error) {
	return nil, errors.New("only references inside the schema are allowed")
}

// Compile compiles raw, a JSON Schema document. A schema that is not JSON,
// that breaks its draft's meta-schema, or that cannot be compiled (an
// outside $ref, a bad regular expression) returns every problem found.
func Compile(raw []byte) (*Schema, []Problem) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, []Problem{{Message: "is not valid JSON: " + err.Error()}}
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(refuseLoader{})
	if err := c.AddResource(resource, doc); err != nil {
		return nil, []Problem{{Message: err.Error()}}
	}
	s, err := c.Compile(resource)
	lint := undefinedRequired(doc, "")
	if err == nil && len(lint) == 0 {
		return &Schema{s: s}, nil
	}
	var out []Problem
	var invalid *jsonschema.SchemaValidationError
	var ve *jsonschema.ValidationError
	switch {
	case err == nil:
	case errors.As(err, &invalid) && errors.As(invalid.Err, &ve):
		out = problems(ve, true)
	default:
		out = []Problem{{Message: compileMessage(err)}}
	}
	out = append(out, lint...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return nil, out
}

// undefinedRequired finds, in every subschema that lists properties, the
// required names it does not define: legal JSON Schema, but in a tool's
// parameters always a slip (a model cannot know what to send).
func undefinedRequired(node any, at string) []Problem {
	obj, ok := node.(map[string]any)
	if !ok {
		if arr, isArr := node.([]any); isArr {
			var out []Problem
			for i, v := range arr {
				out = append(out, undefinedRequired(v, fmt.Sprintf("%s/%d", at, i))...)
			}
			return out
		}
		return nil
	}
	var out []Problem
	props, hasProps := obj["properties"].(map[string]any)
	if req, ok := obj["required"].([]any); ok && hasProps {
		for i, r := range req {
			if name, isStr := r.(string); isStr && props[name] == nil {
				out = append(out, Problem{
					Path:    fmt.Sprintf("%s/required/%d", at, i),
					Message: fmt.Sprintf("requires %q, which properties does not define", name),
				})
			}
		}
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		switch k {
		case "const", "enum", "default", "examples", "required":
			continue // values, not subschemas
		case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas":
			byName, _ := obj[k].(map[string]any)
			names := make([]string, 0, len(byName))
			for n := range byName {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				out = append(out, undefinedRequired(byName[n], at+pointer([]string{k, n}))...)
			}
			continue
		}
		out = append(out, undefinedRequired(obj[k], at+pointer([]string{k}))...)
	}
	return out
}

// compileMessage keeps the library's explanation of a compile failure
// without the internal resource name.
func compileMessage(err error) string {
	msg := strings.ReplaceAll(err.Error(), resource, "schema")
	var load *jsonschema.LoadURLError
	if errors.As(err, &load) {
		msg = fmt.Sprintf("cannot resolve $ref %q: only references inside the schema are allowed", load.URL)
	}
	return msg
}

// Validate checks raw, a JSON value, against s and returns every problem,
// or nil when it conforms.
func (s *Schema) Validate(raw []byte) []Problem {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return []Problem{{Message: "is not valid JSON: " + err.Error()}}
	}
	err = s.s.Validate(v)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if errors.As(err, &ve) {
		return problems(ve, false)
	}
	return []Problem{{Message: err.Error()}}
}

// problems flattens a validation error tree into its leaves. The branches
// of a failed anyOf or oneOf all describe one spot, so such a node is one
// problem, told by its first branch. meta says the schema applied is a
// meta-schema, whose own locations mean nothing to the Spec's author.
func problems(root *jsonschema.ValidationError, meta bool) []Problem {
	var out []Problem
	seen := map[string]bool{}
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		switch e.ErrorKind.(type) {
		case *kind.AnyOf, *kind.OneOf:
			if len(e.Causes) > 0 {
				leaf := e.Causes[0]
				for len(leaf.Causes) > 0 {
					leaf = leaf.Causes[0]
				}
				e = leaf
			}
		}
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		p := Problem{Path: pointer(e.InstanceLocation), Message: e.ErrorKind.LocalizedString(printer)}
		if !meta {
			p.SchemaPath = keywordPointer(e)
		}
		if key := p.Path + "\x00" + p.Message; !seen[key] {
			seen[key] = true
			out = append(out, p)
		}
	}
	walk(root)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// keywordPointer is the failing keyword's place in the applied schema.
func keywordPointer(e *jsonschema.ValidationError) string {
	base := e.SchemaURL
	if i := strings.IndexByte(base, '#'); i >= 0 {
		base = base[i+1:]
	} else {
		base = ""
	}
	return base + pointer(e.ErrorKind.KeywordPath())
}

// pointer encodes tokens as a JSON Pointer (RFC 6901).
func pointer(tokens []string) string {
	var sb strings.Builder
	for _, t := range tokens {
		sb.WriteByte('/')
		t = strings.ReplaceAll(t, "~", "~0")
		sb.WriteString(strings.ReplaceAll(t, "/", "~1"))
	}
	return sb.String()
}
