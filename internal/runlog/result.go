package runlog

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/runsvc/runsvc/internal/errs"
)

// ResultText is a tool result as the model sees it: the output's JSON (a
// JSON string as its plain text), or for a failure
// {"tool": "<name>", "error": "tool handler failed: <msg>", "retryable": <bool>}.
func ResultText(tool string, output json.RawMessage, failure *errs.Stored) string {
	if failure != nil {
		msg, retryable := FailureMessage(failure)
		return ToolErrorText(tool, msg, retryable)
	}
	var s string
	if len(output) > 0 && output[0] == '"' && json.Unmarshal(output, &s) == nil {
		return s
	}
	if len(output) == 0 {
		return "null"
	}
	return string(output)
}

// ToolErrorText renders a tool failure for the model, word for word as the
// tool error isolation contract fixes it.
func ToolErrorText(tool, message string, retryable bool) string {
	return fmt.Sprintf(`{"tool": %s, "error": %s, "retryable": %t}`, jsonString(tool), jsonString("tool handler failed: "+message), retryable)
}

// FailureMessage returns what a stored tool failure says and whether
// retrying may help: a tool's own message for ToolFailed, the error's text
// for anything else.
func FailureMessage(failure *errs.Stored) (string, bool) {
	err := failure.Err()
	_, retryable := errs.IsRetryable(err)
	var tf *errs.ToolFailed
	if errors.As(err, &tf) {
		return tf.Message, retryable
	}
	var tr *errs.ToolRejected
	if errors.As(err, &tr) {
		return tr.Message, retryable
	}
	return err.Error(), retryable
}

func jsonString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}
