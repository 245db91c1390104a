package runlog_test

import (
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/runlog"
)

// TestTimerFold: a start_at admission folds to a Run asleep on a TIMER
// until then; a sleep call's TIMER sets the Run's wake time (before its
// deadline), and the Resumed that wakes it, early or not, is what the
// call's Woke says. A TIMER has no expiry.
func TestTimerFold(t *testing.T) {
	adm := admitted()
	adm.StartAt = t0.Add(10 * time.Minute)
	sleep := call("c1", "sleep")
	recs := logOf(adm)
	st, err := runlog.Fold("run_1", recs)
	if err != nil {
		t.Fatal(err)
	}
	if sus := st.Suspension; st.Status != runlog.StatusSuspended || sus == nil || sus.Reason != runlog.ReasonTimer || !st.WakeAt().Equal(adm.StartAt) || !sus.ExpireAt.IsZero() {
		t.Fatalf("admitted with start_at: %v %+v, wakes %v", st.Status, st.Suspension, st.WakeAt())
	}
	wake := t0.Add(20 * time.Minute)
	recs = logOf(adm,
		&runlog.AttemptStarted{Attempt: 1, WorkerID: "w"},
		&runlog.Resumed{Reason: runlog.ReasonTimer},
		&runlog.TurnStarted{Turn: 1},
		&runlog.ModelCallStarted{Turn: 1},
		&runlog.ModelCallFinished{Turn: 1, ToolCalls: []runlog.ToolCall{sleep}},
		&runlog.Suspended{Reason: runlog.ReasonTimer, CallID: "c1", WakeAt: wake},
	)
	if st, err = runlog.Fold("run_1", recs); err != nil {
		t.Fatal(err)
	}
	if !st.WakeAt().Equal(wake) || st.Runnable() {
		t.Fatalf("asleep in a call: wakes %v, runnable %v", st.WakeAt(), st.Runnable())
	}
	early := runlog.Record{Seq: st.Seq + 1, Time: t0.Add(15 * time.Minute), Op: &runlog.Resumed{Reason: runlog.ReasonTimer, Early: true}}
	if err := st.Apply(early); err != nil {
		t.Fatal(err)
	}
	w := st.Clone().Call("c1").Woke
	if st.Status != runlog.StatusRunning || w == nil || !w.Early || !w.At.Equal(early.Time) || !w.WakeAt.Equal(wake) {
		t.Errorf("woken early: %v, %+v", st.Status, w)
	}
}
