package runlog_test

import (
	"os"
	"testing"

	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/errs"
)

// TestMain installs the failure encoder the server installs at wiring
// time, so tests can store failures the way Runs do.
func TestMain(m *testing.M) {
	errs.SetFailureEncoder(errdetails.StoredFailure)
	os.Exit(m.Run())
}
