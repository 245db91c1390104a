package openai_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/model/openai"
)

// want checks a failure: its type, its fields and whether it is retryable.
type want func(t *testing.T, err error)

// wantRateLimited wants an InferenceRateLimited whose RetryAfter is in
// [lo, hi] and whose message holds msg.
func wantRateLimited(lo, hi time.Duration, msg string) want {
	return func(t *testing.T, err error) {
		t.Helper()
		var rl *errs.InferenceRateLimited
		if !errors.As(err, &rl) {
			t.Fatalf("got %T %v, want *errs.InferenceRateLimited", err, err)
		}
		if rl.Provider != "openai" || rl.Model != "gpt-4o-mini" {
			t.Errorf("provider/model %s/%s", rl.Provider, rl.Model)
		}
		if rl.RetryAfter < lo || rl.RetryAfter > hi {
			t.Errorf("RetryAfter %s, want in [%s, %s]", rl.RetryAfter, lo, hi)
		}
		if !strings.Contains(rl.Message, msg) {
			t.Errorf("message %q does not hold %q", rl.Message, msg)
		}
		if d, ok := errs.IsRetryable(err); !ok || d != rl.RetryAfter {
			t.Errorf("IsRetryable = %s, %v; want %s, true", d, ok, rl.RetryAfter)
		}
	}
}

// wantFailed wants an InferenceFailed (an InferenceRejected when
// permanent) with status, a message holding msg, retryable unless
// permanent, with RetryAfter.
func wantFailed(status int, permanent bool, msg string, retryAfter time.Duration) want {
	return func(t *testing.T, err error) {
		t.Helper()
		var f errs.InferenceFailed
		var failed *errs.InferenceFailed
		var rejected *errs.InferenceRejected
		switch {
		case permanent && errors.As(err, &rejected):
			f = errs.InferenceFailed{Provider: rejected.Provider, Model: rejected.Model, HTTPStatus: rejected.HTTPStatus, Message: rejected.Message}
		case !permanent && errors.As(err, &failed):
			f = *failed
		case permanent:
			t.Fatalf("got %T %v, want *errs.InferenceRejected", err, err)
		default:
			t.Fatalf("got %T %v, want *errs.InferenceFailed", err, err)
		}
		if f.Provider != "openai" || f.Model != "gpt-4o-mini" {
			t.Errorf("provider/model %s/%s", f.Provider, f.Model)
		}
		if f.HTTPStatus != status {
			t.Errorf("HTTPStatus %d, want %d", f.HTTPStatus, status)
		}
		if !strings.Contains(f.Message, msg) {
			t.Errorf("message %q does not hold %q", f.Message, msg)
		}
		d, ok := errs.IsRetryable(err)
		if ok == permanent || d != retryAfter {
			t.Errorf("IsRetryable = %s, %v; want %s, %v", d, ok, retryAfter, !permanent)
		}
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			t.Errorf("a failed call must not look like the caller's context ending: %v", err)
		}
	}
}

// wantConfig wants a ConfigurationInvalid whose description holds desc.
func wantConfig(desc string) want {
	return func(t *testing.T, err error) {
		t.Helper()
		var ci *errs.ConfigurationInvalid
		if !errors.As(err, &ci) {
			t.Fatalf("got %T %v, want *errs.ConfigurationInvalid", err, err)
		}
		if ci.Subject != "model openai/gpt-4o-mini" {
			t.Errorf("Subject %q", ci.Subject)
		}
		if !strings.Contains(ci.Description, desc) {
			t.Errorf("description %q does not hold %q", ci.Description, desc)
		}
		if _, ok := errs.IsRetryable(err); ok {
			t.Error("a refused key must not be retryable")
		}
	}
}

// wantContext wants the caller's own context error.
func wantContext(target error) want {
	return func(t *testing.T, err error) {
		t.Helper()
		if !errors.Is(err, target) {
			t.Fatalf("got %T %v, want %v", err, err, target)
		}
		var f *errs.InferenceFailed
		if errors.As(err, &f) {
			t.Errorf("the caller's context ending is not a failed call: %v", err)
		}
	}
}

