package errs

import "fmt"

// AliasNotFound is a Spec alias the tenant does not have: StartRun of
// spec@alias, GetAlias, DeleteAlias.
type AliasNotFound struct {
	Spec  string `meta:"spec"`
	Alias string `meta:"alias"`
}

// Error returns the error's message.
func (e *AliasNotFound) Error() string {
	return fmt.Sprintf("spec '%s' has no alias '%s'", e.Spec, e.Alias)
}

// AliasInvalid is an alias write or a spec@alias reference refused: a bad
// alias name, a Version the Spec does not have, a canary weight out of
// range.
type AliasInvalid struct {
	Spec       string           `meta:"spec"`
	Alias      string           `meta:"alias"`
	Violations []FieldViolation `meta:"violationCount"`
}

// Error returns the error's message.
func (e *AliasInvalid) Error() string {
	return describeViolations(fmt.Sprintf("alias '%s' of spec '%s' is invalid: ", e.Alias, e.Spec), e.Violations)
}

// FieldViolations returns the violations, one per problem.
func (e *AliasInvalid) FieldViolations() []FieldViolation { return e.Violations }

// SetFieldViolations implements ViolationSetter.
func (e *AliasInvalid) SetFieldViolations(vs []FieldViolation) { e.Violations = vs }
