// Package anthropic is a model.Model on Anthropic's Messages API, through
// the official SDK github.com/anthropics/anthropic-sdk-go: tool use,
// streamed answers (SSE), the SDK's own retries off (the Run's retry
// budget governs).
//
// Failures are typed errors from internal/errs, classified as for every
// provider (model.HTTPFailure): 429 and a streamed rate_limit_error are
// *errs.InferenceRateLimited (with Retry-After), 529 and a streamed
// overloaded_error or api_error are the retryable *errs.InferenceFailed,
// 401/403 *errs.ConfigurationInvalid, any other 4xx or a streamed
// invalid_request_error *errs.InferenceRejected. Only the caller's own
// cancellation comes back as a context error.
package anthropic

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/retryafter"
	"github.com/runsvc/runsvc/internal/spec"
)

// DefaultBaseURL is where calls go when the Spec names no base URL.
const DefaultBaseURL = "https://api.anthropic.com/"

// DefaultMaxTokens is max_tokens when neither the Spec nor the token budget
// bounds the answer: the Messages API requires one.
const DefaultMaxTokens = 4096

// maxErrorBodyBytes bounds the error body read.
const maxErrorBodyBytes = 64 << 10

// Options configure a Provider.
type Options struct {
	// HTTPClient makes the calls; nil means http.DefaultClient's
	// transport with the per-call timeout bounding each call.
	HTTPClient *http.Client
	// UserAgent is the User-Agent header; empty means "runsvc".
	UserAgent string
}

// Provider calls the Messages API. It is safe for concurrent use.
type Provider struct {
	client    *http.Client
	userAgent string
}

var _ model.Model = (*Provider)(nil)

// New returns a Provider.
func New(opts Options) *Provider {
	p := &Provider{client: opts.HTTPClient, userAgent: opts.UserAgent}
	if p.client == nil {
		p.client = &http.Client{}
	}
	if p.userAgent == "" {
		p.userAgent = "runsvc"
	}
	return p
}

// Complete implements model.Model: one streamed POST to {BaseURL}/v1/messages.
func (p *Provider) Complete(ctx context.Context, req model.Request) (model.Response, error) {
	c := &call{provider: req.Model.Provider, model: req.Model.Model, apiKey: req.APIKey, timeout: req.Model.CallTimeout}
	if c.provider == "" {
		c.provider = spec.ProviderAnthropic
	}
	if c.timeout <= 0 {
		c.timeout = spec.DefaultModelCallTimeout
	}
	if ctx.Err() != nil {
		return model.Response{}, c.callerDone(ctx)
	}
	if req.Model.APIKeyCredential != "" && req.APIKey == "" {
		return model.Response{}, &errs.CredentialNotFound{Scope: "runs/" + req.RunID, Name: req.Model.APIKeyCredential}
	}
	opts, err := p.options(c, req)
	if err != nil {
		return model.Response{}, err
	}
	params, extra, err := buildParams(req)
	if err != nil {
		return model.Response{}, c.refused(0, err.Error())
	}
	x := &exchange{}
	opts = append(append(opts, extra...), option.WithMiddleware(x.middleware))
	callCtx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	svc := sdk.NewMessageService(opts...)
	stream := svc.NewStreaming(callCtx, params)
	defer func() { _ = stream.Close() }()
	acc := &accumulator{req: req, byBlock: map[int64]int{}}
	for stream.Next() {
		acc.event(stream.Current())
	}
	return c.finish(ctx, callCtx, x, acc, stream.Err())
}

// options are the SDK options of one call, on no environment defaults.
func (p *Provider) options(c *call, req model.Request) ([]option.RequestOption, error) {
	base := strings.TrimSpace(req.Model.BaseURL)
	if base == "" {
		base = DefaultBaseURL
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, c.misconfigured("base URL is not an http or https URL")
	}
	if strings.ContainsFunc(req.APIKey, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return nil, c.misconfigured("the API key holds control characters an HTTP header cannot carry")
	}
	u.Path = strings.TrimRight(u.Path, "/") + "/"
	opts := []option.RequestOption{
		option.WithBaseURL(u.String()),
		option.WithHTTPClient(p.client),
		option.WithMaxRetries(0),
		option.WithHeader("User-Agent", p.userAgent),
	}
	if req.APIKey != "" {
		opts = append(opts, option.WithHeader("x-api-key", req.APIKey))
	}
	return opts, nil
}

// finish turns what the call saw into the Response or the typed error.
func (c *call) finish(ctx, callCtx context.Context, x *exchange, acc *accumulator, streamErr error) (model.Response, error) {
	switch {
	case ctx.Err() != nil:
		return model.Response{}, c.callerDone(ctx)
	case x.transport != nil:
		return model.Response{}, c.transportFailure(callCtx, x.transport)
	case x.resp == nil:
		return model.Response{}, c.failed(0, fmt.Sprintf("the request was not sent: %v", streamErr), 0)
	case x.resp.StatusCode < 200 || x.resp.StatusCode > 299:
		typ, msg := errorBody(x.errBody)
		return model.Response{}, c.statusFailure(x.resp.StatusCode, typ, msg, retryafter.Parse(x.resp.Header, time.Now()))
	}
	var apiErr *sdk.Error
	switch {
	case errors.As(streamErr, &apiErr):
		return model.Response{}, c.streamedError(string(apiErr.Type()), apiErr.Message, retryafter.Parse(x.resp.Header, time.Now()))
	case streamErr != nil && callCtx.Err() != nil:
		return model.Response{}, c.transportFailure(callCtx, streamErr)
	case streamErr != nil:
		var ne net.Error
		if errors.As(streamErr, &ne) || errors.Is(streamErr, io.ErrUnexpectedEOF) {
			return model.Response{}, c.transportFailure(callCtx, streamErr)
		}
		return model.Response{}, c.failed(0, "the server sent a malformed stream: "+streamErr.Error(), 0)
	case !acc.finished:
		return model.Response{}, c.failed(0, "the stream ended before the answer was finished", 0)
	}
	return acc.response(), nil
}

// exchange is what the middleware saw of the HTTP exchange.
type exchange struct {
	resp      *http.Response
	errBody   []byte
	transport error
}

func (x *exchange) middleware(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	resp, err := next(req)
	if err != nil {
		x.transport = err
		return resp, err
	}
	x.resp = resp
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		x.errBody, _ = io.ReadAll(io.LimitReader(resp.Body, maxErrorBodyBytes))
		_ = resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(x.errBody))
	}
	return resp, nil
}

// errorBody reads {"type":"error","error":{"type":..., "message":...}}.
func errorBody(b []byte) (typ, msg string) {
	var body struct {
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(b, &body) != nil {
		return "", ""
	}
	return body.Error.Type, body.Error.Message
}
