package errdetails_test

import (
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/errs"
)

// TestRememberedStatusesAreExact: errors that differ in anything a status
// shows get different statuses, even with the same message; the same
// error gets the same one; INTERNAL errors keep their own errorId.
func TestRememberedStatusesAreExact(t *testing.T) {
	m := errdetails.New(errdetails.Options{})
	cases := []struct {
		name string
		a, b error
		same bool
	}{
		{"same error twice", &errs.RunNotFound{RunID: "run_1"}, &errs.RunNotFound{RunID: "run_1"}, true},
		{"another run", &errs.RunNotFound{RunID: "run_1"}, &errs.RunNotFound{RunID: "run_2"}, false},
		{"metadata outside the message", &errs.InferenceFailed{Provider: "p", Message: "x", HTTPStatus: 500}, &errs.InferenceFailed{Provider: "p", Message: "x", HTTPStatus: 503}, false},
		{"another retry delay", &errs.TransientFailure{Operation: "o", Message: "m", RetryAfter: time.Second}, &errs.TransientFailure{Operation: "o", Message: "m", RetryAfter: 2 * time.Second}, false},
		{"failed or rejected", &errs.ToolFailed{Tool: "t", Message: "m"}, &errs.ToolRejected{Tool: "t", Message: "m"}, false},
		{"violations", &errs.InvalidRequest{Violations: []errs.FieldViolation{{Field: "a", Description: "x"}, {Field: "b", Description: "y"}}},
			&errs.InvalidRequest{Violations: []errs.FieldViolation{{Field: "a", Description: "x"}, {Field: "c", Description: "z"}}}, false},
		{"internal errors", &errs.Internal{ErrorID: "err_1"}, &errs.Internal{ErrorID: "err_2"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for i := 0; i < 3; i++ { // the second and later rounds come from the memo
				a, b := m.Describe(tc.a).Status.Proto(), m.Describe(tc.b).Status.Proto()
				if proto.Equal(a, b) != tc.same {
					t.Fatalf("round %d: equal = %v, want %v:\n%v\n%v", i, !tc.same, tc.same, a, b)
				}
				if fresh := errdetails.New(errdetails.Options{}).Describe(tc.a).Status.Proto(); !proto.Equal(a, fresh) {
					t.Fatalf("round %d: the remembered status differs from a fresh one:\n%v\n%v", i, a, fresh)
				}
			}
		})
	}
}
