package errs

import "fmt"

// Internal is a failure runsvc did not expect. Its ErrorID ties what a
// client sees to the server log line holding the cause; the cause itself
// never reaches a client.
type Internal struct {
	ErrorID string `meta:"errorId"`
	Cause   error  `json:"-"`
}

// Error returns the error's message.
func (e *Internal) Error() string { return fmt.Sprintf("internal error (errorId %s)", e.ErrorID) }

// Unwrap returns the cause.
func (e *Internal) Unwrap() error { return e.Cause }
