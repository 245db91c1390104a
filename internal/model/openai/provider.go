// Package openai is a model.Model that speaks the OpenAI chat-completions
// wire format (non-streaming) to OpenAI or any compatible server.
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
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

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

// Complete implements model.Model: one POST to {BaseURL}/chat/completions,
// bounded by req.Model.CallTimeout (default spec.DefaultModelCallTimeout).
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
	httpReq, err := p.newRequest(c, req)
	if err != nil {
		return model.Response{}, err
	}

	callCtx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	resp, err := p.client.Do(httpReq.WithContext(callCtx))
	if err != nil {
		return model.Response{}, c.transportFailure(ctx, callCtx, err)
	}
	defer func() { _ = resp.Body.Close() }()

	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		body, _ := readLimited(resp.Body, maxErrorBodyBytes)
		if ctx.Err() != nil {
			return model.Response{}, c.callerDone(ctx)
		}
		return model.Response{}, c.statusFailure(resp, body, time.Now())
	}
	body, err := readLimited(resp.Body, maxResponseBytes)
	if errors.Is(err, errTooLarge) {
		return model.Response{}, c.failed(0, err.Error(), 0)
	}
	if err != nil {
		return model.Response{}, c.transportFailure(ctx, callCtx, err)
	}
	return c.parse(body, resp.StatusCode, req.Turn)
}

// newRequest builds the HTTP request; its failures are the Spec's or the
// conversation's, so none is retryable.
func (p *Provider) newRequest(c *call, req model.Request) (*http.Request, error) {
	endpoint, err := endpoint(req.Model.BaseURL)
	if err != nil {
		return nil, c.misconfigured(err.Error())
	}
	if strings.ContainsFunc(req.APIKey, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return nil, c.misconfigured("the API key holds control characters an HTTP header cannot carry")
	}
	wire, err := buildRequest(req)
	if err != nil {
		return nil, c.refused(0, err.Error())
	}
	body, err := json.Marshal(wire)
	if err != nil {
		return nil, c.refused(0, "encoding the request: "+err.Error())
	}
	httpReq, err := http.NewRequest(http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, c.misconfigured("base URL: " + err.Error())
	}
	httpReq.Header.Set("Content-Type", "application/json")
	httpReq.Header.Set("Accept", "application/json")
	httpReq.Header.Set("User-Agent", p.userAgent)
	if req.APIKey != "" {
		httpReq.Header.Set("Authorization", "Bearer "+req.APIKey)
	}
	return httpReq, nil
}

// endpoint returns {base}/chat/completions, tolerating a trailing slash.
func endpoint(base string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(base))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", errors.New("base URL is not an http or https URL")
	}
	u.Path = strings.TrimRight(u.Path, "/") + "/chat/completions"
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
