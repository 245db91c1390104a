package engine

import (
	"strings"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
)

// maxOutputReasks is how many times in a row a final answer that does not
// match the output schema is asked for again before the Run fails.
const maxOutputReasks = 1

// outputReask decides what to do about a final answer with violations,
// the rejections-th failing one in a row before it: ask again, with the
// message the Record keeps and the reducer copies into the transcript,
// or (past maxOutputReasks) not, and the Run fails on it.
func outputReask(violations []errs.FieldViolation, rejections int) *runlog.OutputReask {
	r := &runlog.OutputReask{Limit: maxOutputReasks}
	if rejections < maxOutputReasks {
		r.Text = outputReaskText(violations)
	}
	return r
}

// outputReaskText is the message that asks the model again for an answer
// that did not match the output schema. It may change freely: each Record
// keeps the text that was sent.
func outputReaskText(violations []errs.FieldViolation) string {
	parts := make([]string, len(violations))
	for i, v := range violations {
		parts[i] = v.Field + ": " + v.Description
	}
	return "Your answer does not match the JSON Schema it must follow: " + strings.Join(parts, "; ") +
		". Answer again with only a JSON value that matches the schema."
}
