package errs

import "time"

// The messages of these errors are joined with + rather than fmt.Sprintf:
// they are the storms of a failing dependency, every one of which the
// error table formats again (errdetails keys its memo of statuses on the
// message), and Sprintf's boxed arguments were three allocations of each.

// Retryable reports whether trying the failed operation again may succeed,
// and after how long. Errors that implement it decide per instance.
type Retryable interface {
	error
	// RetryDelay returns how long to wait before retrying and whether a
	// retry may succeed at all.
	RetryDelay() (time.Duration, bool)
}

// InferenceRateLimited is a model provider's rate limit (HTTP 429).
type InferenceRateLimited struct {
	Provider   string `meta:"provider"`
	Model      string `meta:"model"`
	Message    string `meta:"detail"`
	RetryAfter time.Duration
}

// Error returns the error's message.
func (e *InferenceRateLimited) Error() string {
	return "model " + modelName(e.Provider, e.Model) + " is rate limited: " + e.Message
}

// modelName is "provider/model", or the provider alone when no model is
// named (a scripted model).
func modelName(provider, model string) string {
	if model == "" {
		return provider
	}
	return provider + "/" + model
}

// RetryDelay implements Retryable: a rate limit is always worth waiting out.
func (e *InferenceRateLimited) RetryDelay() (time.Duration, bool) { return e.RetryAfter, true }

// InferenceFailed is a model call that failed in a way another try may
// fix: a server error, a timeout, a lost connection. A request the
// provider refuses as made is *InferenceRejected.
type InferenceFailed struct {
	Provider   string `meta:"provider"`
	Model      string `meta:"model"`
	HTTPStatus int    `meta:"httpStatus"`
	Message    string `meta:"detail"`
	RetryAfter time.Duration
}

// Error returns the error's message.
func (e *InferenceFailed) Error() string {
	return "model call to " + modelName(e.Provider, e.Model) + " failed: " + e.Message
}

// RetryDelay implements Retryable: always worth another try.
func (e *InferenceFailed) RetryDelay() (time.Duration, bool) { return e.RetryAfter, true }

// TransientFailure is a failure judged worth retrying that no more specific
// error describes.
type TransientFailure struct {
	Operation  string `meta:"operation"`
	Message    string `meta:"detail"`
	RetryAfter time.Duration
}

// Error returns the error's message.
func (e *TransientFailure) Error() string {
	return e.Operation + " failed transiently: " + e.Message
}

// RetryDelay implements Retryable.
func (e *TransientFailure) RetryDelay() (time.Duration, bool) { return e.RetryAfter, true }

// StoreUnavailable is a store that could not be reached or failed to
// answer. Cause is for the server log and never reaches a client.
type StoreUnavailable struct {
	Operation  string `meta:"operation"`
	RetryAfter time.Duration
	Cause      error `json:"-"`
}

// Error returns the error's message.
func (e *StoreUnavailable) Error() string {
	return "the store is unavailable (" + e.Operation + ")"
}

// Unwrap returns the underlying store error.
func (e *StoreUnavailable) Unwrap() error { return e.Cause }

// RetryDelay implements Retryable.
func (e *StoreUnavailable) RetryDelay() (time.Duration, bool) { return e.RetryAfter, true }

// Overloaded is admission control turning work away.
type Overloaded struct {
	Resource   string `meta:"resource"`
	RetryAfter time.Duration
}

// Error returns the error's message.
func (e *Overloaded) Error() string { return "server overloaded: " + e.Resource }

// RetryDelay implements Retryable.
func (e *Overloaded) RetryDelay() (time.Duration, bool) { return e.RetryAfter, true }

// ToolFailed is a tool that failed in a way another attempt may fix (the
// model is told so). A tool that answered and refused is *ToolRejected.
type ToolFailed struct {
	Tool       string `meta:"tool"`
	Message    string `meta:"detail"`
	RetryAfter time.Duration
}

// Error returns the error's message.
func (e *ToolFailed) Error() string { return "tool " + e.Tool + " failed: " + e.Message }

// RetryDelay implements Retryable.
func (e *ToolFailed) RetryDelay() (time.Duration, bool) { return e.RetryAfter, true }

// MCPFailed is a failed exchange with an MCP server that another try may
// fix: a lost connection or a timeout. One that cannot succeed as made is
// *MCPRejected.
type MCPFailed struct {
	Server     string `meta:"server"`
	Tool       string `meta:"tool"`
	Message    string `meta:"detail"`
	RetryAfter time.Duration
}

// Error returns the error's message.
func (e *MCPFailed) Error() string {
	return "MCP server " + e.Server + " failed on " + e.Tool + ": " + e.Message
}

// RetryDelay implements Retryable.
func (e *MCPFailed) RetryDelay() (time.Duration, bool) { return e.RetryAfter, true }
