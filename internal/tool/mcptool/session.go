package mcptool

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// errClosed is what a call meets once the Executor is closed.
var errClosed = errors.New("the MCP executor is closed")

// key names a session: one per HTTP server and credential, one per
// tenant and stdio server (see keyOf).
type key struct {
	url        string
	credential string
	tenant     string
	command    string
	args       string // joined by NUL
	env        string // NAME=value, sorted, joined by NUL
}

// slot holds the session of one key. turn is a one-place semaphore held
// by the caller establishing the session, so concurrent callers wait for
// it (each within its own context) instead of opening sessions of their
// own.
type slot struct {
	turn chan struct{}
	cs   *mcp.ClientSession // guarded by Executor.mu
}

// session returns the open session for k, establishing it when there is
// none. The handshake's HTTP exchanges are recorded in p.
func (x *Executor) session(ctx context.Context, k key, p *probe) (*mcp.ClientSession, error) {
	s, cs, err := x.lookup(k)
	if cs != nil || err != nil {
		return cs, err
	}
	select {
	case s.turn <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-s.turn }()
	if _, cs, err := x.lookup(k); cs != nil || err != nil {
		return cs, err
	}
	cs, err = x.connect(ctx, k, p)
	if err != nil {
		return nil, err
	}
	x.mu.Lock()
	if x.closed {
		x.mu.Unlock()
		_ = cs.Close()
		return nil, errClosed
	}
	s.cs = cs
	x.mu.Unlock()
	x.watch(k, cs)
	return cs, nil
}

func (x *Executor) lookup(k key) (*slot, *mcp.ClientSession, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.closed {
		return nil, nil, errClosed
	}
	s := x.sessions[k]
	if s == nil {
		s = &slot{turn: make(chan struct{}, 1)}
		x.sessions[k] = s
	}
	return s, s.cs, nil
}

// connect performs the MCP handshake. The session outlives the call that
// opens it, so it gets a context free of the caller's values that is
// cancelled only while the caller's is.
func (x *Executor) connect(ctx context.Context, k key, p *probe) (*mcp.ClientSession, error) {
	stderr := &tail{}
	own, cancel := context.WithCancel(withProbe(context.Background(), p))
	defer cancel()
	defer context.AfterFunc(ctx, cancel)()
	cs, err := x.client.Connect(own, x.transport(k, stderr), nil)
	if err != nil && k.command != "" {
		return nil, &startFailed{err: err, stderr: stderr.String()}
	}
	return cs, err
}

// startFailed is a stdio server that could not be started or did not
// complete the handshake.
type startFailed struct {
	err    error
	stderr string
}

func (e *startFailed) Error() string { return e.err.Error() }
func (e *startFailed) Unwrap() error { return e.err }

// drop forgets cs, if it is still k's session, and closes it in the
// background: closing waits for the session's calls in flight and then
// tells the server. Calls made meanwhile open a new session.
func (x *Executor) drop(k key, cs *mcp.ClientSession) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if s := x.sessions[k]; s != nil && s.cs == cs {
		s.cs = nil
		x.closing.Go(func() { _ = cs.Close() })
	}
}
