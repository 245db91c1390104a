// Package mcptool executes MCP tools: runsvc calls a tool on an MCP server
// over the streamable HTTP transport or over stdio, through the official
// MCP Go SDK, and lists servers' tools for a Spec's imports.
//
// The Executor keeps one MCP session per (server URL, credential), and one
// per (tenant, stdio server): a process runsvc starts when first needed
// and starts again after it dies. A session is shared by every call and
// goroutine, and established anew when it breaks. A call an HTTP server
// never received because its session was gone is sent again once on a
// fresh session; anything else is reported, classified, for the engine to
// retry or to show the model.
//
// Stdio servers run only as the commands Options.Commands allows, with
// PATH, HOME, TMPDIR and LANG of runsvc's environment plus the Spec's env.
package mcptool

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/netpolicy"
	"github.com/runsvc/runsvc/internal/tool"
)

// Options configure an Executor. The zero value works.
type Options struct {
	// HTTPClient carries the MCP traffic; nil means a client on
	// http.DefaultTransport. Its Timeout, if set, bounds each HTTP
	// exchange, including the whole streamed answer to a tool call, so
	// leave it zero and let the call's context bound tool calls.
	HTTPClient *http.Client
	// Network is the outbound network policy of the default client (when
	// HTTPClient is nil); nil checks nothing, so the server always passes
	// its policy.
	Network *netpolicy.Policy
	// ClientName and ClientVersion identify runsvc to servers in the MCP
	// handshake; empty means "runsvc" and "dev".
	ClientName    string
	ClientVersion string
	// Commands are the programs stdio servers may be run as, exactly as a
	// Spec names them ("npx", "/usr/bin/mcp-files"), or "*" for any. A
	// Spec's publisher chooses the command, so none is allowed unless the
	// operator lists it.
	Commands []string
}

// Executor calls tools on MCP servers. It is safe for concurrent use;
// Close it to end its sessions.
type Executor struct {
	client *mcp.Client
	http   *http.Client

	commands map[string]bool

	mu       sync.Mutex
	sessions map[key]*slot
	closed   bool
	closing  sync.WaitGroup

	inflight calls
}

var _ tool.Executor = (*Executor)(nil)

// New returns an Executor. It connects to nothing until the first call.
func New(opts Options) *Executor {
	hc := opts.HTTPClient
	switch {
	case hc == nil && opts.Network != nil:
		hc = &http.Client{Transport: opts.Network.Transport()}
	case hc == nil:
		hc = &http.Client{Transport: http.DefaultTransport}
	}
	name, version := opts.ClientName, opts.ClientVersion
	if name == "" {
		name = "runsvc"
	}
	if version == "" {
		version = "dev"
	}
	commands := map[string]bool{}
	for _, c := range opts.Commands {
		commands[c] = true
	}
	x := &Executor{
		http:     hc,
		commands: commands,
		sessions: make(map[key]*slot),
	}
	x.client = mcp.NewClient(&mcp.Implementation{Name: name, Version: version}, &mcp.ClientOptions{ElicitationHandler: x.elicit})
	return x
}

// AllowCommand is nil when stdio servers may be run as command, else
// *errs.AccessDenied about subject.
func (x *Executor) AllowCommand(subject, command string) error {
	if command == "" || x.commands["*"] || x.commands[command] {
		return nil
	}
	return &errs.AccessDenied{Subject: subject, Reason: fmt.Sprintf("the operator allows no stdio MCP server command %q (runsvc serve --mcp-command)", command)}
}

