package mcptool

import (
	"encoding/json"
	"testing"
)

// TestContentOf: a person's answer becomes the elicitation's content: a
// JSON object as it is, else the only field's value of its type.
func TestContentOf(t *testing.T) {
	str := []property{{name: "colour", typ: "string"}}
	tests := []struct {
		name   string
		answer string
		props  []property
		want   string
		ok     bool
	}{
		{"text for a string field", "blue", str, `{"colour":"blue"}`, true},
		{"a number field", " 42 ", []property{{name: "n", typ: "integer"}}, `{"n":42}`, true},
		{"not a number", "many", []property{{name: "n", typ: "number"}}, ``, false},
		{"a boolean field", "True", []property{{name: "yes", typ: "boolean"}}, `{"yes":true}`, true},
		{"a JSON object", `{"a": 1, "b": "x"}`, []property{{name: "a"}, {name: "b"}}, `{"a":1,"b":"x"}`, true},
		{"text for several fields", "blue", []property{{name: "a"}, {name: "b"}}, ``, false},
		{"no fields", "ok", nil, `{}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := contentOf(tt.answer, tt.props)
			raw, _ := json.Marshal(got)
			if ok != tt.ok || (ok && string(raw) != tt.want) {
				t.Fatalf("contentOf(%q) = %s, %v; want %s, %v", tt.answer, raw, ok, tt.want, tt.ok)
			}
		})
	}
	if q := questionOf("Who?", []property{{name: "email"}, {name: "name"}}); q != "Who? (answer with a JSON object of email, name)" {
		t.Fatalf("questionOf several fields: %q", q)
	}
}
