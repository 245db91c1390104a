package errs

import (
	"fmt"
	"time"
)

// InferenceRejected is a model call the provider refused as made (HTTP
// 400, 404, 422, an exhausted account, a refused certificate), or a
// scripted model with no turn left: trying again cannot help.
type InferenceRejected struct {
	Provider   string `meta:"provider"`
	Model      string `meta:"model"`
	HTTPStatus int    `meta:"httpStatus"`
	Message    string `meta:"detail"`
}

// Error returns the error's message.
func (e *InferenceRejected) Error() string {
	return fmt.Sprintf("model %s refused the call: %s", modelName(e.Provider, e.Model), e.Message)
}

// ToolRejected is a tool that answered and refused the call; another
// attempt with the same arguments will not succeed.
type ToolRejected struct {
	Tool    string `meta:"tool"`
	Message string `meta:"detail"`
}

// Error returns the error's message.
func (e *ToolRejected) Error() string {
	return fmt.Sprintf("tool %s refused the call: %s", e.Tool, e.Message)
}

// MCPRejected is an MCP server that answered and refused the call, or an
// exchange that cannot succeed as made.
type MCPRejected struct {
	Server  string `meta:"server"`
	Tool    string `meta:"tool"`
	Message string `meta:"detail"`
}

// Error returns the error's message.
func (e *MCPRejected) Error() string {
	return fmt.Sprintf("MCP server %s refused %s: %s", e.Server, e.Tool, e.Message)
}

// MethodNotFound is a call to a method or service this server does not
// have.
type MethodNotFound struct {
	Method string `meta:"method"`
}

// Error returns the error's message.
func (e *MethodNotFound) Error() string {
	return fmt.Sprintf("method %s is not implemented by this server", e.Method)
}

// ToolFailure is a tool's failure as the tool reported it: *ToolFailed when
// another attempt may fix it, *ToolRejected when not.
func ToolFailure(tool, message string, retryable bool, retryAfter time.Duration) error {
	if retryable {
		return &ToolFailed{Tool: tool, Message: message, RetryAfter: retryAfter}
	}
	return &ToolRejected{Tool: tool, Message: message}
}

// MCPFailure is an MCP exchange's failure: *MCPFailed when another try may
// fix it, *MCPRejected when not.
func MCPFailure(server, tool, message string, retryable bool, retryAfter time.Duration) error {
	if retryable {
		return &MCPFailed{Server: server, Tool: tool, Message: message, RetryAfter: retryAfter}
	}
	return &MCPRejected{Server: server, Tool: tool, Message: message}
}
