package errdetails

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"time"
	"unicode/utf8"

	edpb "google.golang.org/genproto/googleapis/rpc/errdetails"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/runsvc/runsvc/internal/errs"
)

const (
	// DefaultDomain is the ErrorInfo domain unless configured otherwise.
	DefaultDomain = "runsvc"
	// DefaultRetryDelay is the RetryInfo delay of a retryable error that
	// names none.
	DefaultRetryDelay = time.Second
	// MaxDetailsBytes bounds the encoded size of all details of a status.
	MaxDetailsBytes = 8 << 10
	// PushbackTrailer is the trailer grpc's built-in retry reads: the retry
	// delay in milliseconds, or -1 for "do not retry".
	PushbackTrailer = "grpc-retry-pushback-ms"

	maxMessageBytes  = 1 << 10
	maxMetadataBytes = 512
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
	return m
}

// Domain returns the ErrorInfo domain the Mapper writes.
func (m *Mapper) Domain() string { return m.domain }

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
func (m *Mapper) Map(ctx context.Context, err error) Outcome {
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return m.callerEnded(ctx.Err())
	}
	return m.Describe(err)
}

// Describe maps an error that no caller's context is involved in, such as
// a Run's recorded failure.
func (m *Mapper) Describe(err error) Outcome {
	typed := errs.Typed(err)
	if typed == nil {
		id := NewErrorID()
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
	return m.Describe(err).Status.Proto()
}

func (m *Mapper) outcome(typed error, cause error) Outcome {
	r := byKind[errs.Kind(typed)]
	st, retryable, delay := m.build(r, typed, cause)
	o := Outcome{Status: st, Reason: r.reason, Retryable: retryable, RetryDelay: delay, Cause: cause}
	if in, ok := typed.(*errs.Internal); ok {
		o.ErrorID = in.ErrorID
	}
	return o
}

func (m *Mapper) callerEnded(ctxErr error) Outcome {
	code, reason, msg := codes.Canceled, ReasonCancelled, "the call was cancelled by its caller"
	if errors.Is(ctxErr, context.DeadlineExceeded) {
		code, reason, msg = codes.DeadlineExceeded, ReasonDeadlineExceeded, "the caller's deadline passed before the call finished"
	}
	info := mustAny(&edpb.ErrorInfo{Reason: reason, Domain: m.domain, Metadata: map[string]string{}})
	st := status.FromProto(&spb.Status{Code: int32(code), Message: msg, Details: []*anypb.Any{info}})
	return Outcome{Status: st, Reason: reason}
}

func (m *Mapper) build(r *row, typed error, cause error) (*status.Status, bool, time.Duration) {
	meta := errs.Metadata(typed)
	for k, v := range meta {
		meta[k] = truncate(v, maxMetadataBytes)
	}
	message := truncate(typed.Error(), maxMessageBytes)

	retryable, delay := false, time.Duration(0)
	switch r.retry {
	case always:
		retryable = true
		delay, _ = errs.IsRetryable(typed)
	case perError:
		delay, retryable = errs.IsRetryable(typed)
	}
	if retryable && delay <= 0 {
		delay = DefaultRetryDelay
	}
	code := r.code
	if r.retry == perError && !retryable {
		code = r.permanentCode
	}

	details := []*anypb.Any{mustAny(&edpb.ErrorInfo{Reason: r.reason, Domain: m.domain, Metadata: meta})}
	if retryable {
		details = append(details, mustAny(&edpb.RetryInfo{RetryDelay: durationpb.New(delay)}))
	}
	name := expand(r.name, meta)
	if r.details&precondition != 0 {
		details = append(details, mustAny(&edpb.PreconditionFailure{Violations: []*edpb.PreconditionFailure_Violation{
			{Type: r.subject, Subject: name, Description: message},
		}}))
	}
	if r.details&resource != 0 {
		details = append(details, mustAny(&edpb.ResourceInfo{ResourceType: r.subject, ResourceName: name, Description: message}))
	}
	if r.details&quota != 0 {
		details = append(details, mustAny(&edpb.QuotaFailure{Violations: []*edpb.QuotaFailure_Violation{
			{Subject: name, Description: message},
		}}))
	}
	if r.details&help != 0 {
		if url := meta["helpUrl"]; url != "" {
			details = append(details, mustAny(&edpb.Help{Links: []*edpb.Help_Link{{Description: message, Url: url}}}))
		}
	}
	if m.debug && cause != nil {
		details = append(details, mustAny(&edpb.DebugInfo{Detail: cause.Error()}))
	}
	if r.details&badRequest != 0 {
		var vs []errs.FieldViolation
		if fv, ok := typed.(interface{ FieldViolations() []errs.FieldViolation }); ok {
			vs = fv.FieldViolations()
		}
		details = append(details, fitBadRequest(vs, MaxDetailsBytes-size(details)))
	}
	return status.FromProto(&spb.Status{Code: int32(code), Message: message, Details: details}), retryable, delay
}

// fitBadRequest packs as many violations as fit in budget bytes; when some
// are cut, the last violation says how many.
func fitBadRequest(vs []errs.FieldViolation, budget int) *anypb.Any {
	pack := func(n int, cut int) *anypb.Any {
		br := &edpb.BadRequest{FieldViolations: make([]*edpb.BadRequest_FieldViolation, 0, n+1)}
		for _, v := range vs[:n] {
			br.FieldViolations = append(br.FieldViolations, &edpb.BadRequest_FieldViolation{
				Field: truncate(v.Field, maxMetadataBytes), Description: truncate(v.Description, maxMessageBytes),
			})
		}
		if cut > 0 {
			br.FieldViolations = append(br.FieldViolations, &edpb.BadRequest_FieldViolation{
				Description: fmt.Sprintf("%d more violations were cut to keep the error under %d bytes", cut, MaxDetailsBytes),
			})
		}
		return mustAny(br)
	}
	all := pack(len(vs), 0)
	if proto.Size(all) < budget {
		return all
	}
	lo, hi := 0, len(vs) // the largest n that fits is in [lo, hi)
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if proto.Size(pack(mid, len(vs)-mid)) < budget {
			lo = mid
		} else {
			hi = mid
		}
	}
	return pack(lo, len(vs)-lo)
}

func size(details []*anypb.Any) int {
	n := 0
	for _, d := range details {
		n += proto.Size(d) + 3 // field tag and length prefix
	}
	return n
}

// mustAny packs a detail deterministically, so equal details give equal
// bytes (ErrorInfo's metadata is a map).
func mustAny(m proto.Message) *anypb.Any {
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if err != nil {
		panic(fmt.Sprintf("errdetails: packing %T: %v", m, err))
	}
	return &anypb.Any{TypeUrl: "type.googleapis.com/" + string(m.ProtoReflect().Descriptor().FullName()), Value: b}
}

// truncate cuts s to at most n bytes without splitting a UTF-8 sequence.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const ellipsis = "…"
	cut := n - len(ellipsis)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + ellipsis
}

// NewErrorID returns a fresh id tying a client's INTERNAL error to the
// server's log line.
func NewErrorID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "err_" + hex.EncodeToString(b[:])
}
