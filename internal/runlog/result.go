package runlog

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/runsvc/runsvc/internal/errs"
)

// ResultText is a tool result as the model sees it: the output's JSON (a
// JSON string as its plain text), or for a failure
// {"tool": "<name>", "error": "tool handler failed: <msg>", "retryable": <bool>}.
func ResultText(tool string, output json.RawMessage, failure *errs.Stored) string {
	if failure != nil {
		if failure.Reason == reasonToolInDoubt {
			why, _ := failure.Said()
			return InDoubtText(tool, why)
		}
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

// reasonToolInDoubt is the stored reason of an errs.ToolInDoubt: a stored
// failure is read by its reason, never by a Go type.
const reasonToolInDoubt = "TOOL_IN_DOUBT"

// ToolErrorText renders a tool failure for the model, word for word as the
// tool error isolation contract fixes it.
func ToolErrorText(tool, message string, retryable bool) string {
	return fmt.Sprintf(`{"tool": %s, "error": %s, "retryable": %t}`, jsonString(tool), jsonString("tool handler failed: "+message), retryable)
}

// FailureMessage returns what a stored tool failure says and whether
// retrying may help, as it was stored when the failure happened: a tool's
// own message for a tool's failure, the error's text for anything else.
func FailureMessage(failure *errs.Stored) (string, bool) {
	return failure.Said()
}

func jsonString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}
