package runlog

import (
	"encoding/json"
	"fmt"
)

// Outcome is what a person says became of a call in doubt.
type Outcome string

// Outcomes of a call in doubt.
const (
	// OutcomeHappened: the call happened; Output, if any, is its result.
	OutcomeHappened Outcome = "happened"
	// OutcomeDidNotHappen: the call did not happen; runsvc makes it now.
	OutcomeDidNotHappen Outcome = "did_not_happen"
	// OutcomeSkip: the call is not made; the model hears it was skipped.
	OutcomeSkip Outcome = "skip"
)

// InDoubtAnswer answers an APPROVAL asking whether a call in doubt
// happened.
type InDoubtAnswer struct {
	Outcome Outcome         `json:"outcome"`
	Output  json.RawMessage `json:"output,omitempty"`
	// Attempt is the Attempt during which the answer was folded: it covers
	// the execution started before it, not one started after (a
	// did_not_happen call that is made and again lost is in doubt again).
	Attempt int `json:"attempt,omitempty"`
}

// at returns a copy of a stamped with attempt, or nil for nil.
func (a *InDoubtAnswer) at(attempt int) *InDoubtAnswer {
	if a == nil {
		return nil
	}
	c := *a
	c.Attempt = attempt
	return &c
}

// Covers reports whether the answer is about c's newest start.
func (a *InDoubtAnswer) Covers(c *Call) bool {
	return a != nil && c.StartedAttempt != 0 && c.StartedAttempt <= a.Attempt
}

// InDoubtText renders a call in doubt for the model:
// {"tool": "<name>", "error": "the call may or may not have happened: <why>", "in_doubt": true}.
func InDoubtText(tool, why string) string {
	return fmt.Sprintf(`{"tool": %s, "error": %s, "in_doubt": true}`, jsonString(tool), jsonString("the call may or may not have happened: "+why))
}
