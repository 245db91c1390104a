package runlog

import (
	"bytes"
	"encoding/json"

	"github.com/runsvc/runsvc/internal/errs"
)

// ReplayNeedsPerson is in the failure message of a replay that ended
// because a client tool, a question or an approval had no answer in the
// recording: only a person could have gone on.
const ReplayNeedsPerson = "the replay needs a person: "

// ReplayFenced is in the tool error that answers a replay's call the
// recording lacks, which was not made.
const ReplayFenced = "fenced: "

// Replay makes a Run a sandboxed replay of a recorded Run for an
// evaluation: each tool call it makes is answered from Calls when it
// matches one (MatchRecorded) and is fenced (never made) otherwise,
// unless its tool is pure.
type Replay struct {
	EvaluationID string `json:"evaluationId"`
	SourceRunID  string `json:"sourceRunId"`
	// Calls are the recorded Run's finished tool calls, in the order the
	// model issued them.
	Calls []RecordedCall `json:"calls,omitempty"`
	// History is the conversation of the Runs the recorded Run continued
	// on its thread, which the replay continues in its place.
	History []Message `json:"history,omitempty"`
}

// RecordedCall is one finished tool call of a recorded Run: what it was
// asked and how it was answered.
type RecordedCall struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Output    json.RawMessage `json:"output,omitempty"`
	Error     *errs.Stored    `json:"error,omitempty"`
}

// Recorded returns the finished tool calls of a Run's Records, in issue
// order: calls orphaned or never finished are left out, as nothing
// answered them.
func Recorded(recs []Record) []RecordedCall {
	var order []string
	asked := map[string]ToolCall{}
	done := map[string]*ToolCallFinished{}
	for _, r := range recs {
		switch op := r.Op.(type) {
		case *ModelCallFinished:
			for _, c := range op.ToolCalls {
				if _, seen := asked[c.ID]; !seen {
					order = append(order, c.ID)
				}
				asked[c.ID] = c
			}
		case *ToolCallFinished:
			done[op.CallID] = op
		}
	}
	var out []RecordedCall
	for _, id := range order {
		f := done[id]
		if f == nil || f.Orphaned {
			continue
		}
		c := asked[id]
		out = append(out, RecordedCall{Name: c.Name, Arguments: CanonicalJSON(c.Arguments), Output: f.Output, Error: f.Error})
	}
	return out
}

// MatchRecorded pairs the calls a replay made, in the order it made them,
// with the recorded calls: each call takes the first recorded call not
// taken yet with the same tool name and equal arguments (as canonical
// JSON), wherever it stands in the recording, so a reordered call still
// matches. The result holds, per call, the index of the recorded call it
// took, or -1 for none. It depends only on its inputs, so every Attempt
// of a replay, after any takeover, pairs the same calls the same way.
func MatchRecorded(recorded []RecordedCall, made []ToolCall) []int {
	taken := make([]bool, len(recorded))
	out := make([]int, len(made))
	for i, c := range made {
		out[i] = -1
		args := CanonicalJSON(c.Arguments)
		for j, r := range recorded {
			if !taken[j] && r.Name == c.Name && bytes.Equal(CanonicalJSON(r.Arguments), args) {
				taken[j], out[i] = true, j
				break
			}
		}
	}
	return out
}

// CallsMade are the tool calls of a transcript's model responses, in the
// order the model issued them.
func CallsMade(transcript []Message) []ToolCall {
	var out []ToolCall
	for _, m := range transcript {
		out = append(out, m.ToolCalls...)
	}
	return out
}

// CanonicalJSON re-encodes a JSON value with sorted keys and no spaces;
// a value that is not JSON, and null or empty, stay as they are ({} for
// empty, so that no arguments equal an empty object).
func CanonicalJSON(raw json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(raw)) == 0 {
		return json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return raw
	}
	b, err := json.Marshal(v)
	if err != nil {
		return raw
	}
	return b
}
