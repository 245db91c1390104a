// Package mcpserver serves runsvc's Specs as the tools of a streamable-HTTP
// MCP server (DESIGN §14): every Spec of the caller's tenant whose
// exposure.mcp is set is a tool, and tools/call starts a durable Run of it
// and answers with the Run's answer.
//
// The server is a client of runsvc's own API: every request it makes goes
// through the in-process gRPC server, so through the interceptor chain of
// the API (authentication, roles, quotas, admission, errors), with the
// caller's API key (Authorization: Bearer) forwarded. A caller sees and
// starts only its tenant's Specs; an MCP session is bound to the key that
// opened it.
package mcpserver

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// Options configure the MCP server.
type Options struct {
	// Conn reaches runsvc's API (the in-process gRPC server).
	Conn grpc.ClientConnInterface
	// Version is runsvc's version, for the MCP handshake; empty means "dev".
	Version string
	// Log logs what the server notices; nil discards.
	Log *slog.Logger
}

// Server is the MCP server's HTTP handler.
type Server struct {
	specs  runsvcv1.SpecServiceClient
	runs   runsvcv1.RunServiceClient
	log    *slog.Logger
	impl   *mcp.Implementation
	stream *mcp.StreamableHTTPHandler
}

// New returns the MCP server. Mount it on a path of the HTTP surface or
// serve it on its own listener.
func New(opts Options) *Server {
	s := &Server{
		specs: runsvcv1.NewSpecServiceClient(opts.Conn),
		runs:  runsvcv1.NewRunServiceClient(opts.Conn),
		log:   opts.Log,
		impl:  &mcp.Implementation{Name: "runsvc", Version: opts.Version},
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.impl.Version == "" {
		s.impl.Version = "dev"
	}
	s.stream = mcp.NewStreamableHTTPHandler(s.session, &mcp.StreamableHTTPOptions{Logger: s.log})
	return s
}

// ServeHTTP authenticates the request (the API decides: a key of the keys
// file, or nobody when runsvc authenticates nobody), then serves MCP.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	token, hasToken := bearer(r.Header)
	if !hasToken {
		if _, err := s.listExposed(r.Context(), r.Header); err != nil {
			unauthenticated(w, err)
			return
		}
		s.stream.ServeHTTP(w, r)
		return
	}
	verify := func(ctx context.Context, _ string, req *http.Request) (*auth.TokenInfo, error) {
		if _, err := s.listExposed(ctx, req.Header); err != nil {
			if status.Code(err) == codes.Unauthenticated || status.Code(err) == codes.PermissionDenied {
				return nil, auth.ErrInvalidToken
			}
			return nil, err
		}
		sum := sha256.Sum256([]byte(token))
		return &auth.TokenInfo{UserID: hex.EncodeToString(sum[:])}, nil
	}
	auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(s.stream).ServeHTTP(w, r)
}

// unauthenticated answers a request the API refused.
func unauthenticated(w http.ResponseWriter, err error) {
	code := http.StatusUnauthorized
	switch status.Code(err) {
	case codes.Unauthenticated:
		w.Header().Set("WWW-Authenticate", `Bearer realm="runsvc"`)
	case codes.PermissionDenied:
		code = http.StatusForbidden
	default:
		code = http.StatusServiceUnavailable
	}
	http.Error(w, status.Convert(err).Message(), code)
}

// bearer is the token of an Authorization: Bearer header.
func bearer(h http.Header) (string, bool) {
	v := h.Get("Authorization")
	if len(v) < 7 || !strings.EqualFold(v[:7], "bearer ") {
		return "", false
	}
	return strings.TrimSpace(v[7:]), true
}

// outgoing forwards the caller's credential to the API.
func outgoing(ctx context.Context, h http.Header) context.Context {
	if v := h.Get("Authorization"); v != "" {
		return metadata.AppendToOutgoingContext(ctx, "authorization", v)
	}
	return ctx
}

// maxPages bounds the Spec listing (500 Specs a page).
const maxPages = 20

// listExposed lists the newest Version of the caller's Specs that are
// served over MCP.
func (s *Server) listExposed(ctx context.Context, h http.Header) ([]*runsvcv1.Spec, error) {
	ctx = outgoing(ctx, h)
	var out []*runsvcv1.Spec
	token := ""
	for range maxPages {
		resp, err := s.specs.ListSpecs(ctx, &runsvcv1.ListSpecsRequest{PageSize: 500, PageToken: token})
		if err != nil {
			return nil, err
		}
		for _, sp := range resp.GetSpecs() {
			if sp.GetExposure().GetMcp() {
				out = append(out, sp)
			}
		}
		if token = resp.GetNextPageToken(); token == "" {
			break
		}
	}
	return out, nil
}
