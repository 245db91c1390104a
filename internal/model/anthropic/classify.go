package anthropic

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/model"
)

// StatusOverloaded is the HTTP status Anthropic answers when it is
// overloaded: retryable, like a 503.
const StatusOverloaded = 529

// maxMessageLen bounds the server text an error carries.
const maxMessageLen = 1024

// call is what classifying one call's failure needs.
type call struct {
	provider, model, apiKey string
	timeout                 time.Duration
}

func (c *call) failed(status int, msg string, retryAfter time.Duration) error {
	return &errs.InferenceFailed{Provider: c.provider, Model: c.model, HTTPStatus: status, Message: c.clean(msg), RetryAfter: retryAfter}
}

func (c *call) refused(status int, msg string) error {
	return &errs.InferenceRejected{Provider: c.provider, Model: c.model, HTTPStatus: status, Message: c.clean(msg)}
}

func (c *call) misconfigured(desc string) error {
	return &errs.ConfigurationInvalid{Subject: "model " + c.provider + "/" + c.model, Description: c.clean(desc)}
}

// statusFailure classifies a non-2xx answer: as for every provider, with
// the key's absence told apart on 401/403.
func (c *call) statusFailure(status int, typ, msg string, retryAfter time.Duration) error {
	if strings.TrimSpace(msg) == "" {
		msg = fmt.Sprintf("HTTP %d %s", status, http.StatusText(status))
		if status == StatusOverloaded {
			msg = "HTTP 529 overloaded"
		}
	}
	if typ != "" {
		msg = typ + ": " + msg
	}
	if (status == http.StatusUnauthorized || status == http.StatusForbidden) && c.apiKey == "" {
		return c.misconfigured(fmt.Sprintf("the server requires an API key and the model names none (HTTP %d): %s", status, msg))
	}
	return model.HTTPFailure(c.provider, c.model, status, retryAfter, c.clean(msg))
}

// streamedError classifies an error event sent in a 200 stream by its type.
func (c *call) streamedError(typ, msg string, retryAfter time.Duration) error {
	text := typ + ": " + msg
	switch typ {
	case "rate_limit_error":
		return &errs.InferenceRateLimited{Provider: c.provider, Model: c.model, Message: c.clean(text), RetryAfter: retryAfter}
	case "invalid_request_error", "not_found_error", "request_too_large":
		return c.refused(http.StatusOK, text)
	case "authentication_error", "permission_error":
		return c.misconfigured("the server refused the API key: " + text)
	default: // overloaded_error, api_error, and anything new
		return c.failed(http.StatusOK, text, retryAfter)
	}
}

// transportFailure classifies an error sending or reading.
func (c *call) transportFailure(callCtx context.Context, err error) error {
	if callCtx.Err() != nil {
		return c.failed(0, fmt.Sprintf("no response within %s (the model call timeout)", c.timeout), 0)
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return c.failed(0, "timed out: "+err.Error(), 0)
	}
	return c.failed(0, "the connection failed: "+err.Error(), 0)
}

func (c *call) callerDone(ctx context.Context) error {
	return fmt.Errorf("model call to %s/%s: %w", c.provider, c.model, ctx.Err())
}

// clean removes the key, makes the text valid UTF-8 and bounds it.
func (c *call) clean(s string) string {
	if c.apiKey != "" {
		s = strings.ReplaceAll(s, c.apiKey, "[redacted]")
	}
	s = strings.TrimSpace(strings.ToValidUTF8(s, "\uFFFD"))
	if len(s) > maxMessageLen {
		cut := maxMessageLen
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}