// noKey fails if the API key shows anywhere in err.
func noKey(t *testing.T, err error) {
	t.Helper()
	for _, s := range []string{err.Error(), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", err)} {
		if strings.Contains(s, testKey) || strings.Contains(s, "T3stK3y") {
			t.Errorf("the error shows the API key: %s", s)
		}
	}
}

const (
	rateLimitBody = `{
  "error": {
    "message": "Rate limit reached for gpt-4o-mini in organization org-Xb9pQ2 on requests per min (RPM): Limit 500, Used 500, Requested 1. Please try again in 120ms. Visit https://platform.openai.com/account/rate-limits to learn more.",
    "type": "requests",
    "param": null,
    "code": "rate_limit_exceeded"
  }
}`
	quotaBody = `{
  "error": {
    "message": "You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.",
    "type": "insufficient_quota",
    "param": null,
    "code": "insufficient_quota"
  }
}`
	overloadedBody = `{
  "error": {
    "message": "The engine is currently overloaded, please try again later",
    "type": "server_error",
    "param": null,
    "code": null
  }
}`
	badRequestBody = `{
  "error": {
    "message": "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
    "type": "invalid_request_error",
    "param": "messages.[2].role",
    "code": null
  }
}`
	notFoundBody = `{
  "error": {
    "message": "The model ` + "`gpt-5-turbo`" + ` does not exist or you do not have access to it.",
    "type": "invalid_request_error",
    "param": null,
    "code": "model_not_found"
  }
}`
	// badKeyBody echoes the whole key, as a careless compatible server
	// might; OpenAI itself masks it.
	badKeyBody = `{
  "error": {
    "message": "Incorrect API key provided: ` + testKey + `. You can find your API key at https://platform.openai.com/account/api-keys.",
    "type": "invalid_request_error",
    "param": null,
    "code": "invalid_api_key"
  }
}`
	forbiddenBody = `{
  "error": {
    "message": "Project ` + "`proj_Zq81`" + ` does not have access to model ` + "`gpt-4o-mini`" + `",
    "type": "invalid_request_error",
    "param": null,
    "code": "model_not_found"
  }
}`
	timeoutBody    = `{"error": {"message": "Request timed out.", "type": "timeout", "param": null, "code": null}}`
	truncatedJSON  = `{"id": "chatcmpl-9xTrunc", "object": "chat.completion", "created": 1741569952, "choices": [{"index": 0, "message": {"role": "assis`
	gatewayHTML    = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>cloudflare</center>\r\n</body>\r\n</html>\r\n"
	echoHeaderBody = `{"error": {"message": "bad header: Authorization: Bearer ` + testKey + `", "type": "invalid_request_error", "param": null, "code": null}}`
)

// httpFailure is a case of TestCompleteHTTPFailures: what the server
// answers and the failure the client must make of it.
type httpFailure struct {
	name    string
	handler http.HandlerFunc
	noKey   bool
	want    want
}

// rateLimitFailures are the cases of TestCompleteHTTPFailures that hint
// when to retry; httpDate is a Retry-After 30 seconds from now.
func rateLimitFailures(httpDate string) []httpFailure {
	return []httpFailure{
		{
			name:    "429 with Retry-After seconds",
			handler: reply(http.StatusTooManyRequests, map[string]string{"Retry-After": "2"}, rateLimitBody),
			want:    wantRateLimited(2*time.Second, 2*time.Second, "Rate limit reached for gpt-4o-mini"),
		},
		{
			name:    "429 with an HTTP-date Retry-After",
			handler: reply(http.StatusTooManyRequests, map[string]string{"Retry-After": httpDate}, rateLimitBody),
			want:    wantRateLimited(25*time.Second, 30*time.Second, "Rate limit reached"),
		},
		{
			name: "429 with retry-after-ms preferred to Retry-After",
			handler: reply(http.StatusTooManyRequests,
				map[string]string{"Retry-After": "1", "retry-after-ms": "120"}, rateLimitBody),
			want: wantRateLimited(120*time.Millisecond, 120*time.Millisecond, "Rate limit reached"),
		},
		{
			name:    "429 without a hint",
			handler: reply(http.StatusTooManyRequests, nil, rateLimitBody),
			want:    wantRateLimited(0, 0, "Rate limit reached"),
		},
	}
}

