package errs

import "fmt"

// The A2A 1.0 error types (a2a-protocol.org, §11.6 of the spec). They are
// returned only on the A2A bindings (internal/a2a); their ErrorInfo domain
// is the A2A spec's, "a2a-protocol.org", not the server's, so that any A2A
// client recognises them.

// TaskNotFound is an A2A task id that is no Run of the caller's tenant
// served by that agent.
type TaskNotFound struct {
	TaskID string `meta:"taskId"`
}

// Error returns the error's message.
func (e *TaskNotFound) Error() string { return "task " + e.TaskID + " not found" }

// TaskNotCancelable is a CancelTask of a task that already ended.
type TaskNotCancelable struct {
	TaskID string `meta:"taskId"`
	State  string `meta:"state"`
}

// Error returns the error's message.
func (e *TaskNotCancelable) Error() string {
	return fmt.Sprintf("task %s is %s and cannot be canceled", e.TaskID, e.State)
}

// PushNotificationNotSupported is a push-notification call to an agent
// that does not send them.
type PushNotificationNotSupported struct{}

// Error returns the error's message.
func (e *PushNotificationNotSupported) Error() string {
	return "push notifications are not supported by this agent"
}

// UnsupportedOperation is an A2A operation the agent does not do in the
// task's state (a message to a task that ended, a subscription to one).
type UnsupportedOperation struct {
	Operation string `meta:"operation"`
	Detail    string `meta:"detail"`
}

// Error returns the error's message.
func (e *UnsupportedOperation) Error() string {
	return fmt.Sprintf("%s is not supported: %s", e.Operation, e.Detail)
}

// ContentTypeNotSupported is a message part runsvc cannot give a model
// (a file or raw bytes), or an output mode it cannot answer in.
type ContentTypeNotSupported struct {
	MediaType string `meta:"mediaType"`
}

// Error returns the error's message.
func (e *ContentTypeNotSupported) Error() string {
	return fmt.Sprintf("content type %s is not supported: runsvc agents take text and JSON data parts", e.MediaType)
}

// VersionNotSupported is an A2A-Version header naming a protocol version
// runsvc does not speak.
type VersionNotSupported struct {
	Version string `meta:"version"`
}

// Error returns the error's message.
func (e *VersionNotSupported) Error() string {
	return fmt.Sprintf("A2A version %s is not supported; this agent speaks 1.0", e.Version)
}
