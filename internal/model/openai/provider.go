// Package openai is a model.Model that speaks the OpenAI chat-completions
// wire format, streamed (SSE with usage), to OpenAI or any compatible
// server, through the official SDK github.com/openai/openai-go/v3.
//
// Every failed call is a typed error from internal/errs: a rate limit is
// *errs.InferenceRateLimited, a refused API key *errs.ConfigurationInvalid,
// a request the server refused as made *errs.InferenceRejected, anything
// else the retryable *errs.InferenceFailed. Only the caller's own cancellation comes back as a
// context error.
package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/spec"
)

// Size limits on what a server sends back.
const (
	maxResponseBytes  = 32 << 20
	maxErrorBodyBytes = 64 << 10
)

// DefaultUserAgent is the User-Agent sent when Options leaves it empty.
const DefaultUserAgent = "runsvc"

// Options configure a Provider.
type Options struct {
	// HTTPClient makes the calls. Nil means a client with dial, TLS
	// handshake and idle-connection timeouts; the per-call timeout
	// (spec.Model.CallTimeout) bounds each call as a whole either way.
	HTTPClient *http.Client
	// UserAgent is the User-Agent header; empty means DefaultUserAgent.
	UserAgent string
}

// Provider calls OpenAI-compatible chat-completions endpoints. It is safe
// for concurrent use.
type Provider struct {
	client    *http.Client
	userAgent string
}

var _ model.Model = (*Provider)(nil)

// New returns a Provider.
func New(opts Options) *Provider {
	p := &Provider{client: opts.HTTPClient, userAgent: opts.UserAgent}
	if p.client == nil {
		p.client = defaultClient()
	}
	if p.userAgent == "" {
		p.userAgent = DefaultUserAgent
	}
	return p
}

// defaultClient has timeouts on every phase but the wait for the answer,
// which the per-call timeout bounds: a long completion is not a fault.
func defaultClient() *http.Client {
	return &http.Client{Transport: &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:     true,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
		IdleConnTimeout:       90 * time.Second,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   16,
	}}
}

