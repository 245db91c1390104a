package errs

import "fmt"

// OutputInvalid is a Run's final answer that does not match its Spec's
// output schema, still after the model was asked again with the
// mismatches. Each violation's field is the answer's JSON path
// ("answer.items[2].name").
type OutputInvalid struct {
	Spec       string           `meta:"spec"`
	Violations []FieldViolation `meta:"violationCount"`
}

// Error returns the error's message.
func (e *OutputInvalid) Error() string {
	return fmt.Sprintf("the final answer does not match the output schema of spec '%s': %s", e.Spec, describeViolations("", e.Violations))
}

// FieldViolations returns the answer's mismatches.
func (e *OutputInvalid) FieldViolations() []FieldViolation { return e.Violations }

// SetFieldViolations implements ViolationSetter.
func (e *OutputInvalid) SetFieldViolations(vs []FieldViolation) { e.Violations = vs }