// statusFailures are the other cases of TestCompleteHTTPFailures.
var statusFailures = []httpFailure{
	{
		name:    "429 insufficient_quota is permanent",
		handler: reply(http.StatusTooManyRequests, nil, quotaBody),
		want:    wantFailed(429, true, "You exceeded your current quota", 0),
	},
	{
		name:    "503 is retryable and honours Retry-After",
		handler: reply(http.StatusServiceUnavailable, map[string]string{"Retry-After": "1"}, overloadedBody),
		want:    wantFailed(503, false, "The engine is currently overloaded", time.Second),
	},
	{
		name:    "500 with no body",
		handler: reply(http.StatusInternalServerError, nil, ""),
		want:    wantFailed(500, false, "Internal Server Error", 0),
	},
	{
		name:    "502 from a proxy with an HTML body",
		handler: reply(http.StatusBadGateway, map[string]string{"Content-Type": "text/html"}, gatewayHTML),
		want:    wantFailed(502, false, "Bad Gateway", 0),
	},
	{
		name:    "408 is retryable",
		handler: reply(http.StatusRequestTimeout, nil, timeoutBody),
		want:    wantFailed(408, false, "Request timed out.", 0),
	},
	{
		name:    "400 is permanent with the server's message",
		handler: reply(http.StatusBadRequest, nil, badRequestBody),
		want:    wantFailed(400, true, "Invalid parameter: messages with role 'tool' must be a response", 0),
	},
	{
		name:    "404 unknown model is permanent",
		handler: reply(http.StatusNotFound, nil, notFoundBody),
		want:    wantFailed(404, true, "does not exist or you do not have access to it", 0),
	},
	{
		name:    "422 with a FastAPI body falls back to the status text",
		handler: reply(http.StatusUnprocessableEntity, nil, `{"detail":[{"loc":["body","messages"],"msg":"field required","type":"value_error.missing"}]}`),
		want:    wantFailed(422, true, "Unprocessable Entity", 0),
	},
	{
		name:    "401 is a configuration problem and hides an echoed key",
		handler: reply(http.StatusUnauthorized, nil, badKeyBody),
		want:    wantConfig("the server refused the API key (HTTP 401): Incorrect API key provided: [redacted]."),
	},
	{
		name:    "401 without a key says none was sent",
		handler: reply(http.StatusUnauthorized, nil, `{"error":{"message":"You didn't provide an API key.","type":"invalid_request_error","param":null,"code":null}}`),
		noKey:   true,
		want:    wantConfig("the server requires an API key and the model names none (HTTP 401)"),
	},
	{
		name:    "403 is a configuration problem",
		handler: reply(http.StatusForbidden, nil, forbiddenBody),
		want:    wantConfig("the server refused the API key (HTTP 403): Project `proj_Zq81` does not have access"),
	},
	{
		name:    "a server echoing the Authorization header does not leak the key",
		handler: reply(http.StatusBadRequest, nil, echoHeaderBody),
		want:    wantFailed(400, true, "bad header", 0),
	},
	{
		name:    "invalid JSON in a 200 is retryable",
		handler: reply(http.StatusOK, nil, truncatedJSON),
		want:    wantFailed(0, false, "malformed response", 0),
	},
	{
		name:    "a 200 with no choices is retryable",
		handler: reply(http.StatusOK, nil, `{"id":"chatcmpl-empty","object":"chat.completion","created":1741569952,"model":"gpt-4o-mini","choices":[]}`),
		want:    wantFailed(0, false, "no choices", 0),
	},
}

