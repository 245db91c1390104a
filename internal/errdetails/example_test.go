package errdetails_test

import (
	"fmt"
	"time"

	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/errs"
)

// A client classifies any RPC error by reason and retry bit alone.
func ExampleClassify() {
	m := errdetails.New(errdetails.Options{})
	for _, failure := range []error{
		&errs.RunNotFound{RunID: "run_1"},
		&errs.Overloaded{Resource: "run admission", RetryAfter: 250 * time.Millisecond},
	} {
		err := m.Describe(failure).Status.Err() // what a handler's error becomes on the wire
		c := errdetails.Classify(err)
		fmt.Printf("%s %s retryable=%t after=%s metadata=%v\n", c.Code, c.Reason, c.Retryable, c.RetryDelay, c.Metadata)
	}
	// Output:
	// NotFound RUN_NOT_FOUND retryable=false after=0s metadata=map[runId:run_1]
	// Unavailable OVERLOADED retryable=true after=250ms metadata=map[resource:run admission]
}
