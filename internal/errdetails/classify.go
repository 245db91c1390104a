package errdetails

import (
	edpb "google.golang.org/genproto/googleapis/rpc/errdetails"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/runsvc/runsvc/client"
	"github.com/runsvc/runsvc/internal/errs"
)

// Classification is what a client needs to decide about a failure: what
// it was and whether, and when, to retry. It is the public client
// package's, so the server, the CLI and outside clients read a status the
// same way.
type Classification = client.Classification

// Classify reads an RPC error (client.Classify). An error that is not a
// status classifies as UNKNOWN without a reason.
func Classify(err error) Classification { return client.Classify(err) }

// ClassifyStatus reads a google.rpc.Status: an RPC error's, or a Run's
// failure (client.ClassifyStatus).
func ClassifyStatus(st *spb.Status) Classification { return client.ClassifyStatus(st) }

// FromStatus turns a status back into runsvc's typed error, so that
// errors.As works on the client side. A status with an unknown reason, or
// none, comes back as the plain status error.
func FromStatus(st *status.Status) error {
	if st == nil || st.Code() == codes.OK {
		return nil
	}
	c := ClassifyStatus(st.Proto())
	r, ok := byReason[c.Reason]
	if !ok {
		return st.Err()
	}
	typed, err := errs.FromMetadata(errs.Kind(r.err), c.Metadata)
	if err != nil {
		return st.Err()
	}
	if rs, ok := typed.(errs.RetrySetter); ok {
		rs.SetRetry(c.RetryDelay, c.Retryable)
	}
	if vs, ok := typed.(errs.ViolationSetter); ok {
		for _, any := range st.Proto().GetDetails() {
			br := &edpb.BadRequest{}
			if any.UnmarshalTo(br) != nil {
				continue
			}
			out := make([]errs.FieldViolation, 0, len(br.GetFieldViolations()))
			for _, fv := range br.GetFieldViolations() {
				out = append(out, errs.FieldViolation{Field: fv.GetField(), Description: fv.GetDescription()})
			}
			vs.SetFieldViolations(out)
		}
	}
	return typed
}
