package runs

import "github.com/runsvc/runsvc/internal/errs"

// checkFrom refuses a watch from beyond the next seq of a log that ends at
// lastSeq as *errs.InvalidRequest: those Records may never exist.
func checkFrom(from, lastSeq int64) error {
	if from > lastSeq+1 {
		return errs.BadField("from_seq", "is %d, past the end of the Run's log (seq %d): watch from %d at most", from, lastSeq, lastSeq+1)
	}
	return nil
}
