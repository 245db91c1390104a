package logwriter_test

import (
	"os"
	"testing"

	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/errs"
)

// TestMain installs the failure encoder the server installs at wiring
// time, so the writer can store a corrupt log's failure.
func TestMain(m *testing.M) {
	errs.SetFailureEncoder(errdetails.StoredFailure)
	os.Exit(m.Run())
}
