package a2a

import (
	"testing"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/runlog"
)

// TestTaskStateOfEveryRunState: every Run state has its A2A task state,
// a settled Run's is terminal (a stream or a SendMessage waiting on it
// ends), and GetTask says what a push of the same Run says.
func TestTaskStateOfEveryRunState(t *testing.T) {
	question := &runsvcv1.Suspension{Reason: runsvcv1.SuspensionReason_SUSPENSION_REASON_QUESTION}
	timer := &runsvcv1.Suspension{Reason: runsvcv1.SuspensionReason_SUSPENSION_REASON_TIMER}
	for _, tc := range []struct {
		name string
		run  *runsvcv1.Run
		log  *runlog.State
		want string
	}{
		{"queued", &runsvcv1.Run{State: runsvcv1.RunState_RUN_STATE_QUEUED}, &runlog.State{Status: runlog.StatusQueued}, stateSubmitted},
		{"running", &runsvcv1.Run{State: runsvcv1.RunState_RUN_STATE_RUNNING}, &runlog.State{Status: runlog.StatusRunning}, stateWorking},
		{"asleep", &runsvcv1.Run{State: runsvcv1.RunState_RUN_STATE_SUSPENDED, Suspension: timer},
			&runlog.State{Status: runlog.StatusSuspended, Suspension: &runlog.Suspended{Reason: runlog.ReasonTimer}}, stateWorking},
		{"asking", &runsvcv1.Run{State: runsvcv1.RunState_RUN_STATE_SUSPENDED, Suspension: question},
			&runlog.State{Status: runlog.StatusSuspended, Suspension: &runlog.Suspended{Reason: runlog.ReasonQuestion}}, stateInputRequired},
		{"completed", &runsvcv1.Run{State: runsvcv1.RunState_RUN_STATE_COMPLETED}, &runlog.State{Status: runlog.StatusCompleted}, stateCompleted},
		{"failed", &runsvcv1.Run{State: runsvcv1.RunState_RUN_STATE_FAILED}, &runlog.State{Status: runlog.StatusFailed}, stateFailed},
		{"interrupted", &runsvcv1.Run{State: runsvcv1.RunState_RUN_STATE_ABORTED, AbortCause: runsvcv1.AbortCause_ABORT_CAUSE_INTERRUPTED},
			&runlog.State{Status: runlog.StatusAborted, AbortCause: runlog.CauseInterrupted}, stateCanceled},
		{"past its deadline", &runsvcv1.Run{State: runsvcv1.RunState_RUN_STATE_ABORTED, AbortCause: runsvcv1.AbortCause_ABORT_CAUSE_DEADLINE},
			&runlog.State{Status: runlog.StatusAborted, AbortCause: runlog.CauseDeadline}, stateFailed},
		{"abandoned (its question unanswered)", &runsvcv1.Run{State: runsvcv1.RunState_RUN_STATE_ABANDONED},
			&runlog.State{Status: runlog.StatusAbandoned}, stateCanceled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := stateOf(tc.run)
			if got != tc.want {
				t.Errorf("stateOf = %s, want %s", got, tc.want)
			}
			if tc.log.Status.Settled() != terminal(got) {
				t.Errorf("settled %v but terminal(%s) = %v", tc.log.Status.Settled(), got, terminal(got))
			}
			if push := pushState(tc.log); push != "" && push != got {
				t.Errorf("a push says %s, GetTask %s", push, got)
			}
		})
	}
}
