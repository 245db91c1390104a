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
