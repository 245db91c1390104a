package engine_test

import "google.golang.org/grpc/status"

func statusOf(err error) *status.Status {
	st, _ := status.FromError(err)
	return st
}
