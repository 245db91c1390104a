package logwriter_test

import (
	"testing"

	"github.com/runsvc/runsvc/internal/logwriter"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/store"
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

// TestTheDomainTellsTheStoreWhatEnds: the store learns from the log
// writer, not from kind or state strings of its own, that an index is
// settled (a thread's next Run may start) and that an append ends its
// Run (settles or suspends it: WaitRun's signal).
func TestTheDomainTellsTheStoreWhatEnds(t *testing.T) {
	for _, tc := range []struct {
		status  runlog.Status
		settled bool
	}{
		{runlog.StatusQueued, false}, {runlog.StatusRunning, false}, {runlog.StatusSuspended, false},
		{runlog.StatusCompleted, true}, {runlog.StatusFailed, true}, {runlog.StatusAborted, true}, {runlog.StatusAbandoned, true},
	} {
		if got := logwriter.Index(&runlog.State{Status: tc.status}).Settled; got != tc.settled {
			t.Errorf("Index of a %s Run is settled %v, want %v", tc.status, got, tc.settled)
		}
	}
	kinds := func(ks ...string) []store.Record {
		recs := make([]store.Record, len(ks))
		for i, k := range ks {
			recs[i].Kind = k
		}
		return recs
	}
	for _, tc := range []struct {
		recs []store.Record
		ends bool
	}{
		{kinds("model_call_finished", "settled"), true},
		{kinds("suspended"), true},
		{kinds("resumed", "turn_started"), false},
		{nil, false},
	} {
		if got := logwriter.Ends(tc.recs); got != tc.ends {
			t.Errorf("Ends(%v) = %v, want %v", tc.recs, got, tc.ends)
		}
	}
}
