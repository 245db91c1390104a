package logwriter_test

import (
	"testing"

	"github.com/runsvc/runsvc/internal/logwriter"
	"github.com/runsvc/runsvc/internal/runlog"
)

// TestIndexSuspension: the index a folded Run leaves in the store names
// what a suspended Run waits for, IN_DOUBT for an approval of a call in
// doubt, and nothing once the Run is no longer suspended.
func TestIndexSuspension(t *testing.T) {
	cases := []struct {
		name   string
		status runlog.Status
		sus    *runlog.Suspended
		want   string
	}{
		{"tool results", runlog.StatusSuspended, &runlog.Suspended{Reason: runlog.ReasonToolResults}, "TOOL_RESULTS"},
		{"approval", runlog.StatusSuspended, &runlog.Suspended{Reason: runlog.ReasonApproval}, "APPROVAL"},
		{"in doubt", runlog.StatusSuspended, &runlog.Suspended{Reason: runlog.ReasonApproval, InDoubt: true}, logwriter.InDoubt},
		{"question", runlog.StatusSuspended, &runlog.Suspended{Reason: runlog.ReasonQuestion}, "QUESTION"},
		{"children", runlog.StatusSuspended, &runlog.Suspended{Reason: runlog.ReasonChildren}, "CHILDREN"},
		{"running", runlog.StatusRunning, nil, ""},
		{"settled with a stale suspension", runlog.StatusAborted, &runlog.Suspended{Reason: runlog.ReasonQuestion}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			idx := logwriter.Index(&runlog.State{Status: tc.status, Suspension: tc.sus})
			if idx.Suspension != tc.want || idx.State != string(tc.status) {
				t.Errorf("Index = state %q suspension %q, want %q %q", idx.State, idx.Suspension, tc.status, tc.want)
			}
		})
	}
}