func TestCompleteHTTPFailures(t *testing.T) {
	httpDate := time.Now().Add(30 * time.Second).UTC().Format(http.TimeFormat)
	tests := append(rateLimitFailures(httpDate), statusFailures...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t, tt.handler)
			req := request(srv.URL + "/v1")
			if tt.noKey {
				req.APIKey, req.Model.APIKeyCredential = "", ""
			}
			resp, err := openai.New(openai.Options{}).Complete(context.Background(), req)
			if err == nil {
				t.Fatalf("got %+v, want an error", resp)
			}
			tt.want(t, err)
			noKey(t, err)
		})
	}
}

// hang is a handler that answers nothing until the client gives up.
func hang(entered chan<- struct{}) http.HandlerFunc {
	return func(_ http.ResponseWriter, r *http.Request) {
		if entered != nil {
			close(entered)
		}
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}
}

// transportFailure is a case of TestCompleteTransportFailures: a server
// (or none, at base) that fails below HTTP, how the call is bounded, and
// the failure the client must make of it.
type transportFailure struct {
	name        string
	base        func(t *testing.T) string
	callTimeout time.Duration
	ctx         func(t *testing.T, entered <-chan struct{}) context.Context
	handler     func(entered chan<- struct{}) http.HandlerFunc
	want        want
}

// transportFailures are the cases of TestCompleteTransportFailures.
var transportFailures = []transportFailure{
	{
		name: "connection refused",
		base: func(t *testing.T) string {
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatalf("listen: %v", err)
			}
			addr := l.Addr().String()
			_ = l.Close()
			return "http://" + addr + "/v1"
		},
		want: wantFailed(0, false, "connection refused", 0),
	},
	{
		name: "connection reset before an answer",
		handler: func(chan<- struct{}) http.HandlerFunc {
			return func(w http.ResponseWriter, _ *http.Request) {
				conn, _, err := http.NewResponseController(w).Hijack()
				if err != nil {
					return
				}
				if tc, ok := conn.(*net.TCPConn); ok {
					_ = tc.SetLinger(0)
				}
				_ = conn.Close()
			}
		},
		want: wantFailed(0, false, "connection failed", 0),
	},
	{
		name: "body truncated mid-answer",
		handler: func(chan<- struct{}) http.HandlerFunc {
			return func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.Header().Set("Content-Length", "4096")
				_, _ = io.WriteString(w, plainAnswer[:120])
			}
		},
		want: wantFailed(0, false, "unexpected EOF", 0),
	},
	{
		name:        "a server that hangs past CallTimeout",
		callTimeout: 150 * time.Millisecond,
		handler:     hang,
		want:        wantFailed(0, false, "no response within 150ms", 0),
	},
	{
		name: "the caller cancels",
		ctx: func(t *testing.T, entered <-chan struct{}) context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			t.Cleanup(cancel)
			go func() {
				<-entered
				cancel()
			}()
			return ctx
		},
		handler: hang,
		want:    wantContext(context.Canceled),
	},
	{
		name: "the caller's deadline passes first",
		ctx: func(t *testing.T, _ <-chan struct{}) context.Context {
			ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
			t.Cleanup(cancel)
			return ctx
		},
		handler: hang,
		want:    wantContext(context.DeadlineExceeded),
	},
	{
		name: "the caller's context has already ended",
		ctx: func(t *testing.T, _ <-chan struct{}) context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx
		},
		handler: hang,
		want:    wantContext(context.Canceled),
	},
}

func TestCompleteTransportFailures(t *testing.T) {
	tests := transportFailures
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			entered := make(chan struct{})
			var base string
			if tt.base != nil {
				base = tt.base(t)
			} else {
				base = newServer(t, tt.handler(entered)).URL + "/v1"
			}
			ctx := context.Background()
			if tt.ctx != nil {
				ctx = tt.ctx(t, entered)
			}
			req := request(base)
			if tt.callTimeout > 0 {
				req.Model.CallTimeout = tt.callTimeout
			}
			start := time.Now()
			resp, err := openai.New(openai.Options{}).Complete(ctx, req)
			if err == nil {
				t.Fatalf("got %+v, want an error", resp)
			}
			if elapsed := time.Since(start); elapsed > 3*time.Second {
				t.Errorf("the call took %s", elapsed)
			}
			tt.want(t, err)
			noKey(t, err)
		})
	}
}
