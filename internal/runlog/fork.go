package runlog

import "fmt"

// ForkOrigin says that a Run was forked from another Run's log at a turn
// boundary, and carries the source's state at that boundary: what the
// model had seen, with every tool result, so that no call made before the
// boundary is made again.
type ForkOrigin struct {
	// RunID is the source Run.
	RunID string `json:"runId"`
	// Seq is the source's TurnStarted Record the fork starts before: the
	// fork holds the source's state after seq-1.
	Seq int64 `json:"seq"`
	// Turn is the first turn the fork makes (the source's turn at Seq).
	Turn int `json:"turn"`
	// Transcript is the source's conversation after seq-1.
	Transcript []Message `json:"transcript,omitempty"`
	// ToolCallsIssued is the source's count of calls issued, for the
	// circuit breaker.
	ToolCallsIssued int `json:"toolCallsIssued,omitempty"`
}

// ForkPoint returns the source's state at the turn boundary before turn
// (when turn > 0) or before the TurnStarted Record at seq atSeq, as a
// ForkOrigin. It returns an error naming the boundaries there are when the
// log has no such boundary; records is the source's whole log.
func ForkPoint(runID string, records []Record, turn int, atSeq int64) (*ForkOrigin, error) {
	st := New(runID)
	var bounds []int64
	for _, r := range records {
		if ts, ok := r.Op.(*TurnStarted); ok {
			bounds = append(bounds, r.Seq)
			if (turn > 0 && ts.Turn == turn) || (turn <= 0 && r.Seq == atSeq) {
				return &ForkOrigin{
					RunID: runID, Seq: r.Seq, Turn: ts.Turn,
					Transcript: st.Clone().Transcript, ToolCallsIssued: st.ToolCallsIssued,
				}, nil
			}
		}
		if err := st.Apply(r); err != nil {
			return nil, err
		}
	}
	if turn > 0 {
		return nil, fmt.Errorf("the run has no turn %d: it made %d", turn, st.Turn)
	}
	return nil, fmt.Errorf("seq %d is not a turn boundary: turns start at seqs %v", atSeq, bounds)
}
