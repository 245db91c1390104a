package errs

import "fmt"

// RunNotFound is a Run that does not exist for the caller's tenant.
type RunNotFound struct {
	RunID string `meta:"runId"`
}

// Error returns the error's message, joined with + rather than Sprintf:
// a client polling a Run that does not exist makes one per call.
func (e *RunNotFound) Error() string { return "run " + e.RunID + " not found" }

// SpecNotFound is a Spec name, or a Version of it, that was never published.
type SpecNotFound struct {
	Name    string `meta:"spec"`
	Version string `meta:"version"`
}

// Error returns the error's message.
func (e *SpecNotFound) Error() string {
	if e.Version == "" {
		return fmt.Sprintf("spec '%s' not found", e.Name)
	}
	return fmt.Sprintf("spec '%s' has no version %s", e.Name, e.Version)
}

// DelegationNotFound is a delegation id that does not exist.
type DelegationNotFound struct {
	DelegationID string `meta:"delegationId"`
}

// Error returns the error's message.
func (e *DelegationNotFound) Error() string {
	return fmt.Sprintf("delegation %s not found", e.DelegationID)
}

// ToolNotFound is a tool name nobody provides.
type ToolNotFound struct {
	Name      string   `meta:"tool"`
	Available []string `meta:"availableTools"`
}

// Error returns the error's message; with no tools at all the list reads
// "none", so the message never ends in a space.
func (e *ToolNotFound) Error() string {
	available := joinNames(e.Available)
	if available == "" {
		available = "none"
	}
	return fmt.Sprintf("Tool not found: %s. Available tools: %s", e.Name, available)
}

// RequestIDReused is a StartRun whose request id already started a Run
// with a different request.
type RequestIDReused struct {
	RequestID string `meta:"requestId"`
	RunID     string `meta:"runId"`
}

// Error returns the error's message.
func (e *RequestIDReused) Error() string {
	return fmt.Sprintf("request id '%s' already started run %s with a different request", e.RequestID, e.RunID)
}

// ThreadNotFound is a thread id no Run of the tenant used.
type ThreadNotFound struct {
	ThreadID string `meta:"threadId"`
}

// Error returns the error's message.
func (e *ThreadNotFound) Error() string {
	return fmt.Sprintf("thread %s not found", e.ThreadID)
}

// ScheduleNotFound is a schedule id the tenant does not have.
type ScheduleNotFound struct {
	ScheduleID string `meta:"scheduleId"`
}

// Error returns the error's message.
func (e *ScheduleNotFound) Error() string { return "schedule " + e.ScheduleID + " not found" }
