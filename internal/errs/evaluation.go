package errs

import "fmt"

// EvaluationNotFound is an evaluation id the tenant does not have.
type EvaluationNotFound struct {
	EvaluationID string `meta:"evaluationId"`
}

// Error returns the error's message.
func (e *EvaluationNotFound) Error() string {
	return fmt.Sprintf("evaluation %s not found", e.EvaluationID)
}

// EvaluationInvalid is an evaluation request refused: no candidate, a
// selection that picks no settled Run, an evaluator that cannot run.
type EvaluationInvalid struct {
	Violations []FieldViolation `meta:"violationCount"`
}

// Error returns the error's message.
func (e *EvaluationInvalid) Error() string {
	return describeViolations("the evaluation request is invalid: ", e.Violations)
}

// FieldViolations returns the violations, one per problem.
func (e *EvaluationInvalid) FieldViolations() []FieldViolation { return e.Violations }

// SetFieldViolations implements ViolationSetter.
func (e *EvaluationInvalid) SetFieldViolations(vs []FieldViolation) { e.Violations = vs }

// MaxGateRunIDs bounds how many failing Run ids an EvaluationGateFailed
// names, so that its status stays small; More counts the rest.
const MaxGateRunIDs = 7

// EvaluationGateFailed is an alias move gated on an evaluation that the
// candidate did not pass: the evaluation evaluated another Version, has
// replays still running, or scored below the minimum. FailingRunIDs are
// the recorded Runs whose replays scored below it (at most
// MaxGateRunIDs; More counts the others).
type EvaluationGateFailed struct {
	EvaluationID  string   `meta:"evaluationId"`
	Spec          string   `meta:"spec"`
	Version       string   `meta:"version"`
	Score         float64  `meta:"score"`
	MinScore      float64  `meta:"minScore"`
	Why           string   `meta:"why"`
	FailingRunIDs []string `meta:"failingRunIds"`
	More          int      `meta:"moreFailingRuns"`
}

// Error returns the error's message.
func (e *EvaluationGateFailed) Error() string {
	msg := fmt.Sprintf("evaluation %s does not let %s version %s through: %s", e.EvaluationID, e.Spec, e.Version, e.Why)
	if len(e.FailingRunIDs) > 0 {
		msg += fmt.Sprintf("; failing Runs: %s", joinNames(e.FailingRunIDs))
		if e.More > 0 {
			msg += fmt.Sprintf(" and %d more", e.More)
		}
	}
	return msg
}
