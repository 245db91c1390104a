package server

import (
	"context"
	"crypto/x509"
	"log/slog"
	"strings"
	"sync/atomic"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"

	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/errs"
)

// authenticator turns a caller's bearer token or client certificate into
// an auth.Identity in the context, refuses methods its roles do not allow,
// and applies the tenant's quotas to StartRun. Errors are typed; the
// errdetails interceptor outside it maps them.
type authenticator struct {
	keys   *auth.Keys
	quotas *quotas
	log    *slog.Logger
	// registered is every method the server serves, set once the services
	// are registered: an authenticated call of any other method goes on to
	// the unknown-method handler (METHOD_NOT_FOUND), not ROLE_DENIED.
	registered atomic.Pointer[map[string]bool]
	// open are the streams in progress, checked again when the keys
	// reload (see revalidate).
	open openStreams
}

// setMethods records the methods the server serves.
func (a *authenticator) setMethods(methods []string) {
	set := make(map[string]bool, len(methods))
	for _, m := range methods {
		set[m] = true
	}
	a.registered.Store(&set)
}

// serves reports whether method is one the server registered.
func (a *authenticator) serves(method string) bool {
	set := a.registered.Load()
	return set == nil || (*set)[method]
}

const startRunMethod = "/runsvc.v1.RunService/StartRun"

// forkRunMethod starts a Run too, under the same quotas.
const forkRunMethod = "/runsvc.v1.RunService/ForkRun"

// admit returns ctx carrying the caller's identity, or the typed error
// refusing the call, and a release func to call when the call ends.
func (a *authenticator) admit(ctx context.Context, method string) (context.Context, func(), error) {
	id, err := a.identify(ctx)
	if err != nil {
		a.log.Warn("call refused: unauthenticated", "method", method, "peer", peerAddr(ctx), "why", err.(*errs.Unauthenticated).Reason)
		return ctx, nil, err
	}
	if !id.Allows(method) && a.serves(method) {
		a.log.Warn("call refused: role denied", "method", method, "identity", id.Name, "tenant", id.Tenant, "roles", strings.Join(id.Roles, ","))
		return ctx, nil, &errs.RoleDenied{Role: strings.Join(id.Roles, ","), Method: method}
	}
	ctx = auth.WithIdentity(ctx, id)
	release := func() {}
	if method == startRunMethod || method == forkRunMethod {
		rel, err := a.quotas.admit(ctx, id)
		if err != nil {
			return ctx, nil, err
		}
		release = rel
	}
	return ctx, release, nil
}

// identify finds the caller: a bearer token first, then a verified client
// certificate's CN or URI SANs. The presented key is never logged.
func (a *authenticator) identify(ctx context.Context) (auth.Identity, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	if vals := md.Get("authorization"); len(vals) > 0 {
		token, ok := bearerToken(vals[0])
		if !ok {
			return auth.Identity{}, &errs.Unauthenticated{Reason: "the authorization header is not 'Bearer <api key>'"}
		}
		if id, ok := a.keys.ByKey(token); ok {
			return id, nil
		}
		return auth.Identity{}, &errs.Unauthenticated{Reason: "the API key is not in the keys file"}
	}
	if names := certNames(ctx); len(names) > 0 {
		if id, ok := a.keys.ByCertificate(names); ok {
			return id, nil
		}
		return auth.Identity{}, &errs.Unauthenticated{Reason: "the client certificate's identity is not in the keys file"}
	}
	return auth.Identity{}, &errs.Unauthenticated{Reason: "no API key (authorization: Bearer <key>) and no client certificate"}
}

// bearerToken returns the token of an authorization header of the
// Bearer scheme. The scheme's name is case-insensitive and one or more
// spaces may follow it (RFC 9110 §11.1, §11.4).
func bearerToken(header string) (string, bool) {
	scheme, token, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimLeft(token, " ")
	return token, token != ""
}

// certNames returns the CN and URI SANs of a verified client certificate.
func certNames(ctx context.Context) []string {
	p, ok := peer.FromContext(ctx)
	if !ok {
		return nil
	}
	info, ok := p.AuthInfo.(credentials.TLSInfo)
	if !ok || len(info.State.VerifiedChains) == 0 || len(info.State.VerifiedChains[0]) == 0 {
		return nil
	}
	return leafNames(info.State.VerifiedChains[0][0])
}

func leafNames(c *x509.Certificate) []string {
	var out []string
	if c.Subject.CommonName != "" {
		out = append(out, c.Subject.CommonName)
	}
	for _, u := range c.URIs {
		out = append(out, u.String())
	}
	return out
}

func peerAddr(ctx context.Context) string {
	if p, ok := peer.FromContext(ctx); ok && p.Addr != nil {
		return p.Addr.String()
	}
	return ""
}

// UnaryServerInterceptor authenticates unary calls.
func (a *authenticator) UnaryServerInterceptor() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if auth.Open(info.FullMethod) {
			return handler(ctx, req)
		}
		ctx, release, err := a.admit(ctx, info.FullMethod)
		if err != nil {
			return nil, err
		}
		defer release()
		return handler(ctx, req)
	}
}

// StreamServerInterceptor authenticates streaming calls.
func (a *authenticator) StreamServerInterceptor() grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		if auth.Open(info.FullMethod) {
			return handler(srv, ss)
		}
		ctx, release, err := a.admit(ss.Context(), info.FullMethod)
		if err != nil {
			return err
		}
		defer release()
		ctx, revoke := context.WithCancelCause(ctx)
		defer revoke(nil)
		id, _ := auth.FromContext(ctx)
		defer a.open.add(&openStream{incoming: ss.Context(), method: info.FullMethod, id: id, revoke: revoke})()
		err = handler(srv, identityStream{ServerStream: ss, ctx: ctx})
		if cause := revokedCause(ctx); cause != nil {
			return cause
		}
		return err
	}
}

// identityStream is a stream whose context carries the caller's identity.
type identityStream struct {
	grpc.ServerStream
	ctx context.Context
}

// Context returns the context with the identity.
func (s identityStream) Context() context.Context { return s.ctx }
