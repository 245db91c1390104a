// Package httptool executes http tools: runsvc POSTs the call's arguments
// as JSON to the tool's URL and reads a JSON result.
//
// The endpoint's contract: 2xx with a JSON body is the result, unless the
// body is {"error": "...", "retryable": bool}, which is the tool's own
// failure. 429, 408, 5xx and connection failures are transient and
// retried by the engine; any other status is the tool's failure, with the
// body's error message when it has one.
package httptool

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/netpolicy"
	"github.com/runsvc/runsvc/internal/retryafter"
	"github.com/runsvc/runsvc/internal/tool"
)

const maxBody = 8 << 20

// Executor calls http tools.
type Executor struct {
	client *http.Client
}

// New returns an Executor using client, or, when nil, a client whose
// connections obey the default outbound network policy (see netpolicy).
func New(client *http.Client) *Executor {
	if client == nil {
		client = &http.Client{Transport: (*netpolicy.Policy)(nil).Transport()}
	}
	return &Executor{client: client}
}

// Execute POSTs the call. Headers tell the endpoint which call it is
// (Runsvc-Call-Id and Idempotency-Key, both stable across retries and
// takeovers, for deduplication) and carry
// the credential as a bearer token when the tool names one.
func (x *Executor) Execute(ctx context.Context, c tool.Call) (json.RawMessage, error) {
	if c.Tool.HTTP == nil {
		return nil, &errs.ConfigurationInvalid{Subject: "tool " + c.Name, Description: "an http tool needs http.url"}
	}
	body := c.Arguments
	if len(body) == 0 {
		body = []byte(`{}`)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.Tool.HTTP.URL, bytes.NewReader(body))
	if err != nil {
		return nil, &errs.ConfigurationInvalid{Subject: "tool " + c.Name, Description: "http.url is not usable"}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Runsvc-Call-Id", c.GlobalID())
	// The same in every attempt of the call: an endpoint that deduplicates
	// by it makes at-least-once delivery safe.
	req.Header.Set("Idempotency-Key", c.GlobalID())
	// The trace context of the tool call (traceparent), when traced.
	otel.GetTextMapPropagator().Inject(ctx, propagation.HeaderCarrier(req.Header))
	if c.RunID != "" {
		req.Header.Set("Runsvc-Run-Id", c.RunID)
	}
	if c.Credential != "" {
		req.Header.Set("Authorization", "Bearer "+c.Credential)
	}
	resp, err := x.client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if denied, ok := netpolicy.Denied("tool "+c.Name, err); ok {
			return nil, denied
		}
		return nil, &errs.TransientFailure{Operation: "tool " + c.Name, Message: "the endpoint could not be reached: " + scrub(err, c)}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &errs.TransientFailure{Operation: "tool " + c.Name, Message: "reading the response failed: " + scrub(err, c)}
	}
	if len(raw) > maxBody {
		return nil, &errs.ToolRejected{Tool: c.Name, Message: fmt.Sprintf("the response is over %d bytes", maxBody)}
	}
	// Whatever the endpoint echoes of the credential (in an error body, a
	// status line or a result) is scrubbed before anything records it.
	raw = redactJSON(raw, c.Credential)
	msg, retryable, isErr := errorBody(raw)
	msg = redact(msg, c.Credential)
	resp.Status = redact(resp.Status, c.Credential)
	switch code := resp.StatusCode; {
	case code == http.StatusTooManyRequests || code == http.StatusRequestTimeout || code >= 500:
		if msg == "" {
			msg = resp.Status
		}
		return nil, &errs.TransientFailure{Operation: "tool " + c.Name, Message: msg, RetryAfter: retryafter.Parse(resp.Header, time.Now())}
	case code < 200 || code > 299:
		if msg == "" {
			msg = resp.Status
		}
		return nil, &errs.ToolRejected{Tool: c.Name, Message: msg}
	case isErr:
		return nil, errs.ToolFailure(c.Name, msg, retryable, 0)
	case !json.Valid(raw):
		return nil, &errs.ToolRejected{Tool: c.Name, Message: "the endpoint answered with something that is not JSON"}
	}
	return raw, nil
}

// errorBody reads {"error": "...", "retryable": bool}.
func errorBody(raw []byte) (string, bool, bool) {
	var e struct {
		Error     json.RawMessage `json:"error"`
		Retryable bool            `json:"retryable"`
	}
	if json.Unmarshal(raw, &e) != nil || len(e.Error) == 0 || string(e.Error) == "null" {
		return "", false, false
	}
	var s string
	if json.Unmarshal(e.Error, &s) == nil {
		return s, e.Retryable, true
	}
	var nested struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(e.Error, &nested) == nil && nested.Message != "" {
		return nested.Message, e.Retryable, true
	}
	return string(e.Error), e.Retryable, true
}

// scrub keeps a transport error's text free of the credential.
func scrub(err error, c tool.Call) string {
	var ue interface{ Unwrap() error }
	msg := err.Error()
	if errors.As(err, &ue) && ue.Unwrap() != nil {
		msg = ue.Unwrap().Error()
	}
	return redact(msg, c.Credential)
}

// redacted replaces a credential wherever runsvc would keep it.
const redacted = "[redacted]"

// redact removes the credential from s.
func redact(s, credential string) string {
	if credential == "" {
		return s
	}
	return strings.ReplaceAll(s, credential, redacted)
}

// redactJSON removes the credential from a JSON document however JSON
// escapes it: the plain bytes first, then every decoded string (keys too),
// re-encoding the document only when one held it.
func redactJSON(raw []byte, credential string) []byte {
	if credential == "" {
		return raw
	}
	raw = bytes.ReplaceAll(raw, []byte(credential), []byte(redacted))
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return raw
	}
	v, changed := redactValue(v, credential)
	if !changed {
		return raw
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return raw
	}
	return bytes.TrimSuffix(out.Bytes(), []byte("\n"))
}

// redactValue redacts the strings of a decoded JSON value.
func redactValue(v any, credential string) (any, bool) {
	switch x := v.(type) {
	case string:
		r := redact(x, credential)
		return r, r != x
	case []any:
		changed := false
		for i, e := range x {
			var c bool
			x[i], c = redactValue(e, credential)
			changed = changed || c
		}
		return x, changed
	case map[string]any:
		out := make(map[string]any, len(x))
		changed := false
		for k, e := range x {
			nv, c := redactValue(e, credential)
			nk := redact(k, credential)
			out[nk] = nv
			changed = changed || c || nk != k
		}
		return out, changed
	}
	return v, false
}
