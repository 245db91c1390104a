package errdetails

import (
	"encoding/base64"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/runsvc/runsvc/internal/errs"
)

// WireBudget is the most bytes one error takes on the wire (DESIGN.md §4
// rule 4): its percent-encoded grpc-message plus its base64
// grpc-status-details-bin, which repeats the message inside the Status.
// Under it an error passes a default nginx grpc_pass (a Trailers-Only error
// is the response header block, and nginx buffers 4 KiB of it), HAProxy's
// default buffers and grpcio's 8 KiB metadata limit.
const WireBudget = 3072

// limits are the byte caps of one attempt at fitting a status in
// WireBudget: the message, each metadata value, and each violation's field
// and description.
type limits struct{ message, value, field, description int }

// attempts are tried in order until the status fits; each is tighter than
// the one before. The last fits any row: a reason, a handful of metadata
// keys with 16-byte values and a 32-byte message repeated in one detail
// take well under a kilobyte even when every byte is percent-encoded.
var attempts = []limits{
	{message: 512, value: 256, field: 256, description: 512},
	{message: 256, value: 128, field: 128, description: 256},
	{message: 128, value: 64, field: 64, description: 128},
	{message: 64, value: 32, field: 32, description: 64},
	{message: 32, value: 16, field: 16, description: 32},
}

// WireSize is the bytes a status takes on the wire as grpc-go sends it:
// the percent-encoded grpc-message plus the unpadded base64 of the whole
// Status in grpc-status-details-bin.
func WireSize(st *spb.Status) int {
	return percentEncodedLen(st.GetMessage()) + base64.RawStdEncoding.EncodedLen(proto.Size(st))
}

// percentEncodedLen is the length of grpc-message for msg: printable ASCII
// other than '%' is sent as is, every other byte of a valid UTF-8 sequence
// as %XX, and an invalid byte as the three %XX of U+FFFD.
func percentEncodedLen(msg string) int {
	n := 0
	for len(msg) > 0 {
		r, size := utf8.DecodeRuneInString(msg)
		switch {
		case r == utf8.RuneError && size == 1:
			n += 9
		case size > 1:
			n += 3 * size
		case msg[0] >= ' ' && msg[0] <= '~' && msg[0] != '%':
			n++
		default:
			n += 3
		}
		msg = msg[size:]
	}
	return n
}

// fitted is what a status shows of an error, before the caps of an
// attempt.
type fitted struct {
	r          *row
	code       int32
	message    string
	meta       map[string]string
	retry      *anypb.Any // RetryInfo, when retryable
	debug      string     // DebugInfo's detail, when hasDebug
	hasDebug   bool
	violations []errs.FieldViolation
}

// fit builds the status under each attempt's caps in turn and returns the
// first that fits in WireBudget. Code and reason are the same in every
// attempt; only lengths and the number of violations shrink.
func (m *Mapper) fit(f fitted) *spb.Status {
	var st *spb.Status
	for _, l := range attempts {
		st = m.assemble(f, l)
		if st != nil && WireSize(st) <= WireBudget {
			return st
		}
	}
	if st == nil {
		// Not reachable with the table's rows (see attempts); send the
		// last attempt's status without violations rather than nothing.
		f.violations = nil
		st = m.assemble(f, attempts[len(attempts)-1])
	}
	return st
}

// assemble builds the status under caps l, or returns nil when a
// BadRequest does not fit even with every violation cut.
func (m *Mapper) assemble(f fitted, l limits) *spb.Status {
	r := f.r
	message := tidy(f.message, l.message)
	meta := make(map[string]string, len(f.meta))
	for k, v := range f.meta {
		meta[k] = truncate(v, l.value)
	}
	details := make([]*anypb.Any, 0, 4)
	domain := m.domain
	if r.domain != "" {
		domain = r.domain
	}
	details = append(details, encodeErrorInfo(r.reason, domain, meta))
	if f.retry != nil {
		details = append(details, f.retry)
	}
	name := truncate(expand(r.name, meta), l.field)
	if r.details&precondition != 0 {
		details = append(details, encodePrecondition(r.subject, name, message))
	}
	if r.details&resource != 0 {
		details = append(details, encodeResource(r.subject, name, message))
	}
	if r.details&quota != 0 {
		details = append(details, encodeQuota(name, message))
	}
	if r.details&help != 0 {
		if url := meta["helpUrl"]; url != "" {
			details = append(details, encodeHelp(message, url))
		}
	}
	if f.hasDebug {
		details = append(details, encodeDebug(tidy(f.debug, l.description)))
	}
	st := &spb.Status{Code: f.code, Message: message, Details: details}
	if r.details&badRequest == 0 {
		return st
	}
	return fitBadRequest(st, f.violations, l)
}

// fitBadRequest appends to st a BadRequest with as many violations as fit
// in WireBudget; when some are cut, the last violation says how many. It
// returns nil when not even the first violation fits beside the note of
// the cut, so that a tighter attempt shortens it rather than sending the
// note alone.
func fitBadRequest(st *spb.Status, vs []errs.FieldViolation, l limits) *spb.Status {
	total := len(vs)
	// No more than maxViolations can fit, so a request with 200,000 bad
	// entries costs no more to answer than one with a thousand.
	all := make([]fieldViolation, min(total, maxViolations+1))
	for i := range all {
		all[i] = fieldViolation{truncate(vs[i].Field, l.field), tidy(vs[i].Description, l.description)}
	}
	with := func(n int) *spb.Status {
		shown := all[:min(n, len(all))]
		if n < total {
			shown = append(append(make([]fieldViolation, 0, n+1), shown...), fieldViolation{description: cutNote(total - n)})
		}
		details := append(append(make([]*anypb.Any, 0, len(st.Details)+1), st.Details...), encodeBadRequest(shown))
		return &spb.Status{Code: st.Code, Message: st.Message, Details: details}
	}
	if total <= maxViolations {
		if whole := with(total); WireSize(whole) <= WireBudget {
			return whole
		}
	}
	if WireSize(with(min(1, total))) > WireBudget {
		return nil
	}
	lo, hi := min(1, total), min(total, maxViolations+1) // the largest n that fits is in [lo, hi)
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if WireSize(with(mid)) <= WireBudget {
			lo = mid
		} else {
			hi = mid
		}
	}
	return with(lo)
}

// maxViolations is more violations than a BadRequest can hold in
// WireBudget: each takes at least two bytes of the Status, which base64
// makes a third larger.
const maxViolations = WireBudget * 3 / 4 / 2

// cutNote is the last violation of a BadRequest that lost n violations to
// the wire budget.
func cutNote(n int) string {
	if n == 1 {
		return fmt.Sprintf("1 more violation was cut to keep the error under %d bytes", WireBudget)
	}
	return fmt.Sprintf("%d more violations were cut to keep the error under %d bytes", n, WireBudget)
}

// tidy makes s fit for a message or description: valid UTF-8, at most n
// bytes, and never ending in whitespace (grpc-js drops a grpc-message that
// does).
func tidy(s string, n int) string {
	s = strings.TrimRightFunc(s, unicode.IsSpace)
	return truncate(s, n)
}

// truncate cuts s to at most n bytes of valid UTF-8 without splitting a
// sequence, marking a cut with an ellipsis (and no whitespace before it).
// Invalid bytes become U+FFFD: a proto3 string must be valid UTF-8, or the
// client cannot decode the details at all.
func truncate(s string, n int) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if len(s) <= n {
		return s
	}
	const ellipsis = "…"
	cut := n - len(ellipsis)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strings.TrimRightFunc(s[:cut], unicode.IsSpace) + ellipsis
}