// Complete implements model.Model: one streamed POST to
// {BaseURL}/chat/completions through the official SDK, with the SDK's own
// retries off (the Run's retry budget governs), bounded by
// req.Model.CallTimeout (default spec.DefaultModelCallTimeout). Each
// streamed piece goes to req.OnDelta as it arrives. A server that ignores
// "stream" and answers with one JSON body is read as before.
func (p *Provider) Complete(ctx context.Context, req model.Request) (model.Response, error) {
	c := &call{
		provider: req.Model.Provider,
		model:    req.Model.Model,
		apiKey:   req.APIKey,
		timeout:  req.Model.CallTimeout,
	}
	if c.provider == "" {
		c.provider = spec.ProviderOpenAI
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
	params, err := buildParams(req)
	if err != nil {
		return model.Response{}, c.refused(0, err.Error())
	}
	x := &exchange{}
	opts = append(opts, option.WithMiddleware(x.middleware))

	callCtx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	svc := sdk.NewChatCompletionService(opts...)
	stream := svc.NewStreaming(callCtx, params)
	defer func() { _ = stream.Close() }()
	acc := newAccumulator(req)
	for stream.Next() {
		acc.chunk(stream.Current())
	}
	return c.finish(ctx, callCtx, x, acc, stream.Err(), req.Turn)
}

// options are the SDK options of one call. Built on no environment
// defaults: a key or base URL never comes from OPENAI_* variables.
func (p *Provider) options(c *call, req model.Request) ([]option.RequestOption, error) {
	base, err := baseURL(req.Model.BaseURL)
	if err != nil {
		return nil, c.misconfigured(err.Error())
	}
	if strings.ContainsFunc(req.APIKey, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return nil, c.misconfigured("the API key holds control characters an HTTP header cannot carry")
	}
	opts := []option.RequestOption{
		option.WithBaseURL(base),
		option.WithHTTPClient(p.client),
		option.WithMaxRetries(0),
		option.WithHeader("User-Agent", p.userAgent),
		option.WithHeader("Accept", "text/event-stream, application/json"),
	}
	if req.APIKey != "" {
		opts = append(opts, option.WithAPIKey(req.APIKey))
	}
	return opts, nil
}

// finish turns what the call saw into the Response or the typed error.
func (c *call) finish(ctx, callCtx context.Context, x *exchange, acc *accumulator, streamErr error, turn int) (model.Response, error) {
	if x.transport != nil {
		return model.Response{}, c.transportFailure(ctx, callCtx, x.transport)
	}
	if x.resp == nil {
		if ctx.Err() != nil {
			return model.Response{}, c.callerDone(ctx)
		}
		return model.Response{}, c.failed(0, "the request was not sent: "+errText(streamErr), 0)
	}
	if x.resp.StatusCode < 200 || x.resp.StatusCode > 299 {
		if ctx.Err() != nil {
			return model.Response{}, c.callerDone(ctx)
		}
		return model.Response{}, c.statusFailure(x.resp, x.errBody, time.Now())
	}
	if x.whole != nil || x.wholeErr != nil {
		if errors.Is(x.wholeErr, errTooLarge) {
			return model.Response{}, c.failed(0, x.wholeErr.Error(), 0)
		}
		if x.wholeErr != nil {
			return model.Response{}, c.transportFailure(ctx, callCtx, x.wholeErr)
		}
		return c.parse(x.whole, x.resp.StatusCode, turn)
	}
	var se *ssestream.StreamError
	switch {
	case errors.As(streamErr, &se):
		msg, _ := errorMessage(se.Event.Data)
		if msg == "" {
			msg = se.Message
		}
		return model.Response{}, c.failed(x.resp.StatusCode, msg, 0)
	case errors.Is(streamErr, errTooLarge):
		return model.Response{}, c.failed(0, streamErr.Error(), 0)
	case streamErr != nil && (ctx.Err() != nil || callCtx.Err() != nil || isTransport(streamErr)):
		return model.Response{}, c.transportFailure(ctx, callCtx, streamErr)
	case streamErr != nil:
		return model.Response{}, c.failed(0, "the server sent a malformed stream: "+streamErr.Error(), 0)
	case !acc.any:
		return model.Response{}, c.failed(0, "the server sent a stream with no choices", 0)
	case !acc.finished:
		return model.Response{}, c.failed(0, "the stream ended before the answer was finished", 0)
	}
	resp := acc.response(turn)
	resp.Limits = rateLimitHeaders(x.resp.Header)
	return resp, nil
}

// rateLimitHeaders reads OpenAI's x-ratelimit-remaining-*,
// x-ratelimit-reset-* (resets as durations, "6m0s", "20ms") and
// x-ratelimit-limit-requests headers, or nil when it sent none of them.
func rateLimitHeaders(h http.Header) *model.RateLimitHeaders {
	out := &model.RateLimitHeaders{RemainingRequests: -1, RemainingTokens: -1}
	read := func(name string, remaining *int64, reset *time.Duration, resetName string) bool {
		n, err := strconv.ParseInt(strings.TrimSpace(h.Get(name)), 10, 64)
		if err != nil || n < 0 {
			return false
		}
		*remaining = n
		*reset, _ = time.ParseDuration(strings.TrimSpace(h.Get(resetName)))
		*reset = max(*reset, 0)
		return true
	}
	gotRequests := read("X-Ratelimit-Remaining-Requests", &out.RemainingRequests, &out.ResetRequests, "X-Ratelimit-Reset-Requests")
	gotTokens := read("X-Ratelimit-Remaining-Tokens", &out.RemainingTokens, &out.ResetTokens, "X-Ratelimit-Reset-Tokens")
	if n, err := strconv.ParseInt(strings.TrimSpace(h.Get("X-Ratelimit-Limit-Requests")), 10, 64); err == nil && n > 0 {
		out.LimitRequests = n
	}
	if !gotRequests && !gotTokens && out.LimitRequests == 0 {
		return nil
	}
	return out
}

// errText is err's text, or "unknown error".
func errText(err error) string {
	if err == nil {
		return "unknown error"
	}
	return err.Error()
}

// isTransport reports whether err came from reading the connection rather
// than from decoding what it carried.
func isTransport(err error) bool {
	var ne net.Error
	var op *net.OpError
	return errors.As(err, &ne) || errors.As(err, &op) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.EOF)
}

