package openai

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/retryafter"
)

// maxMessageLen bounds the server text an error carries.
const maxMessageLen = 1024

// call is what classifying one call's failure needs.
type call struct {
	provider string
	model    string
	apiKey   string
	timeout  time.Duration
}

// subject names the model in a ConfigurationInvalid.
func (c *call) subject() string { return "model " + c.provider + "/" + c.model }

// failed returns a retryable InferenceFailed.
func (c *call) failed(status int, msg string, retryAfter time.Duration) error {
	return &errs.InferenceFailed{
		Provider: c.provider, Model: c.model, HTTPStatus: status,
		Message: c.clean(msg), RetryAfter: retryAfter,
	}
}

// refused returns an InferenceRejected: trying again cannot help.
func (c *call) refused(status int, msg string) error {
	return &errs.InferenceRejected{
		Provider: c.provider, Model: c.model, HTTPStatus: status,
		Message: c.clean(msg),
	}
}

// misconfigured returns a ConfigurationInvalid for the model.
func (c *call) misconfigured(desc string) error {
	return &errs.ConfigurationInvalid{Subject: c.subject(), Description: c.clean(desc)}
}

// statusFailure classifies a response with a non-2xx status: a refused
// API key and an exhausted quota here, any other status as
// model.HTTPFailure does for every provider.
func (c *call) statusFailure(resp *http.Response, body []byte, now time.Time) error {
	status := resp.StatusCode
	msg, code := errorMessage(body)
	if strings.TrimSpace(msg) == "" {
		msg = http.StatusText(status)
		if msg == "" {
			msg = "HTTP " + strconv.Itoa(status)
		}
	}
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		if c.apiKey == "" {
			return c.misconfigured(fmt.Sprintf("the server requires an API key and the model names none (HTTP %d): %s", status, msg))
		}
		return c.misconfigured(fmt.Sprintf("the server refused the API key (HTTP %d): %s", status, msg))
	case status == http.StatusBadRequest && code == "context_length_exceeded":
		return model.ContextTooLong(c.refused(status, msg))
	case status == http.StatusTooManyRequests && code == "insufficient_quota":
		// Out of credit: waiting does not help, paying does.
		return c.refused(status, msg)
	}
	return model.HTTPFailure(c.provider, c.model, status, retryafter.Parse(resp.Header, now), c.clean(msg))
}

// transportFailure classifies an error from sending the request or reading
// the response. The caller's own ctx ending wins over everything.
func (c *call) transportFailure(ctx, callCtx context.Context, err error) error {
	if ctx.Err() != nil {
		return c.callerDone(ctx)
	}
	if callCtx.Err() != nil {
		return c.failed(0, fmt.Sprintf("no response within %s (the model call timeout)", c.timeout), 0)
	}
	inner := err
	var ue *url.Error
	if errors.As(err, &ue) {
		inner = ue.Err
	}
	var cert *tls.CertificateVerificationError
	if errors.As(err, &cert) {
		return c.refused(0, "the server's TLS certificate was refused: "+inner.Error())
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return c.failed(0, "timed out: "+inner.Error(), 0)
	}
	return c.failed(0, "the connection failed: "+inner.Error(), 0)
}

// callerDone returns the caller's context error, wrapped.
func (c *call) callerDone(ctx context.Context) error {
	return fmt.Errorf("model call to %s/%s: %w", c.provider, c.model, ctx.Err())
}

// clean makes server or transport text fit for an error: the API key
// removed, valid UTF-8, bounded length.
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
