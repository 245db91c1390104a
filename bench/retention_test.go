package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestSweepLogReadsOnlyWhatWasAppended: the retention phase's log
// follower finds each sweep's line once, also one written in two pieces.
func TestSweepLogReadsOnlyWhatWasAppended(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runsvc.log")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	log := &sweepLog{path: path}
	steps := []struct {
		name, write string
		want        []string
	}{
		{name: "no log line yet", want: nil},
		{name: "another line", write: `{"msg":"run started"}` + "\n", want: nil},
		{name: "a sweep", write: `{"msg":"retention sweep","deleted":0}` + "\n", want: []string{"0"}},
		{name: "half a sweep line", write: `{"msg":"retention sweep","del`, want: []string{"0"}},
		{name: "its other half", write: `eted":12003}` + "\n", want: []string{"0", "12003"}},
		{name: "nothing new", want: []string{"0", "12003"}},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			if _, err := f.WriteString(st.write); err != nil {
				t.Fatal(err)
			}
			if got := log.lines(); !slices.Equal(got, st.want) {
				t.Errorf("lines() = %q, want %q", got, st.want)
			}
		})
	}
}
