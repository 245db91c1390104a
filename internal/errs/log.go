package errs

import "fmt"

// SeqConflict is an append that found a Record already at its seq: another
// writer got there first.
type SeqConflict struct {
	RunID string `meta:"runId"`
	Seq   int64  `meta:"seq"`
}

// Error returns the error's message.
func (e *SeqConflict) Error() string {
	return fmt.Sprintf("run %s already has a record at seq %d", e.RunID, e.Seq)
}

// LeaseLost is a worker whose lease on a Run was refused or taken over. It
// must stop writing at once.
type LeaseLost struct {
	RunID    string `meta:"runId"`
	WorkerID string `meta:"workerId"`
}

// Error returns the error's message.
func (e *LeaseLost) Error() string {
	return fmt.Sprintf("worker %s lost its lease on run %s", e.WorkerID, e.RunID)
}

// Corruption names the invariant a corrupt log breaks.
type Corruption string

// The ways a log can be impossible. Each is a distinct writer bug.
const (
	CorruptNonConsecutiveSeq      Corruption = "non_consecutive_seq"
	CorruptMissingAdmission       Corruption = "missing_admission"
	CorruptSecondAdmission        Corruption = "second_admission"
	CorruptRecordAfterSettle      Corruption = "record_after_settle"
	CorruptUnknownOperation       Corruption = "unknown_operation"
	CorruptMultipleOpenOperations Corruption = "multiple_open_operations"
	CorruptToolCallMismatch       Corruption = "tool_call_mismatch"
	CorruptDuplicateToolInvoke    Corruption = "duplicate_tool_invocation"
	CorruptResumeWithoutSuspend   Corruption = "resume_without_suspension"
	CorruptNonConsecutiveAttempt  Corruption = "non_consecutive_attempt"
	CorruptNonConsecutiveTurn     Corruption = "non_consecutive_turn"
	CorruptUndecodableRecord      Corruption = "undecodable_record"
	// One per invariant that unknown_operation and tool_call_mismatch
	// used to share.
	CorruptModelCallTurnMismatch Corruption = "model_call_turn_mismatch"
	CorruptNoOpenModelCall       Corruption = "no_open_model_call"
	CorruptNoOpenToolCall        Corruption = "no_open_tool_call"
	CorruptSuspendWhileNotRun    Corruption = "suspend_while_not_running"
	CorruptMessageNotQueued      Corruption = "message_not_queued"
	CorruptDuplicateDelegation   Corruption = "duplicate_delegation"
	CorruptDelegationNotRunning  Corruption = "delegation_not_running"
	CorruptSettleNotFinal        Corruption = "settle_not_final"
	CorruptCallsOutOfOrder       Corruption = "calls_out_of_order"
	CorruptCallsUnanswered       Corruption = "calls_unanswered"
	CorruptDuplicateCallID       Corruption = "duplicate_call_id"
	CorruptDelegationCall        Corruption = "delegation_call_mismatch"
	CorruptResumeResults         Corruption = "resume_results_mismatch"
	// CorruptCompaction: a compaction summarising no new message, or more
	// than the transcript holds.
	CorruptCompaction Corruption = "compaction_out_of_range"
)

// CorruptLog is a Run log the protocol cannot produce. Nothing repairs it:
// the Run fails. Seq is where the fold noticed, which is where to start
// reading, not necessarily the wrong record.
type CorruptLog struct {
	RunID  string     `meta:"runId"`
	Seq    int64      `meta:"seq"`
	Reason Corruption `meta:"corruption"`
	Detail string     `meta:"detail"`
}

// Error returns the error's message.
func (e *CorruptLog) Error() string {
	return fmt.Sprintf("run %s has a corrupt log at seq %d (%s): %s", e.RunID, e.Seq, e.Reason, e.Detail)
}
