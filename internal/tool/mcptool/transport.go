package mcptool

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/runsvc/runsvc/internal/retryafter"
)

// probe records what the HTTP exchanges of one call (or one handshake)
// met, which the SDK's errors only tell as text: status codes, Retry-After
// and transport failures.
type probe struct {
	mu         sync.Mutex
	status     int
	retryAfter time.Duration
	netErr     error
	delivered  bool
	notMCP     string
}

// seen is what a probe recorded.
type seen struct {
	status     int
	retryAfter time.Duration
	netErr     error
	// delivered: the server accepted a request of the call (a POST
	// answered 2xx), so it may have run the tool.
	delivered bool
	// notMCP says how a server answered a POST with something that is
	// not JSON-RPC (a web page, plain text): it answered, and it does not
	// speak MCP.
	notMCP string
}

func (p *probe) response(req *http.Request, resp *http.Response) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.status = resp.StatusCode
	p.retryAfter = retryafter.Parse(resp.Header, time.Now())
	if req.Method == http.MethodPost && resp.StatusCode/100 == 2 {
		p.delivered = true
	}
}

func (p *probe) failure(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.netErr = err
}

func (p *probe) seen() seen {
	if p == nil {
		return seen{}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return seen{status: p.status, retryAfter: p.retryAfter, netErr: p.netErr, delivered: p.delivered, notMCP: p.notMCP}
}

type probeKey struct{}

// withProbe makes the HTTP exchanges made under ctx report to p. The SDK
// sends a call's requests under the call's context, so values reach the
// round tripper.
func withProbe(ctx context.Context, p *probe) context.Context {
	return context.WithValue(ctx, probeKey{}, p)
}

// roundTripper adds the session's bearer token to requests for the
// server's own origin (never to a redirect elsewhere) and reports to the
// probe in the request's context.
type roundTripper struct {
	base       http.RoundTripper
	origin     string
	credential string
}

func newRoundTripper(base http.RoundTripper, k key) *roundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return &roundTripper{base: base, origin: origin(k.url), credential: k.credential}
}

func (t *roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.credential != "" && origin(req.URL.String()) == t.origin {
		req = req.Clone(req.Context())
		req.Header.Set("Authorization", "Bearer "+t.credential)
	}
	if trace.SpanContextFromContext(req.Context()).IsValid() {
		// The tool call's trace context (traceparent), when it is traced.
		req = req.Clone(req.Context())
		otel.GetTextMapPropagator().Inject(req.Context(), propagation.HeaderCarrier(req.Header))
	}
	p, _ := req.Context().Value(probeKey{}).(*probe)
	resp, err := t.base.RoundTrip(req)
	if p == nil {
		return resp, err
	}
	if err != nil {
		p.failure(err)
		return resp, err
	}
	p.response(req, resp)
	if req.Method == http.MethodPost && resp.StatusCode/100 == 2 {
		resp.Body = p.sniff(resp)
	}
	resp.Body = &watchedBody{ReadCloser: resp.Body, p: p}
	return resp, nil
}

// maxSniffed bounds the JSON answer sniff reads ahead of the SDK, which
// reads it whole anyway.
const maxSniffed = 4 << 20

// sniff notes in p when a POST's 2xx answer is not JSON-RPC: a content
// type MCP does not use, or a JSON body that is no JSON-RPC message. It
// returns the body to read in the response's place.
func (p *probe) sniff(resp *http.Response) io.ReadCloser {
	ctype, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch ctype {
	case "text/event-stream":
		return resp.Body
	case "application/json":
	default:
		p.answered(fmt.Sprintf("the server answered with %q, not JSON-RPC", ctype))
		return resp.Body
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxSniffed))
	rest := io.MultiReader(bytes.NewReader(body), resp.Body)
	if err != nil || len(bytes.TrimSpace(body)) == 0 || len(body) == maxSniffed {
		return readCloser{rest, resp.Body}
	}
	if _, derr := jsonrpc.DecodeMessage(body); derr != nil {
		p.answered("the server answered with JSON that is not a JSON-RPC message")
	}
	return readCloser{rest, resp.Body}
}

func (p *probe) answered(notMCP string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.notMCP = notMCP
}

// readCloser reads from one reader and closes another.
type readCloser struct {
	io.Reader
	io.Closer
}

// watchedBody reports a response body broken off mid-way, such as a
// server dying during a streamed answer.
type watchedBody struct {
	io.ReadCloser
	p *probe
}

func (b *watchedBody) Read(q []byte) (int, error) {
	n, err := b.ReadCloser.Read(q)
	if err != nil && !errors.Is(err, io.EOF) {
		b.p.failure(err)
	}
	return n, err
}

func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host)
}
