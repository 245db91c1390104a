package schema_test

import (
	"fmt"

	"github.com/runsvc/runsvc/internal/schema"
)

// A schema with mistakes reports each of them, at its place in the schema.
func ExampleCompile() {
	_, problems := schema.Compile([]byte(`{"type": "object", "properties": {"q": {"type": "strng"}}, "required": ["q", "missing"]}`))
	for _, p := range problems {
		fmt.Println(p)
	}
	// Output:
	// at /properties/q/type: value must be one of 'array', 'boolean', 'integer', 'null', 'number', 'object', 'string'
	// at /required/1: requires "missing", which properties does not define
}

// A value that does not match says where, and which keyword refused it.
func ExampleSchema_Validate() {
	s, _ := schema.Compile([]byte(`{"type": "object", "properties": {"q": {"type": "string"}}, "additionalProperties": false}`))
	for _, p := range s.Validate([]byte(`{"extra": true, "q": 42}`)) {
		fmt.Println(p)
	}
	// Output:
	// at the top level: additional properties 'extra' not allowed (schema /additionalProperties)
	// at /q: got number, want string (schema /properties/q/type)
}
