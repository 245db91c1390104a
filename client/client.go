// Package client reads runsvc's errors the way any gRPC client sees them:
// a google.rpc.Status whose first detail is an ErrorInfo with one of the
// catalogue's reasons (the Reason constants, generated from errors.json),
// and a RetryInfo exactly when retrying may succeed. Retry calls an RPC
// again while its error says so, obeying RetryInfo's delay and the
// caller's deadline.
//
// It depends only on grpc and genproto, so an outside module can import
// it; internal/errdetails is the server's side of the same contract.
package client

import (
	"time"

	edpb "google.golang.org/genproto/googleapis/rpc/errdetails"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Classification is what a client needs to decide about a failure: what
// it was and whether, and when, to retry.
type Classification struct {
	// Code is the status code; codes.OK for no error.
	Code codes.Code
	// Message is the status message.
	Message string
	// Reason and Domain come from ErrorInfo; empty when there is none.
	Reason string
	Domain string
	// Metadata is ErrorInfo's metadata, never nil.
	Metadata map[string]string
	// Retryable is true when RetryInfo is present; RetryDelay is its delay.
	Retryable  bool
	RetryDelay time.Duration
}

// Classify reads an RPC error. An error that is not a status classifies as
// UNKNOWN without a reason; nil classifies as OK.
func Classify(err error) Classification {
	if err == nil {
		return Classification{Code: codes.OK, Metadata: map[string]string{}}
	}
	st, _ := status.FromError(err)
	return ClassifyStatus(st.Proto())
}

// ClassifyStatus reads a google.rpc.Status: an RPC error's (st.Proto()),
// or one found in a response such as a Run's failure. A status without
// details classifies by its code alone.
func ClassifyStatus(st *spb.Status) Classification {
	c := Classification{Code: codes.OK, Metadata: map[string]string{}}
	if st == nil {
		return c
	}
	c.Code, c.Message = codes.Code(st.GetCode()), st.GetMessage()
	for _, any := range st.GetDetails() {
		msg, err := any.UnmarshalNew()
		if err != nil {
			continue
		}
		switch d := msg.(type) {
		case *edpb.ErrorInfo:
			if c.Reason != "" {
				continue // the first ErrorInfo is the one
			}
			c.Reason, c.Domain = d.GetReason(), d.GetDomain()
			for k, v := range d.GetMetadata() {
				c.Metadata[k] = v
			}
		case *edpb.RetryInfo:
			c.Retryable, c.RetryDelay = true, d.GetRetryDelay().AsDuration()
		}
	}
	return c
}

// Error is a runsvc error: a status whose ErrorInfo comes from the
// expected domain. errors.As(err, new(*client.Error)) does not find one;
// use FromError or FromStatus.
type Error struct {
	Classification
	status *status.Status
}

// Error returns the status message, prefixed by the reason.
func (e *Error) Error() string { return e.Reason + ": " + e.Message }

// GRPCStatus returns the status, so status.FromError works on an Error.
func (e *Error) GRPCStatus() *status.Status { return e.status }

// Status returns the google.rpc.Status with every detail, such as
// BadRequest or ResourceInfo.
func (e *Error) Status() *spb.Status { return e.status.Proto() }

// FromStatus returns st as a runsvc Error when its ErrorInfo's domain is
// domain (DefaultDomain when empty), and false for a status from anyone
// else (a proxy, another service, grpc itself) or without an ErrorInfo.
func FromStatus(st *status.Status, domain string) (*Error, bool) {
	if st == nil || st.Code() == codes.OK {
		return nil, false
	}
	if domain == "" {
		domain = DefaultDomain
	}
	c := ClassifyStatus(st.Proto())
	if c.Reason == "" || c.Domain != domain {
		return nil, false
	}
	return &Error{Classification: c, status: st}, true
}

// FromError is FromStatus for an RPC error.
func FromError(err error, domain string) (*Error, bool) {
	st, ok := status.FromError(err)
	if !ok {
		return nil, false
	}
	return FromStatus(st, domain)
}