// exchange is what the SDK's middleware saw of the HTTP exchange, so that
// failures are classified from the status, headers and body themselves.
type exchange struct {
	resp      *http.Response
	errBody   []byte
	transport error
	// whole is a 2xx body that is not an event stream; wholeErr the
	// failure reading it.
	whole    []byte
	wholeErr error
}

// middleware records the exchange: an error body is read (bounded) and
// kept, a whole JSON answer is read and kept, and an event stream is
// bounded at maxResponseBytes.
func (x *exchange) middleware(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	resp, err := next(req)
	if err != nil {
		x.transport = err
		return resp, err
	}
	x.resp = resp
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		x.errBody, _ = readLimited(resp.Body, maxErrorBodyBytes)
		_ = resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(x.errBody))
		return resp, nil
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if mt != "text/event-stream" {
		x.whole, x.wholeErr = readLimited(resp.Body, maxResponseBytes)
		if x.whole == nil {
			x.whole = []byte{}
		}
		_ = resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(nil))
		resp.Header.Set("Content-Type", "text/event-stream")
		return resp, nil
	}
	resp.Body = &limitedBody{ReadCloser: resp.Body, left: maxResponseBytes}
	return resp, nil
}

// limitedBody fails with errTooLarge once more than left bytes were read.
type limitedBody struct {
	io.ReadCloser
	left int64
}

func (b *limitedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		return n, fmt.Errorf("%w (over %d bytes)", errTooLarge, maxResponseBytes)
	}
	return n, err
}

// baseURL checks an http(s) base URL and returns it with one trailing
// slash, as the SDK joins paths to it.
func baseURL(base string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(base))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", errors.New("base URL is not an http or https URL")
	}
	u.Path = strings.TrimRight(u.Path, "/") + "/"
	u.RawPath = ""
	return u.String(), nil
}

// errTooLarge is a response body over the size limit.
var errTooLarge = errors.New("the response body is too large")

// readLimited reads at most limit bytes of r; a longer body is errTooLarge.
func readLimited(r io.Reader, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return b, err
	}
	if int64(len(b)) > limit {
		return b[:limit], fmt.Errorf("%w (over %d bytes)", errTooLarge, limit)
	}
	return b, nil
}

// parse decodes a 2xx body into a Response.
func (c *call) parse(body []byte, status, turn int) (model.Response, error) {
	var r chatResponse
	if err := json.Unmarshal(body, &r); err != nil {
		return model.Response{}, c.failed(0, "the server sent a malformed response: "+err.Error(), 0)
	}
	if len(r.Choices) == 0 {
		if msg, _ := apiErrorMessage(r.Error); msg != "" {
			return model.Response{}, c.failed(status, msg, 0)
		}
		return model.Response{}, c.failed(0, "the server sent a response with no choices", 0)
	}
	msg := r.Choices[0].Message
	out := model.Response{Text: msg.text()}
	for i, tc := range msg.ToolCalls {
		id := tc.ID
		if id == "" {
			id = "call_" + strconv.Itoa(turn) + "_" + strconv.Itoa(i)
		}
		out.ToolCalls = append(out.ToolCalls, model.ToolCall{
			ID:        id,
			Name:      tc.Function.Name,
			Arguments: arguments(tc.Function.Arguments),
		})
	}
	if r.Usage != nil {
		out.Usage = model.Usage{InputTokens: r.Usage.PromptTokens, OutputTokens: r.Usage.CompletionTokens}
	}
	return out, nil
}
