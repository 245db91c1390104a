package errdetails

import (
	"errors"
	"io"
	"log/slog"

	edpb "google.golang.org/genproto/googleapis/rpc/errdetails"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/runsvc/runsvc/internal/errs"
)

// storing maps the failures Runs store. What is stored does not depend on
// a server's options: the domain is added when a failure is read, and
// stored failures never carry DebugInfo.
var storing = New(Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})

// StoredFailure is the errs.FailureEncoder of the table: a typed error as
// the status the table maps it to, in the form a Run's log keeps (see
// errs.Stored). The server installs it with errs.SetFailureEncoder.
func StoredFailure(typed error) errs.Stored {
	if sup, ok := typed.(*errs.Superseded); ok {
		return supersededFailure(sup)
	}
	o := storing.Describe(typed)
	st := o.Status.Proto()
	out := errs.Stored{
		V: errs.StoredVersion, Code: st.GetCode(), Reason: o.Reason, Message: st.GetMessage(),
		Retryable: o.Retryable, RetryAfter: o.RetryDelay,
	}
	for _, d := range st.GetDetails() {
		if d.GetTypeUrl() == errorInfoURL {
			info := &edpb.ErrorInfo{}
			if d.UnmarshalTo(info) == nil && len(info.GetMetadata()) > 0 {
				out.Metadata = info.GetMetadata()
			}
			continue
		}
		b, err := proto.MarshalOptions{Deterministic: true}.Marshal(d)
		if err != nil {
			continue
		}
		out.Details = append(out.Details, b)
	}
	return out
}

// supersededFailure stores a version 1 failure the table has since split
// off as it was stored: today's status of its typed error with the old
// code and no RetryInfo.
func supersededFailure(sup *errs.Superseded) errs.Stored {
	out := StoredFailure(sup.Err)
	out.Code, out.Retryable, out.RetryAfter = sup.Code, false, 0
	kept := out.Details[:0]
	for _, b := range out.Details {
		a := &anypb.Any{}
		if proto.Unmarshal(b, a) == nil && a.GetTypeUrl() == retryInfoURL {
			continue
		}
		kept = append(kept, b)
	}
	out.Details = kept
	return out
}

// FailureStatus is the status a stored failure was stored as, with this
// Mapper's domain in its ErrorInfo (or the A2A domain for the A2A error
// types, which the A2A spec fixes). It never consults the table otherwise:
// a failure reads back as it was written, whatever the table says today.
func (m *Mapper) FailureStatus(s *errs.Stored) *spb.Status {
	if s == nil {
		return nil
	}
	details := make([]*anypb.Any, 0, 1+len(s.Details))
	domain := m.domain
	if r := byReason[s.Reason]; r != nil && r.domain != "" {
		domain = r.domain
	}
	details = append(details, encodeErrorInfo(s.Reason, domain, s.Metadata))
	for _, b := range s.Details {
		a := &anypb.Any{}
		if proto.Unmarshal(b, a) != nil {
			continue
		}
		details = append(details, a)
	}
	return &spb.Status{Code: s.Code, Message: s.Message, Details: details}
}

// describeStored maps an error that is, or wraps, a stored failure to
// that failure's own status; ok is false for any other error.
func (m *Mapper) describeStored(err error) (*Outcome, bool) {
	if !mayHoldStored(err) {
		return nil, false
	}
	var s *errs.Stored
	if !errors.As(err, &s) {
		return nil, false
	}
	o := &Outcome{Status: status.FromProto(m.FailureStatus(s)), Reason: s.Reason, Retryable: s.Retryable, RetryDelay: s.RetryAfter}
	if s.Reason == "INTERNAL" {
		o.ErrorID = s.Metadata["errorId"]
	}
	return o, true
}

// mayHoldStored is false when errors.As cannot find a stored failure in
// err: err is not one, and neither wraps another error nor has an As
// method. It spares the typed errors of every failing RPC errors.As's
// allocation of its target.
func mayHoldStored(err error) bool {
	switch err.(type) {
	case *errs.Stored, interface{ Unwrap() error }, interface{ Unwrap() []error }, interface{ As(any) bool }:
		return true
	}
	return false
}
