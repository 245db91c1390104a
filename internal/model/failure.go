package model

import (
	"fmt"
	"net/http"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
)

// HTTPFailure classifies a model server's HTTP error status the way every
// provider must: 429 is a rate limit, 408 and 5xx are transient, 401 and
// 403 are a configuration problem, any other 4xx is a request the provider
// refuses (*errs.InferenceRejected).
func HTTPFailure(provider, modelName string, status int, retryAfter time.Duration, message string) error {
	if message == "" {
		message = fmt.Sprintf("HTTP %d %s", status, http.StatusText(status))
	}
	switch {
	case status == http.StatusTooManyRequests:
		return &errs.InferenceRateLimited{Provider: provider, Model: modelName, Message: message, RetryAfter: retryAfter}
	case status == http.StatusRequestTimeout || status >= 500:
		return &errs.InferenceFailed{Provider: provider, Model: modelName, HTTPStatus: status, Message: message, RetryAfter: retryAfter}
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return &errs.ConfigurationInvalid{
			Subject:     fmt.Sprintf("model %s/%s", provider, modelName),
			Description: fmt.Sprintf("the server refused the API key (HTTP %d): %s", status, message),
		}
	default:
		return &errs.InferenceRejected{Provider: provider, Model: modelName, HTTPStatus: status, Message: message}
	}
}

// ContextLengthExceeded is a request the provider refused as longer than
// the model's context window (openai's 400 context_length_exceeded). It
// is the InferenceRejected it wraps to everything but the engine, which
// compacts the conversation once and tries again.
type ContextLengthExceeded struct {
	Rejected *errs.InferenceRejected
}

// ContextTooLong wraps a provider's refusal as a ContextLengthExceeded.
func ContextTooLong(refused error) error {
	r, ok := refused.(*errs.InferenceRejected)
	if !ok {
		return refused
	}
	return &ContextLengthExceeded{Rejected: r}
}

// Error returns the refusal's message.
func (e *ContextLengthExceeded) Error() string { return e.Rejected.Error() }

// Unwrap returns the refusal.
func (e *ContextLengthExceeded) Unwrap() error { return e.Rejected }
