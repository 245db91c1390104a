package runlog

import "github.com/runsvc/runsvc/internal/errs"

// HistoryCompacted records that the transcript's first Messages messages
// reach the model as Summary from now on. The log keeps them all; a
// replay uses this Summary, never a new one.
type HistoryCompacted struct {
	// Turn is the turn whose request did not fit, or was refused.
	Turn int `json:"turn"`
	// ThroughTurn is the last turn the summary covers.
	ThroughTurn int `json:"throughTurn"`
	// Messages is how many transcript messages, from the first, the
	// summary replaces.
	Messages int `json:"messages"`
	// HistoryMessages is how many messages of the thread's history (the
	// earlier Runs' conversation, before this Run's transcript), from the
	// first, the summary replaces. It is recorded so a replay rebuilds the
	// same request: the history comes from settled Runs' logs, which no
	// longer change. Transcript messages are covered only after all the
	// history is.
	HistoryMessages int    `json:"historyMessages,omitempty"`
	Summary         string `json:"summary"`
	// AfterRefusal says the provider refused the request as too long.
	AfterRefusal bool  `json:"afterRefusal,omitempty"`
	InputTokens  int64 `json:"inputTokens,omitempty"`
	OutputTokens int64 `json:"outputTokens,omitempty"`
}

// Kind implements Op: "history_compacted".
func (*HistoryCompacted) Kind() string { return "history_compacted" }

// Compaction is the newest summary of the thread history's first
// HistoryMessages messages and the transcript's first Messages messages.
type Compaction struct {
	Turn            int    `json:"turn"`
	ThroughTurn     int    `json:"throughTurn"`
	Messages        int    `json:"messages"`
	HistoryMessages int    `json:"historyMessages,omitempty"`
	Summary         string `json:"summary"`
	AfterRefusal    bool   `json:"afterRefusal,omitempty"`
}

func (s *State) historyCompacted(r Record, op *HistoryCompacted) error {
	prev, prevHistory := 0, 0
	if s.Compaction != nil {
		prev, prevHistory = s.Compaction.Messages, s.Compaction.HistoryMessages
	}
	switch {
	case s.Open != nil:
		return s.corrupt(r, errs.CorruptMultipleOpenOperations, "history compacted while %s is open", s.Open)
	case op.Messages < prev || op.HistoryMessages < prevHistory || op.HistoryMessages < 0 ||
		(op.Messages == prev && op.HistoryMessages == prevHistory) || op.Messages > len(s.Transcript):
		return s.corrupt(r, errs.CorruptCompaction, "compaction of %d history and %d transcript messages, after %d and %d, of a transcript of %d",
			op.HistoryMessages, op.Messages, prevHistory, prev, len(s.Transcript))
	}
	s.Compaction = &Compaction{Turn: op.Turn, ThroughTurn: op.ThroughTurn, Messages: op.Messages, HistoryMessages: op.HistoryMessages,
		Summary: op.Summary, AfterRefusal: op.AfterRefusal}
	s.Usage.InputTokens += op.InputTokens
	s.Usage.OutputTokens += op.OutputTokens
	return nil
}
