package errdetails

import (
	"net/http"

	"google.golang.org/grpc/codes"
)

// HTTPStatus is the HTTP status AIP-193 (and google.rpc.Code's own
// comments) give a code: what the REST surface (internal/httpapi) answers
// with, and what the catalogue states for each reason.
func HTTPStatus(c codes.Code) int {
	switch c {
	case codes.OK:
		return http.StatusOK
	case codes.Canceled:
		return 499
	case codes.InvalidArgument, codes.FailedPrecondition, codes.OutOfRange:
		return http.StatusBadRequest
	case codes.DeadlineExceeded:
		return http.StatusGatewayTimeout
	case codes.NotFound:
		return http.StatusNotFound
	case codes.AlreadyExists, codes.Aborted:
		return http.StatusConflict
	case codes.PermissionDenied:
		return http.StatusForbidden
	case codes.Unauthenticated:
		return http.StatusUnauthorized
	case codes.ResourceExhausted:
		return http.StatusTooManyRequests
	case codes.Unimplemented:
		return http.StatusNotImplemented
	case codes.Unavailable:
		return http.StatusServiceUnavailable
	default: // Unknown, Internal, DataLoss
		return http.StatusInternalServerError
	}
}
