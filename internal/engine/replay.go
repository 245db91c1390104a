package engine

import (
	"context"
	"encoding/json"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/spec"
)

// A replay (runlog.Replay) is a Run that re-runs a recorded Run on a
// candidate Version for an evaluation. Its model is called for real; its
// tool calls are not: a call that matches a recorded one
// (runlog.MatchRecorded) is answered with the recorded result or error,
// and any other call is fenced, answered with a tool error and never
// made, unless its tool is pure. A client tool or a question the
// recording cannot answer, and an approval a pure call would need, end the
// replay as needing a person. Two places enforce it: replayCall decides
// before any other step of the pipeline, and prepare, through which every
// call of a Run reaches its executor (made in its turn or started ahead),
// refuses any call of a replay to a tool that is not pure. Both decide
// from the log alone, so an Attempt that takes a replay over after a crash
// decides the same.

// replayCall answers c, a call of a replay, from the recording, fences
// it, or ends the replay; handled is false when c is a call to a pure
// tool the recording lacks, which goes on through the pipeline and is
// made.
func (a *attempt) replayCall(ctx context.Context, c *runlog.Call, decl spec.Tool) (handled bool, err error) {
	rp := a.state.Admission.Replay
	if i := a.recorded(c); i >= 0 {
		r := rp.Calls[i]
		out := r.Output
		var failure error
		if r.Error != nil {
			stored := *r.Error
			failure, out = &stored, nil
		} else if len(out) == 0 {
			out = json.RawMessage("null")
		}
		return true, a.answer(ctx, c, decl, out, failure)
	}
	switch {
	case decl.Kind == spec.KindClient:
		return true, a.needsPerson(ctx, c, "the recording holds no result of the client tool "+c.Name+" with these arguments")
	case decl.Kind == spec.KindBuiltin && decl.Name == spec.BuiltinAskUser:
		return true, a.needsPerson(ctx, c, "the recording holds no answer to this question")
	case decl.Pure:
		return false, nil
	}
	lenient := decl
	lenient.RaiseOnError = false
	return true, a.answer(ctx, c, lenient, nil, fenced(c.Name, rp.SourceRunID))
}

// recorded is the index of the recorded call that c matches, or -1.
func (a *attempt) recorded(c *runlog.Call) int {
	made := runlog.CallsMade(a.state.Transcript)
	pairs := runlog.MatchRecorded(a.state.Admission.Replay.Calls, made)
	for i, m := range made {
		if m.ID == c.ID {
			return pairs[i]
		}
	}
	return -1
}

// fenced is the answer to a replay's call that the recording lacks.
func fenced(name, source string) error {
	return &errs.ToolRejected{Tool: name, Message: runlog.ReplayFenced + "this Run replays Run " + source +
		", whose recording holds no call of " + name + " with these arguments; the call was not made"}
}

// needsPerson ends a replay whose call c only a person could answer.
func (a *attempt) needsPerson(ctx context.Context, c *runlog.Call, why string) error {
	failure := &errs.ToolRejected{Tool: c.Name, Message: runlog.ReplayNeedsPerson + why}
	stored := errs.Store(failure, errs.NewErrorID())
	return a.settle(ctx, runlog.StatusFailed, "", "", failure,
		&runlog.ToolCallStarted{CallID: c.ID, Name: c.Name},
		&runlog.ToolCallFinished{CallID: c.ID, Name: c.Name, Error: &stored})
}

// replayRefuses is prepare's guard: a replay makes no call to a tool
// that is not pure.
func (a *attempt) replayRefuses(c *runlog.Call, decl spec.Tool) error {
	if rp := a.state.Admission.Replay; rp != nil && !decl.Pure {
		return fenced(c.Name, rp.SourceRunID)
	}
	return nil
}
