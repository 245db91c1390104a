package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"google.golang.org/genproto/googleapis/rpc/code"
	edpb "google.golang.org/genproto/googleapis/rpc/errdetails"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/runsvc/runsvc/internal/errdetails"
)

// usageError is a wrong command line or input file: nothing was sent.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// errHelp is returned after -h printed a command's usage.
var errHelp = errors.New("help requested")

// exitCode ends the command with a code and no message: the output
// already said why (a watched Run that did not complete).
type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit code %d", int(e)) }

// clientError is a failure the client found itself, classified like a
// server's.
type clientError struct {
	code      codes.Code
	msg       string
	retryable bool
}

func (e *clientError) Error() string { return e.msg }

// failure is an error as the user sees it.
type failure struct {
	c          errdetails.Classification
	violations []*edpb.BadRequest_FieldViolation
	help       []*edpb.Help_Link
	hints      []string
}

// exit prints err, if any, and returns the exit code it means.
func (a *app) exit(ctx context.Context, err error) int {
	var usage *usageError
	var code exitCode
	switch {
	case err == nil, errors.Is(err, errHelp):
		return ExitOK
	case errors.As(err, &code):
		return int(code)
	case ctx.Err() != nil:
		return ExitInterrupted
	case errors.As(err, &usage):
		if a.json {
			a.printErrorJSON(failure{c: errdetails.Classification{Code: codes.InvalidArgument, Message: usage.msg}})
		} else {
			fmt.Fprintf(a.stderr, "runsvc: %s\n", usage.msg)
			if a.cmd != "" {
				fmt.Fprintf(a.stderr, "Run \"runsvc %s -h\" for usage.\n", a.cmd)
			} else {
				fmt.Fprintf(a.stderr, "Run \"runsvc -h\" for usage.\n")
			}
		}
		return ExitUsage
	}
	f := a.describe(err)
	if a.json {
		a.printErrorJSON(f)
	} else {
		fmt.Fprintf(a.stderr, "runsvc: %s %s\n", strings.TrimSpace(f.c.Message), tag(f.c))
		for _, v := range f.violations {
			fmt.Fprintf(a.stderr, "  %s: %s\n", v.GetField(), v.GetDescription())
		}
		for _, l := range f.help {
			fmt.Fprintf(a.stderr, "  see %s (%s)\n", l.GetUrl(), l.GetDescription())
		}
		for _, h := range f.hints {
			fmt.Fprintf(a.stderr, "  %s\n", h)
		}
	}
	if f.c.Retryable {
		return ExitTempFail
	}
	return ExitFailure
}

// describe classifies an error: a status from runsvc by its details, a
// status grpc made up locally (no connection, our own timeout) by its
// code, anything else as a local failure.
func (a *app) describe(err error) failure {
	var he *hintedError
	if errors.As(err, &he) {
		f := a.describe(he.err)
		f.hints = append(f.hints, he.hint)
		return f
	}
	var ce *clientError
	if errors.As(err, &ce) {
		return failure{c: errdetails.Classification{Code: ce.code, Message: ce.msg, Retryable: ce.retryable, Metadata: map[string]string{}}}
	}
	st, ok := status.FromError(err)
	if !ok {
		return failure{c: errdetails.Classification{Code: codes.Unknown, Message: err.Error(), Metadata: map[string]string{}}}
	}
	f := failure{c: errdetails.ClassifyStatus(st.Proto())}
	for _, d := range st.Details() {
		switch d := d.(type) {
		case *edpb.BadRequest:
			f.violations = d.GetFieldViolations()
		case *edpb.Help:
			f.help = d.GetLinks()
		}
	}
	if f.c.Reason != "" {
		return f
	}
	switch st.Code() {
	case codes.Unavailable:
		f.c.Retryable = true
		f.c.Message = fmt.Sprintf("cannot reach runsvc at %s: %s", a.addr, transportCause(st.Message()))
		if hint := tlsHint(st.Message()); hint != "" {
			f.hints = append(f.hints, hint)
		} else {
			f.hints = append(f.hints, "is `runsvc serve` running there? Point --addr or RUNSVC_ADDR at another address.")
		}
	case codes.DeadlineExceeded:
		f.c.Retryable = true
		f.c.Message = fmt.Sprintf("runsvc at %s did not answer within %s (--timeout)", a.addr, shortDuration(a.timeout))
	}
	return f
}

// transportCause shortens grpc's connection error to its last, most
// specific part: "connection refused", "no such host".
func transportCause(msg string) string {
	msg = strings.Trim(msg, `" `)
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		msg = msg[i+2:]
	}
	return strings.Trim(msg, `" `)
}

// tag is the bracket after an error message: its reason (or code) and
// whether, and after how long, to retry.
func tag(c errdetails.Classification) string {
	reason := c.Reason
	if reason == "" {
		reason = codeName(c.Code)
	}
	switch {
	case !c.Retryable:
		return "[" + reason + ", not retryable]"
	case c.RetryDelay > 0:
		return "[" + reason + ", retryable after " + shortDuration(c.RetryDelay) + "]"
	default:
		return "[" + reason + ", retryable]"
	}
}

// statusTag is tag for a google.rpc.Status: a Run's failure or a tool's
// error.
func statusTag(st *spb.Status) string {
	return tag(errdetails.ClassifyStatus(st))
}

// codeName is the canonical name of a code: NOT_FOUND, UNAVAILABLE.
func codeName(c codes.Code) string {
	if n, ok := code.Code_name[int32(c)]; ok {
		return n
	}
	return c.String()
}

// jsonError is the --json form of an error on stderr.
type jsonError struct {
	Error jsonErrorBody `json:"error"`
}

type jsonErrorBody struct {
	Code       string            `json:"code"`
	Message    string            `json:"message"`
	Reason     string            `json:"reason"`
	Domain     string            `json:"domain"`
	Metadata   map[string]string `json:"metadata"`
	Retryable  bool              `json:"retryable"`
	RetryDelay *string           `json:"retryDelay"`
	Violations []jsonViolation   `json:"violations"`
}

type jsonViolation struct {
	Field       string `json:"field"`
	Description string `json:"description"`
}

func (a *app) printErrorJSON(f failure) {
	body := jsonErrorBody{
		Code: codeName(f.c.Code), Message: f.c.Message, Reason: f.c.Reason, Domain: f.c.Domain,
		Metadata: f.c.Metadata, Retryable: f.c.Retryable, Violations: []jsonViolation{},
	}
	if body.Metadata == nil {
		body.Metadata = map[string]string{}
	}
	if f.c.Retryable && f.c.RetryDelay > 0 {
		d := protoDuration(f.c.RetryDelay)
		body.RetryDelay = &d
	}
	for _, v := range f.violations {
		body.Violations = append(body.Violations, jsonViolation{Field: v.GetField(), Description: v.GetDescription()})
	}
	b, _ := json.Marshal(jsonError{Error: body})
	fmt.Fprintf(a.stderr, "%s\n", b)
}

// protoDuration writes a duration as protojson does: "1s", "1.500s".
func protoDuration(d time.Duration) string {
	sign := ""
	if d < 0 {
		sign, d = "-", -d
	}
	s := sign + fmt.Sprintf("%d.%09d", int64(d/time.Second), int64(d%time.Second))
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s + "s"
}
