package runs

import (
	"encoding/json"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
)

// inDoubtResume checks the answer to "did the call happen?".
func inDoubtResume(sus *runlog.Suspended, a *runlog.InDoubtAnswer) (*runlog.Resumed, error) {
	switch a.Outcome {
	case runlog.OutcomeHappened:
		if len(a.Output) > 0 && !json.Valid(a.Output) {
			return nil, errs.BadField("in_doubt.output", "is not JSON")
		}
	case runlog.OutcomeDidNotHappen, runlog.OutcomeSkip:
		if len(a.Output) > 0 {
			return nil, errs.BadField("in_doubt.output", "is only for HAPPENED: a call that did not happen, or is skipped, has no result")
		}
	default:
		return nil, errs.BadField("in_doubt.outcome", "is required: HAPPENED, DID_NOT_HAPPEN or SKIP")
	}
	ans := *a
	ans.Attempt = 0
	return &runlog.Resumed{Reason: sus.Reason, InDoubt: &ans}, nil
}
