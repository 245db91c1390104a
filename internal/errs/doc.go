// Package errs holds runsvc's typed errors: one struct per kind of failure,
// with exported fields for every variable part of its message.
//
// Domain packages return these (wrapped or not) and never build a wire
// status; internal/errdetails maps each to its gRPC code, reason and details
// with errors.As. Construct them as pointers (&errs.RunNotFound{...}), which
// is what errors.As looks for.
//
// Fields tagged `meta:"key"` are the error's ErrorInfo metadata: every error
// of a type reports the same keys, and a status carrying them can be turned
// back into the typed error.
package errs
