package server

import (
	"context"
	"errors"
	"strings"
	"sync"

	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/errs"
)

// openStream is a stream in progress and how its caller was admitted.
type openStream struct {
	// incoming is the stream's own context: its metadata and peer, from
	// which the caller is identified again.
	incoming context.Context
	method   string
	id       auth.Identity
	// revoke ends the handler's context with the reason as its cause.
	revoke context.CancelCauseFunc
}

// openStreams is the set of streams in progress.
type openStreams struct {
	mu sync.Mutex
	m  map[*openStream]struct{}
}

// add records s until the returned func is called.
func (o *openStreams) add(s *openStream) func() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.m == nil {
		o.m = map[*openStream]struct{}{}
	}
	o.m[s] = struct{}{}
	return func() {
		o.mu.Lock()
		defer o.mu.Unlock()
		delete(o.m, s)
	}
}

// list returns the streams in progress.
func (o *openStreams) list() []*openStream {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := make([]*openStream, 0, len(o.m))
	for s := range o.m {
		out = append(out, s)
	}
	return out
}

// revalidate identifies the caller of every open stream again, after the
// keys file reloaded: a stream whose key or certificate identity is no
// longer in the file, or now names another identity or tenant, ends
// UNAUTHENTICATED; one whose roles no longer allow its method ends
// ROLE_DENIED. Admission happens once per stream, so without this a
// revoked key's WatchRun, StreamText, WatchMemory, Receive or ServeTools
// would go on delivering.
func (a *authenticator) revalidate() {
	for _, s := range a.open.list() {
		if why := a.stillAdmitted(s); why != nil {
			a.log.Warn("stream ended: its caller's identity changed in the keys file", "method", s.method, "identity", s.id.Name, "tenant", s.id.Tenant, "why", why.Error())
			s.revoke(why)
		}
	}
}

// stillAdmitted returns why the keys now refuse s's caller, or nil.
func (a *authenticator) stillAdmitted(s *openStream) error {
	id, err := a.identify(s.incoming)
	if err != nil {
		return &errs.Unauthenticated{Reason: "the caller's identity was removed from the keys file while its stream was open"}
	}
	if id.Name != s.id.Name || id.Tenant != s.id.Tenant {
		return &errs.Unauthenticated{Reason: "the caller's key or certificate names another identity since the keys file changed"}
	}
	if !id.Allows(s.method) {
		return &errs.RoleDenied{Role: strings.Join(id.Roles, ","), Method: s.method}
	}
	return nil
}

// revokedCause returns the refusal that revalidate ended ctx with, or nil
// when ctx did not end that way.
func revokedCause(ctx context.Context) error {
	cause := context.Cause(ctx)
	var unauth *errs.Unauthenticated
	var denied *errs.RoleDenied
	if errors.As(cause, &unauth) || errors.As(cause, &denied) {
		return cause
	}
	return nil
}
