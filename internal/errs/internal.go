package errs

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
)

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

// NewErrorID returns a fresh id tying what a client sees of an unexpected
// failure to the server's log line holding its cause.
func NewErrorID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "err_" + hex.EncodeToString(b[:])
}
