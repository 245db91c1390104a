package schema_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runsvc/runsvc/internal/schema"
)

func TestCompileReportsEveryProblem(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "secret.json")
	if err := os.WriteFile(secret, []byte(`{"type":"string"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		schema string
		want   []string // Path: message fragment
	}{
		{"conforming", `{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`, nil},
		{"bad type and required", `{"type":"object","properties":{"q":{"type":"strng"}},"required":["q","missing"]}`,
			[]string{"/properties/q/type: value must be one of", "/required/1: requires \"missing\""}},
		{"two bad keywords", `{"properties":{"a":{"minimum":"x"},"b":{"type":"strng"}}}`,
			[]string{"/properties/a/minimum: got string, want number", "/properties/b/type: value must be one of"}},
		{"bad regexp", `{"properties":{"q":{"pattern":"("}}}`, []string{"/properties/q/pattern: '(' is not valid regex"}},
		{"file ref refused", `{"$ref":"file://` + secret + `"}`, []string{": cannot resolve $ref"}},
		{"not json", `{"type":`, []string{": is not valid JSON"}},
		{"nested required", `{"properties":{"o":{"type":"object","properties":{},"required":["x"]}}}`,
			[]string{"/properties/o/required/0: requires \"x\""}},
		{"property named enum still checked", `{"properties":{"enum":{"properties":{},"required":["y"]}}}`,
			[]string{"/properties/enum/required/0: requires \"y\""}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, probs := schema.Compile([]byte(tc.schema))
			if (s == nil) != (len(tc.want) > 0) {
				t.Fatalf("Compile = %v, %v; want problems %v", s, probs, tc.want)
			}
			if len(probs) != len(tc.want) {
				t.Fatalf("problems = %v, want %d: %v", probs, len(tc.want), tc.want)
			}
			for i, w := range tc.want {
				if got := probs[i].Path + ": " + probs[i].Message; !strings.HasPrefix(got, w) {
					t.Errorf("problem %d = %q, want prefix %q", i, got, w)
				}
			}
		})
	}
}

func TestValidateGivesValueAndSchemaPaths(t *testing.T) {
	s, probs := schema.Compile([]byte(`{"type":"object","properties":{"q":{"type":"string"},"n":{"type":"integer","minimum":1}},"required":["q"],"additionalProperties":false}`))
	if probs != nil {
		t.Fatal(probs)
	}
	tests := []struct {
		name  string
		value string
		want  []string // "path schemaPath"
	}{
		{"conforming", `{"q":"hi","n":2}`, nil},
		{"wrong type and extra", `{"extra":true,"q":42}`, []string{" /additionalProperties", "/q /properties/q/type"}},
		{"missing and too small", `{"n":0}`, []string{" /required", "/n /properties/n/minimum"}},
		{"not an object", `[1]`, []string{" /type"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			probs := s.Validate([]byte(tc.value))
			var got []string
			for _, p := range probs {
				got = append(got, p.Path+" "+p.SchemaPath)
				if p.Message == "" || !strings.Contains(p.String(), p.SchemaPath) {
					t.Errorf("problem %+v has no message or String() %q lacks the schema path", p, p.String())
				}
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("problems = %q, want %q (%v)", got, tc.want, probs)
			}
		})
	}
}
