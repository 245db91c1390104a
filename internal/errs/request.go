package errs

import (
	"fmt"
	"strconv"
	"strings"
)

// FieldViolation is one problem with one field of a request or Spec.
type FieldViolation struct {
	// Field is the dotted path of the field, e.g. "tools[2].name".
	Field string `json:"field"`
	// Description says what is wrong, in a sentence its author can act on.
	Description string `json:"description"`
}

// describeViolations is prefix and the first violation, with how many
// more there are. It joins with + (one allocation where Sprintf and the
// joins were three): a client's bad requests are formatted once per call.
func describeViolations(prefix string, vs []FieldViolation) string {
	if len(vs) == 0 {
		return prefix + "no details"
	}
	sep := ": "
	if vs[0].Field == "" {
		sep = ""
	}
	if len(vs) == 1 {
		return prefix + vs[0].Field + sep + vs[0].Description
	}
	return prefix + vs[0].Field + sep + vs[0].Description + " (and " + strconv.Itoa(len(vs)-1) + " more)"
}

// InvalidRequest is a malformed request: a missing or out-of-range field.
type InvalidRequest struct {
	Violations []FieldViolation `meta:"violationCount"`
}

// Error returns the error's message.
func (e *InvalidRequest) Error() string {
	return describeViolations("invalid request: ", e.Violations)
}

// BadField returns an InvalidRequest with a single violation.
func BadField(field, format string, args ...any) *InvalidRequest {
	return &InvalidRequest{Violations: []FieldViolation{{Field: field, Description: fmt.Sprintf(format, args...)}}}
}

// SpecInvalid is a Spec refused at publish, with every problem found.
type SpecInvalid struct {
	Spec       string           `meta:"spec"`
	Violations []FieldViolation `meta:"violationCount"`
}

// Error returns the error's message.
func (e *SpecInvalid) Error() string {
	return fmt.Sprintf("spec '%s' is invalid: %s", e.Spec, describeViolations("", e.Violations))
}

// SpecUnbuildable is a Spec that is well-formed but cannot be assembled,
// e.g. a builder asked for a combination runsvc cannot construct.
type SpecUnbuildable struct {
	Spec       string           `meta:"spec"`
	Violations []FieldViolation `meta:"violationCount"`
}

// Error returns the error's message.
func (e *SpecUnbuildable) Error() string {
	return fmt.Sprintf("spec '%s' cannot be built: %s", e.Spec, describeViolations("", e.Violations))
}

// ValueNotPortable is a value that cannot cross the process boundary: not
// representable as JSON, or too large.
type ValueNotPortable struct {
	Path   string `meta:"path"`
	Reason string `meta:"detail"`
}

// Error returns the error's message.
func (e *ValueNotPortable) Error() string {
	return fmt.Sprintf("value at %s cannot cross the process boundary: %s", e.Path, e.Reason)
}

// ConfigurationInvalid is configuration that is invalid or missing a
// required value, found when it is used.
type ConfigurationInvalid struct {
	Subject     string `meta:"subject"`
	Description string `meta:"detail"`
}

// Error returns the error's message.
func (e *ConfigurationInvalid) Error() string {
	return fmt.Sprintf("configuration of %s is invalid: %s", e.Subject, e.Description)
}

// DependencyMissing is an optional component that this deployment lacks.
type DependencyMissing struct {
	Dependency  string `meta:"dependency"`
	Description string `meta:"detail"`
	HelpURL     string `meta:"helpUrl"`
}

// Error returns the error's message.
func (e *DependencyMissing) Error() string {
	return fmt.Sprintf("%s is required: %s", e.Dependency, e.Description)
}

// joinNames lists names the way the seed messages do: "a, b".
func joinNames(names []string) string { return strings.Join(names, ", ") }

// FieldViolations returns the request's problems.
func (e *InvalidRequest) FieldViolations() []FieldViolation { return e.Violations }

// FieldViolations returns the Spec's problems.
func (e *SpecInvalid) FieldViolations() []FieldViolation { return e.Violations }

// FieldViolations returns the Spec's problems.
func (e *SpecUnbuildable) FieldViolations() []FieldViolation { return e.Violations }

// FieldViolations returns the value's path and what is wrong with it.
func (e *ValueNotPortable) FieldViolations() []FieldViolation {
	return []FieldViolation{{Field: e.Path, Description: e.Reason}}
}

// ScheduleInvalid is a schedule refused at creation (a bad cron
// expression, an unknown time zone, none or two of cron, interval and at,
// an interval too small, ...), with every problem found.
type ScheduleInvalid struct {
	ScheduleID string           `meta:"scheduleId"`
	Violations []FieldViolation `meta:"violationCount"`
}

// Error returns the error's message.
func (e *ScheduleInvalid) Error() string {
	return fmt.Sprintf("schedule '%s' is invalid: %s", e.ScheduleID, describeViolations("", e.Violations))
}

// FieldViolations returns the schedule's problems.
func (e *ScheduleInvalid) FieldViolations() []FieldViolation { return e.Violations }
