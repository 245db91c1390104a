package errdetails

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"time"

	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/runsvc/runsvc/internal/errs"
)

const (
	// DefaultDomain is the ErrorInfo domain unless configured otherwise.
	DefaultDomain = "runsvc"
	// DefaultRetryDelay is the RetryInfo delay of a retryable error that
	// names none.
	DefaultRetryDelay = time.Second
	// PushbackTrailer is the trailer grpc's built-in retry reads: the retry
	// delay in milliseconds, or -1 for "do not retry".
	PushbackTrailer = "grpc-retry-pushback-ms"
)

// Reasons of the caller's own cancellation and deadline, which are not
// errors of runsvc's and so not in the table.
const (
	ReasonCancelled        = "CANCELLED"
	ReasonDeadlineExceeded = "DEADLINE_EXCEEDED"
)

// Options configure a Mapper.
type Options struct {
	// Domain is the ErrorInfo domain; DefaultDomain when empty.
	Domain string
	// Debug adds a DebugInfo with the cause to INTERNAL errors. It can leak
	// internals (SQL, paths) to clients: never turn it on in production.
	Debug bool
	// Logger receives one line per failed RPC; slog.Default() when nil.
	Logger *slog.Logger
}

// Mapper turns errors into statuses with the table.
type Mapper struct {
	domain string
	debug  bool
	log    *slog.Logger
	memo   memo
	// cancelled and deadline are the caller's own ends, built once.
	cancelled, deadline *Outcome
}

// New returns a Mapper.
func New(opts Options) *Mapper {
	m := &Mapper{domain: opts.Domain, debug: opts.Debug, log: opts.Logger}
	if m.domain == "" {
		m.domain = DefaultDomain
	}
	if m.log == nil {
		m.log = slog.Default()
	}
	m.cancelled, m.deadline = m.callerEnded(context.Canceled), m.callerEnded(context.DeadlineExceeded)
	return m
}

// Outcome is an error mapped to a status, with what the server logs.
type Outcome struct {
	// Status is what the client receives.
	Status *status.Status
	// Reason is the ErrorInfo reason.
	Reason string
	// Retryable says whether RetryInfo is present, with RetryDelay its delay.
	Retryable  bool
	RetryDelay time.Duration
	// ErrorID is set for INTERNAL errors; the log line carries it too.
	ErrorID string
	// Cause is the unexpected error behind an INTERNAL one, for the log only.
	Cause error
	// wire is how the interceptors send Status, built once for the
	// Outcomes the Mapper remembers; nil for the others (see wireOf).
	wire *wireForm
}

// Pushback returns the value of the grpc-retry-pushback-ms trailer.
func (o Outcome) Pushback() string {
	if !o.Retryable {
		return "-1"
	}
	return strconv.FormatInt(o.RetryDelay.Milliseconds(), 10)
}

// Map turns an RPC's error into its status. ctx is the RPC's context: only
// its own cancellation or deadline becomes CANCELLED or DEADLINE_EXCEEDED.
func (m *Mapper) Map(ctx context.Context, err error) Outcome { return *m.mapError(ctx, err) }

// mapError is Map; the Outcome it returns may be the one the Mapper
// remembers, shared and never modified.
func (m *Mapper) mapError(ctx context.Context, err error) *Outcome {
	if ctxErr := ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
		if errors.Is(ctxErr, context.DeadlineExceeded) {
			return m.deadline
		}
		return m.cancelled
	}
	return m.describe(err)
}

// Describe maps an error that no caller's context is involved in, such as
// a Run's recorded failure.
func (m *Mapper) Describe(err error) Outcome { return *m.describe(err) }

// describe is Describe, sharing as mapError does.
func (m *Mapper) describe(err error) *Outcome {
	if o, ok := m.describeStored(err); ok {
		return o
	}
	typed := errs.Typed(err)
	if typed == nil {
		id := errs.NewErrorID()
		return m.outcome(&errs.Internal{ErrorID: id, Cause: err}, err)
	}
	var cause error
	if in, ok := typed.(*errs.Internal); ok {
		cause = in.Cause
	}
	return m.outcome(typed, cause)
}

// Proto turns a Run's recorded failure into the google.rpc.Status stored
// with it, built by the same table as RPC errors.
func (m *Mapper) Proto(err error) *spb.Status {
	if err == nil {
		return nil
	}
	return m.describe(err).Status.Proto()
}

// outcome maps a typed error through the table, or returns the Outcome
// remembered for an identical one. The key is built on the stack, so a
// remembered error costs the Mapper no allocation.
func (m *Mapper) outcome(typed error, cause error) *Outcome {
	r := byKind[errs.Kind(typed)]
	message := tidy(typed.Error(), attempts[0].message)
	retryable, delay := r.retryOf(typed)
	var buf [256]byte
	var key []byte
	if !m.debug {
		key = memoKey(buf[:0], r, typed, message, retryable, delay)
		if key != nil {
			if o := m.memo.get(key); o != nil {
				return o
			}
		}
	}
	st := m.build(r, typed, message, retryable, delay, cause)
	o := &Outcome{Status: st, Reason: r.reason, Retryable: retryable, RetryDelay: delay, Cause: cause}
	if in, ok := typed.(*errs.Internal); ok {
		o.ErrorID = in.ErrorID
	}
	if key != nil {
		o.wire = newWire(o)
		m.memo.put(string(key), o)
	}
	return o
}

// retryOf decides whether an error of this row is retryable, and after
// how long.
func (r *row) retryOf(typed error) (bool, time.Duration) {
	retryable, delay := false, time.Duration(0)
	switch r.retry {
	case always:
		retryable = true
		delay, _ = errs.IsRetryable(typed)
	}
	if retryable && delay <= 0 {
		delay = DefaultRetryDelay
	}
	return retryable, delay
}

func (m *Mapper) callerEnded(ctxErr error) *Outcome {
	code, reason, msg := codes.Canceled, ReasonCancelled, "the call was cancelled by its caller"
	if errors.Is(ctxErr, context.DeadlineExceeded) {
		code, reason, msg = codes.DeadlineExceeded, ReasonDeadlineExceeded, "the caller's deadline passed before the call finished"
	}
	info := encodeErrorInfo(reason, m.domain, nil)
	st := status.FromProto(&spb.Status{Code: int32(code), Message: msg, Details: []*anypb.Any{info}})
	o := &Outcome{Status: st, Reason: reason}
	o.wire = newWire(o)
	return o
}

func (m *Mapper) build(r *row, typed error, message string, retryable bool, delay time.Duration, cause error) *status.Status {
	f := fitted{r: r, code: int32(r.code), message: message, meta: errs.Metadata(typed)}
	if retryable {
		f.retry = encodeRetryInfo(delay)
	}
	if m.debug && cause != nil {
		f.debug, f.hasDebug = cause.Error(), true
	}
	if r.details&badRequest != 0 {
		f.violations = violationsOf(typed)
	}
	return status.FromProto(m.fit(f))
}

// violationsOf returns the field violations a typed error carries, if any.
func violationsOf(typed error) []errs.FieldViolation {
	if fv, ok := typed.(interface{ FieldViolations() []errs.FieldViolation }); ok {
		return fv.FieldViolations()
	}
	return nil
}
