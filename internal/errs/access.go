package errs

import (
	"fmt"
	"time"
)

// AccessDenied is a refusal by the Policy port.
type AccessDenied struct {
	Subject string `meta:"subject"`
	Reason  string `meta:"detail"`
}

// Error returns the error's message.
func (e *AccessDenied) Error() string {
	return fmt.Sprintf("access to %s denied: %s", e.Subject, e.Reason)
}

// ToolNarrowed is a tool that narrowing removed for this caller: it no
// longer exists for them, which is a different problem from a refusal.
type ToolNarrowed struct {
	Tool   string `meta:"tool"`
	Reason string `meta:"detail"`
}

// Error returns the error's message.
func (e *ToolNarrowed) Error() string {
	return fmt.Sprintf("tool %s is not available to this caller: %s", e.Tool, e.Reason)
}

// Unauthenticated is a missing or invalid caller identity.
type Unauthenticated struct {
	Reason string `meta:"detail"`
}

// Error returns the error's message.
func (e *Unauthenticated) Error() string { return "unauthenticated: " + e.Reason }

// CredentialNotFound is a credential a Spec names that has no value for
// the scope. runsvc never falls back to an unauthenticated call.
type CredentialNotFound struct {
	Scope string `meta:"scope"`
	Name  string `meta:"credential"`
}

// Error returns the error's message.
func (e *CredentialNotFound) Error() string {
	return fmt.Sprintf("no credential named '%s' resolved for %s", e.Name, e.Scope)
}

// RoleDenied is a caller whose roles do not allow the method they called.
// ACCESS_DENIED stays the Policy port's refusal.
type RoleDenied struct {
	Role   string `meta:"role"`
	Method string `meta:"method"`
}

// Error returns the error's message.
func (e *RoleDenied) Error() string {
	return fmt.Sprintf("role %s may not call %s", e.Role, e.Method)
}

// QuotaExceeded is a tenant's quota (concurrent Runs or StartRun rate)
// spent: what was refused did not start.
type QuotaExceeded struct {
	Tenant     string `meta:"tenant"`
	Dimension  string `meta:"dimension"`
	Limit      int    `meta:"limit"`
	RetryAfter time.Duration
}

// Error returns the error's message.
func (e *QuotaExceeded) Error() string {
	return fmt.Sprintf("tenant %s has spent its quota of %d %s", e.Tenant, e.Limit, e.Dimension)
}

// RetryDelay implements Retryable.
func (e *QuotaExceeded) RetryDelay() (time.Duration, bool) { return e.RetryAfter, true }
