package errs

import (
	"fmt"
	"time"
)

// RunNotSuspended is a resume of a Run that is not waiting for anything.
type RunNotSuspended struct {
	RunID string `meta:"runId"`
	State string `meta:"runState"`
}

// Error returns the error's message.
func (e *RunNotSuspended) Error() string {
	return fmt.Sprintf("run %s is not suspended, so there is nothing to resume. Its state is %s.", e.RunID, e.State)
}

// RunAlreadySettled is a request for more work from a settled Run.
type RunAlreadySettled struct {
	RunID  string `meta:"runId"`
	State  string `meta:"runState"`
	Action string `meta:"action"`
}

// Error returns the error's message.
func (e *RunAlreadySettled) Error() string {
	return fmt.Sprintf("run %s already settled as %s, so it cannot %s", e.RunID, e.State, e.Action)
}

// SuspensionExpired is a resume that came after the suspension's expiry;
// the Run is settled ABANDONED.
type SuspensionExpired struct {
	RunID      string    `meta:"runId"`
	Reason     string    `meta:"suspensionReason"`
	ExpireTime time.Time `meta:"expireTime"`
}

// Error returns the error's message.
func (e *SuspensionExpired) Error() string {
	return fmt.Sprintf("run %s waited for %s until %s and was abandoned", e.RunID, e.Reason, e.ExpireTime.UTC().Format(time.RFC3339))
}

// RunEndedWithoutAnswer is a text stream whose Run settled without an
// answer and without failing or aborting (e.g. abandoned).
type RunEndedWithoutAnswer struct {
	RunID         string `meta:"runId"`
	State         string `meta:"runState"`
	FailureReason string `meta:"failureReason"`
}

// Error returns the error's message.
func (e *RunEndedWithoutAnswer) Error() string {
	return fmt.Sprintf("run %s ended without an answer: it is %s", e.RunID, e.State)
}

// RunFailed is a text stream whose Run settled FAILED.
type RunFailed struct {
	RunID          string `meta:"runId"`
	State          string `meta:"runState"`
	FailureReason  string `meta:"failureReason"`
	FailureMessage string `meta:"failureMessage"`
}

// Error returns the error's message.
func (e *RunFailed) Error() string {
	return fmt.Sprintf("run %s failed: %s", e.RunID, e.FailureMessage)
}

// RunAborted is a text stream whose Run was interrupted or passed its
// deadline; Cause tells which, since only the second is an incident.
type RunAborted struct {
	RunID         string `meta:"runId"`
	State         string `meta:"runState"`
	Cause         string `meta:"abortCause"`
	FailureReason string `meta:"failureReason"`
}

// Error returns the error's message.
func (e *RunAborted) Error() string {
	return fmt.Sprintf("run %s was aborted (%s) before answering", e.RunID, e.Cause)
}

// ThreadBusy is a StartRun on a thread that already has an active Run,
// with the strategy reject.
type ThreadBusy struct {
	ThreadID    string `meta:"threadId"`
	ActiveRunID string `meta:"activeRunId"`
}

// Error returns the error's message.
func (e *ThreadBusy) Error() string {
	return fmt.Sprintf("thread %s already has an active run %s; start with the strategy enqueue, interrupt or steer, or wait for it to settle", e.ThreadID, e.ActiveRunID)
}

// ConcurrencyLimited is a StartRun whose concurrency key has all its slots
// held while its Spec's concurrency mode is REJECT: nothing was created. A
// slot frees only when a Run holding it settles, so it is a precondition,
// not a rate: a client retrying on a timer would start a duplicate later.
type ConcurrencyLimited struct {
	Key   string `meta:"concurrencyKey"`
	Limit int    `meta:"limit"`
}

// Error returns the error's message.
func (e *ConcurrencyLimited) Error() string {
	return fmt.Sprintf("concurrency key %q already has %d active run(s), its limit; wait for one to settle, or use the mode QUEUE or REPLACE", e.Key, e.Limit)
}
