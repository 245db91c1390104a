package errdetails

import (
	"fmt"
	"testing"
)

// TestCutNoteCounts: the note of a cut BadRequest agrees with its count.
func TestCutNoteCounts(t *testing.T) {
	for n, want := range map[int]string{
		1:  fmt.Sprintf("1 more violation was cut to keep the error under %d bytes", WireBudget),
		17: fmt.Sprintf("17 more violations were cut to keep the error under %d bytes", WireBudget),
	} {
		if got := cutNote(n); got != want {
			t.Errorf("cutNote(%d) = %q, want %q", n, got, want)
		}
	}
}
