package mcptool

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os/exec"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/tool"
)

// maxMessage bounds the text an error carries.
const maxMessage = 4 << 10

// Codes the SDK's JSON-RPC layer uses for its own conditions, never as a
// server's answer.
const (
	codeClientClosing = -32003
	codeServerClosing = -32004
	codeRejected      = -32005
)

// verdict is what a failed exchange means.
type verdict struct {
	message    string
	retryable  bool
	retryAfter time.Duration
	// drop: the session is unusable or suspect; open a new one.
	drop bool
	// resend: the server never received the call, so sending it again on
	// a new session cannot run the tool twice.
	resend bool
}

// judge classifies an error of the SDK, using what p saw on the wire.
func judge(err error, p *probe) verdict {
	s := p.seen()
	var wire *jsonrpc.Error
	switch {
	case errors.Is(err, errClosed):
		return verdict{message: "runsvc is shutting down", retryable: true}
	case s.notMCP != "" && s.netErr == nil:
		// It answered, and not with MCP: another try gets the same.
		return verdict{message: s.notMCP, drop: true}
	case errors.Is(err, mcp.ErrSessionMissing), errors.Is(err, mcp.ErrConnectionClosed):
		return verdict{message: "the session with the server was lost", retryable: true, drop: true, resend: !s.delivered}
	case s.netErr != nil && (isTimeout(s.netErr) || isTimeout(err)):
		return verdict{message: "the server did not answer in time", retryable: true, drop: true}
	case s.netErr != nil:
		return verdict{message: "the connection failed: " + withoutURL(s.netErr), retryable: !permanent(s.netErr), drop: true}
	case s.status == http.StatusTooManyRequests || s.status == http.StatusRequestTimeout || s.status >= 500:
		return verdict{message: httpStatus(s.status), retryable: true, retryAfter: s.retryAfter}
	case errors.As(err, &wire) && !internalCode(wire.Code):
		return verdict{message: wire.Message}
	case s.status >= 400:
		return verdict{message: httpStatus(s.status), drop: true}
	case isTimeout(err):
		return verdict{message: "the server did not answer in time", retryable: true, drop: true}
	}
	return verdict{message: "protocol error: " + err.Error(), drop: true}
}

// judge classifies an error of the SDK in an exchange with k's server.
func (x *Executor) judge(k key, err error, p *probe) verdict {
	if k.command != "" {
		return judgeStdio(err)
	}
	return judge(err, p)
}

// judgeStdio classifies an error of an exchange with a stdio server. A
// call on a process that died may have run, so it is never sent again by
// the Executor (the engine retries it, as at least once allows); a slow
// call does not stop the process, which other calls share.
func judgeStdio(err error) verdict {
	var wire *jsonrpc.Error
	var start *startFailed
	switch {
	case errors.Is(err, errClosed):
		return verdict{message: "runsvc is shutting down", retryable: true}
	case errors.Is(err, exec.ErrNotFound), errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrPermission):
		return verdict{message: "the server's command cannot be run: " + err.Error(), drop: true}
	case errors.As(err, &start):
		msg := "the server's process did not complete the MCP handshake: " + err.Error()
		if start.stderr != "" {
			msg += "; its stderr ends: " + start.stderr
		}
		return verdict{message: msg, retryable: true, drop: true}
	case errors.Is(err, mcp.ErrConnectionClosed), errors.Is(err, io.EOF), errors.Is(err, io.ErrClosedPipe):
		return verdict{message: "the server's process ended", retryable: true, drop: true}
	case errors.As(err, &wire) && !internalCode(wire.Code):
		return verdict{message: wire.Message}
	case isTimeout(err):
		return verdict{message: "the server did not answer in time", retryable: true}
	}
	return verdict{message: "protocol error: " + err.Error(), drop: true}
}

// report turns a verdict into the error Execute returns.
func report(ctx context.Context, c tool.Call, v verdict) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return errs.MCPFailure(c.Tool.MCP.Label(), c.Name, scrub(v.message, c), v.retryable, v.retryAfter)
}

// scrub is clean with every secret of the call: its credential and the
// values of its environment.
func scrub(msg string, c tool.Call) string {
	for _, v := range c.Env {
		if len(v) >= 4 {
			msg = strings.ReplaceAll(msg, v, "[redacted]")
		}
	}
	return clean(msg, c.Credential)
}

func internalCode(code int64) bool {
	return code == codeClientClosing || code == codeServerClosing || code == codeRejected
}

func httpStatus(code int) string {
	return fmt.Sprintf("the server answered HTTP %d %s", code, http.StatusText(code))
}

// permanent reports transport failures another try cannot fix.
func permanent(err error) bool {
	var cert *tls.CertificateVerificationError
	var unknown x509.UnknownAuthorityError
	var host x509.HostnameError
	return errors.As(err, &cert) || errors.As(err, &unknown) || errors.As(err, &host)
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}

// withoutURL is a transport error's text without the request's URL.
func withoutURL(err error) string {
	var ue *url.Error
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "the server closed the connection"
	case errors.As(err, &ue):
		return ue.Err.Error()
	}
	return err.Error()
}

// clean redacts the credential from a message and bounds its length.
func clean(msg, credential string) string {
	if credential != "" {
		msg = strings.ReplaceAll(msg, credential, "[redacted]")
	}
	if len(msg) <= maxMessage {
		return msg
	}
	cut := maxMessage
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return msg[:cut] + "…"
}