// Execute calls the tool c.Tool.MCP.RemoteName (c.Name when empty) on the
// server at c.Tool.MCP.URL with c.Arguments, a JSON object, sending
// c.Credential, when set, as a bearer token; or, for a stdio tool, on the
// process c.Tool.MCP.Command of c.Tenant, started with c.Env.
//
// The output is the result's structured content, its text as a JSON
// string, or a Content of its parts (see Part). A result marked isError
// is *errs.ToolRejected carrying the tool's text (the tool ran and said
// no), which the model sees as the call's result. A failed exchange is
// *errs.MCPFailed when another try may succeed (connection failures, a
// lost session, timeouts, HTTP 429 and 5xx) and *errs.MCPRejected
// otherwise (protocol errors, an unknown tool, invalid arguments, other
// HTTP 4xx).
// When ctx ends first, the error is ctx.Err(). No message carries the
// credential.
func (x *Executor) Execute(ctx context.Context, c tool.Call) (json.RawMessage, error) {
	if c.Tool.MCP == nil || (!c.Tool.MCP.Stdio() && !usableURL(c.Tool.MCP.URL)) {
		return nil, &errs.ConfigurationInvalid{Subject: "tool " + c.Name, Description: "an MCP tool needs an http or https mcp.url or an mcp.command"}
	}
	name := c.Tool.MCP.RemoteName
	if name == "" {
		name = c.Name
	}
	if err := x.AllowCommand("tool "+c.Name, c.Tool.MCP.Command); err != nil {
		return nil, err
	}
	args, ok := arguments(c.Arguments)
	if !ok {
		return nil, &errs.MCPRejected{Server: c.Tool.MCP.Label(), Tool: c.Name, Message: "the arguments are not a JSON object"}
	}
	k := keyOf(c)
	for attempt := 0; ; attempt++ {
		connecting := new(probe)
		cs, err := x.session(ctx, k, connecting)
		if err != nil {
			if denied := refusal(c, err, connecting); denied != nil {
				return nil, denied
			}
			return nil, report(ctx, c, x.judge(k, err, connecting))
		}
		calling, asks := new(probe), &asking{answer: c.Answer}
		done := x.inflight.add(cs, asks)
		res, err := cs.CallTool(withAsking(withProbe(ctx, calling), asks), &mcp.CallToolParams{Meta: callMeta(c), Name: name, Arguments: args})
		done()
		if q := asks.asked(); q != "" && ctx.Err() == nil {
			return nil, &tool.Asked{Question: q}
		}
		if err == nil {
			return output(c, res)
		}
		if denied := refusal(c, err, calling); denied != nil {
			x.drop(k, cs)
			return nil, denied
		}
		v := x.judge(k, err, calling)
		if ctx.Err() == nil && v.drop {
			x.drop(k, cs)
		}
		if ctx.Err() == nil && v.resend && attempt == 0 {
			continue
		}
		return nil, report(ctx, c, v)
	}
}

// Close ends every session, after the calls in flight on it return, and
// waits for them to end. Calls made after Close fail with a retryable
// *errs.MCPFailed.
func (x *Executor) Close() {
	x.mu.Lock()
	x.closed = true
	for _, s := range x.sessions {
		if cs := s.cs; cs != nil {
			s.cs = nil
			x.closing.Go(func() { _ = cs.Close() })
		}
	}
	x.mu.Unlock()
	x.closing.Wait()
}

// arguments checks that raw is a JSON object; empty and null mean {}.
func arguments(raw json.RawMessage) (json.RawMessage, bool) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return json.RawMessage(`{}`), true
	}
	if trimmed[0] != '{' || !json.Valid(trimmed) {
		return nil, false
	}
	return json.RawMessage(trimmed), true
}

func usableURL(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// MetaIdempotencyKey is the `_meta` key of tools/call holding the call's
// idempotency key (tool.Call.GlobalID), the same in every attempt of the
// call: a server that deduplicates by it makes at-least-once delivery safe.
const MetaIdempotencyKey = "runsvc/idempotency-key"

func callMeta(c tool.Call) mcp.Meta {
	return mcp.Meta{MetaIdempotencyKey: c.GlobalID()}
}

// refusal is *errs.AccessDenied when the outbound network policy refused
// a connection of the exchange, else nil.
func refusal(c tool.Call, err error, p *probe) error {
	if denied, ok := netpolicy.Denied("tool "+c.Name, err); ok {
		return denied
	}
	if denied, ok := netpolicy.Denied("tool "+c.Name, p.seen().netErr); ok {
		return denied
	}
	return nil
}
