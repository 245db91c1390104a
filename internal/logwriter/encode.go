package logwriter

import (
	"encoding/json"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/store"
)

// Summary is what the store's index keeps of a folded Run, beside its
// log, so that GetRun and ListRuns read it without folding; its one job
// is that index entry (runs.Run carries it decoded).
type Summary struct {
	Status     runlog.Status     `json:"status"`
	AbortCause runlog.AbortCause `json:"abortCause,omitempty"`
	Answer     string            `json:"answer,omitempty"`
	Failure    *errs.Stored      `json:"failure,omitempty"`
	Usage      runlog.Usage      `json:"usage"`
	Attempt    int               `json:"attempt,omitempty"`
	Turn       int               `json:"turn,omitempty"`
	Input      string            `json:"input"`
	Deadline   time.Time         `json:"deadline"`
	SettleTime time.Time         `json:"settleTime"`
	Depth      int               `json:"depth,omitempty"`
	Suspension *runlog.Suspended `json:"suspension,omitempty"`
	// SuspendedCalls are the calls a suspension waits on, with arguments.
	SuspendedCalls []runlog.ToolCall `json:"suspendedCalls,omitempty"`
	// Fork is where a forked Run started from (without the state it
	// carried).
	Fork *runlog.ForkOrigin `json:"fork,omitempty"`
	// Alias and AliasSide are the alias the Run started on and the side
	// it took (runlog.Admitted's).
	Alias     string `json:"alias,omitempty"`
	AliasSide string `json:"aliasSide,omitempty"`
	// ReplayOf is the recorded Run a replay re-runs.
	ReplayOf string `json:"replayOf,omitempty"`
}

func summarize(s *runlog.State) Summary {
	sum := Summary{
		Status: s.Status, AbortCause: s.AbortCause, Answer: s.Answer, Failure: s.Failure, Usage: s.Usage,
		Attempt: s.Attempt, Turn: s.Turn, SettleTime: s.SettleTime, Suspension: s.Suspension,
	}
	if a := s.Admission; a != nil {
		sum.Input, sum.Deadline, sum.Depth, sum.Fork = a.Input, a.Deadline, a.Depth, a.Fork
		sum.Alias, sum.AliasSide = a.Alias, a.AliasSide
		if a.Replay != nil {
			sum.ReplayOf = a.Replay.SourceRunID
		}
	}
	if sus := s.Suspension; sus != nil {
		ids := sus.CallIDs
		if sus.CallID != "" {
			ids = []string{sus.CallID}
		}
		for _, id := range ids {
			if c := s.Call(id); c != nil {
				sum.SuspendedCalls = append(sum.SuspendedCalls, c.ToolCall)
			}
		}
	}
	return sum
}

// Index computes what the store keeps beside a log folded into s.
func Index(s *runlog.State) store.Index {
	b, err := json.Marshal(summarize(s))
	if err != nil {
		panic("runs: encoding summary: " + err.Error())
	}
	return store.Index{State: string(s.Status), Runnable: s.Runnable(), WakeAt: s.WakeAt(), Summary: b, Suspension: SuspensionKind(s), Settled: s.Settled()}
}

// Ends reports whether recs settle or suspend their Run (store.Append.Ends).
func Ends(recs []store.Record) bool {
	settled, suspended := (*runlog.Settled)(nil).Kind(), (*runlog.Suspended)(nil).Kind()
	for _, r := range recs {
		if r.Kind == settled || r.Kind == suspended {
			return true
		}
	}
	return false
}

// InDoubt is the suspension kind of an APPROVAL that asks whether an
// at-most-once call in doubt happened.
const InDoubt = "IN_DOUBT"

// SuspensionKind is what a suspended Run waits for, as the store counts
// it: the suspension's reason, or InDoubt; empty when s is not suspended.
func SuspensionKind(s *runlog.State) string {
	sus := s.Suspension
	switch {
	case s.Status != runlog.StatusSuspended || sus == nil:
		return ""
	case sus.InDoubt:
		return InDoubt
	}
	return string(sus.Reason)
}

// ToStore encodes Records for the store.
func ToStore(recs []runlog.Record) ([]store.Record, error) {
	out := make([]store.Record, len(recs))
	for i, r := range recs {
		kind, body, err := runlog.Encode(r.Op)
		if err != nil {
			return nil, err
		}
		out[i] = store.Record{Seq: r.Seq, Time: r.Time, Attempt: r.Attempt, Kind: kind, Body: body}
	}
	return out, nil
}

// FromStore decodes stored Records. A body that does not decode is
// *errs.CorruptLog, returned with the Records before it.
func FromStore(runID string, recs []store.Record) ([]runlog.Record, error) {
	out := make([]runlog.Record, len(recs))
	for i, r := range recs {
		op, err := runlog.Decode(r.Kind, r.Body)
		if err != nil {
			return out[:i], &errs.CorruptLog{RunID: runID, Seq: r.Seq, Reason: errs.CorruptUndecodableRecord, Detail: err.Error()}
		}
		out[i] = runlog.Record{Seq: r.Seq, Time: r.Time, Attempt: r.Attempt, Op: op}
	}
	return out, nil
}

// Stamp numbers ops as the Records following a State, at time now.
func Stamp(s *runlog.State, attempt int, now time.Time, ops ...runlog.Op) []runlog.Record {
	out := make([]runlog.Record, len(ops))
	for i, op := range ops {
		out[i] = runlog.Record{Seq: s.Seq + int64(i) + 1, Time: now, Attempt: attempt, Op: op}
	}
	return out
}

// DecodeSummary decodes an index's summary.
func DecodeSummary(b []byte) (Summary, error) {
	var s Summary
	err := decodeSummary(b, &s)
	return s, err
}

func decodeSummary(b []byte, s *Summary) error {
	if len(b) == 0 {
		return nil
	}
	return json.Unmarshal(b, s)
}
