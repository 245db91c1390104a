package errdetails_test

import (
	"testing"

	"google.golang.org/grpc/codes"

	"github.com/runsvc/runsvc/internal/errdetails"
)

// TestHTTPStatus pins AIP-193's mapping for every code, and that each
// catalogue entry states the status of its code.
func TestHTTPStatus(t *testing.T) {
	want := map[codes.Code]int{
		codes.OK: 200, codes.Canceled: 499, codes.Unknown: 500, codes.InvalidArgument: 400,
		codes.DeadlineExceeded: 504, codes.NotFound: 404, codes.AlreadyExists: 409,
		codes.PermissionDenied: 403, codes.ResourceExhausted: 429, codes.FailedPrecondition: 400,
		codes.Aborted: 409, codes.OutOfRange: 400, codes.Unimplemented: 501, codes.Internal: 500,
		codes.Unavailable: 503, codes.DataLoss: 500, codes.Unauthenticated: 401,
	}
	for c, status := range want {
		if got := errdetails.HTTPStatus(c); got != status {
			t.Errorf("HTTPStatus(%s) = %d, want %d", c, got, status)
		}
	}
	byName := map[string]int{}
	for c, status := range want {
		byName[codeName(c)] = status
	}
	for _, e := range errdetails.Catalogue() {
		if e.HTTPStatus != byName[e.Code] {
			t.Errorf("%s: catalogue states HTTP %d for %s, want %d", e.Reason, e.HTTPStatus, e.Code, byName[e.Code])
		}
	}
}

// codeName is a code's google.rpc.Code name, as the catalogue spells it.
func codeName(c codes.Code) string {
	names := map[codes.Code]string{
		codes.OK: "OK", codes.Canceled: "CANCELLED", codes.Unknown: "UNKNOWN", codes.InvalidArgument: "INVALID_ARGUMENT",
		codes.DeadlineExceeded: "DEADLINE_EXCEEDED", codes.NotFound: "NOT_FOUND", codes.AlreadyExists: "ALREADY_EXISTS",
		codes.PermissionDenied: "PERMISSION_DENIED", codes.ResourceExhausted: "RESOURCE_EXHAUSTED", codes.FailedPrecondition: "FAILED_PRECONDITION",
		codes.Aborted: "ABORTED", codes.OutOfRange: "OUT_OF_RANGE", codes.Unimplemented: "UNIMPLEMENTED", codes.Internal: "INTERNAL",
		codes.Unavailable: "UNAVAILABLE", codes.DataLoss: "DATA_LOSS", codes.Unauthenticated: "UNAUTHENTICATED",
	}
	return names[c]
}
