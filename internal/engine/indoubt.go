package engine

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/spec"
)

// whyInDoubt is why a call found started without a result is in doubt.
const whyInDoubt = "the process making it stopped before its result was recorded"

// happenedOutput is what the model sees for a call a person says happened
// without giving its result.
var happenedOutput = json.RawMessage(`{"happened": true, "note": "a person confirmed the call happened; its result is not known"}`)

// inDoubt reports whether c is an at-most-once call an earlier Attempt
// started and never recorded a result for: it may or may not have
// happened, so it is not made again. An a2a call whose remote task is
// recorded is not in doubt: its message arrived, and the task is followed.
func (a *attempt) inDoubt(c *runlog.Call, decl spec.Tool) bool {
	return decl.AtMostOnce() && !c.Finished && c.StartedAttempt != 0 && c.StartedAttempt < a.state.Attempt && c.Remote == nil
}

// resolveInDoubt closes a call in doubt: from a person's answer when one
// covers it, by asking one (in_doubt ask), or as an in-doubt result.
func (a *attempt) resolveInDoubt(ctx context.Context, c *runlog.Call, decl spec.Tool) error {
	if ans := c.InDoubtAnswer; ans.Covers(c) {
		switch ans.Outcome {
		case runlog.OutcomeHappened:
			out := ans.Output
			if len(out) == 0 {
				out = happenedOutput
			}
			return a.answer(ctx, c, decl, out, nil)
		case runlog.OutcomeDidNotHappen:
			a.log.Info("a person says the call in doubt did not happen; making it", "callId", c.ID, "tool", c.Name)
			return a.execute(ctx, c, decl)
		case runlog.OutcomeSkip:
			return a.answer(ctx, c, decl, nil, &errs.ToolRejected{Tool: c.Name, Message: "a person skipped this call after it was in doubt"})
		}
	}
	a.log.Warn("at-most-once call in doubt; not making it again", "callId", c.ID, "tool", c.Name, "startedAttempt", c.StartedAttempt)
	if decl.InDoubt == spec.InDoubtAsk {
		return a.suspend(ctx, &runlog.Suspended{
			Reason: runlog.ReasonApproval, CallID: c.ID, InDoubt: true,
			ApprovalReason: "did the call happen? " + whyInDoubt,
		})
	}
	return a.answer(ctx, c, decl, nil, &errs.ToolInDoubt{Tool: c.Name, CallID: c.ID, Why: whyInDoubt})
}

// isInDoubt reports whether failure closes a call as in doubt.
func isInDoubt(failure error) bool {
	var d *errs.ToolInDoubt
	return errors.As(failure, &d)
}
