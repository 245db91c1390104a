package errs

import "fmt"

// RunNotSettled is a request that needs a settled Run (a delete) made of
// one that is still active; nothing was changed.
type RunNotSettled struct {
	RunID  string `meta:"runId"`
	State  string `meta:"runState"`
	Action string `meta:"action"`
}

// Error returns the error's message.
func (e *RunNotSettled) Error() string {
	return fmt.Sprintf("run %s is %s, not settled, so it cannot %s; interrupt it first, or ask for the interrupt in the request", e.RunID, e.State, e.Action)
}
