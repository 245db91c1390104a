package a2a

import (
	"encoding/json"
	"time"

	"google.golang.org/protobuf/encoding/protojson"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// answerArtifact is the id of the artifact holding a completed Run's
// answer; streamArtifact the one its text streams into as produced.
const (
	answerArtifact = "answer"
	streamArtifact = "text"
)

// stateOf is the A2A state of a Run: a question or an approval awaits the
// caller's input; other suspensions (tool results, children, timers) are
// the agent still working.
func stateOf(run *runsvcv1.Run) string {
	switch run.GetState() {
	case runsvcv1.RunState_RUN_STATE_QUEUED:
		return stateSubmitted
	case runsvcv1.RunState_RUN_STATE_SUSPENDED:
		if awaitsInput(run) {
			return stateInputRequired
		}
		return stateWorking
	case runsvcv1.RunState_RUN_STATE_COMPLETED:
		return stateCompleted
	case runsvcv1.RunState_RUN_STATE_FAILED:
		return stateFailed
	case runsvcv1.RunState_RUN_STATE_ABORTED, runsvcv1.RunState_RUN_STATE_ABANDONED:
		// Abandoned: nobody answered its question in time (pushState
		// says the same).
		if run.GetAbortCause() == runsvcv1.AbortCause_ABORT_CAUSE_DEADLINE {
			return stateFailed
		}
		return stateCanceled
	}
	return stateWorking
}

// awaitsInput reports whether a Run is suspended on a question or an
// approval, which a message of the caller answers.
func awaitsInput(run *runsvcv1.Run) bool {
	if run.GetState() != runsvcv1.RunState_RUN_STATE_SUSPENDED {
		return false
	}
	r := run.GetSuspension().GetReason()
	return r == runsvcv1.SuspensionReason_SUSPENSION_REASON_QUESTION || r == runsvcv1.SuspensionReason_SUSPENSION_REASON_APPROVAL
}

// final reports whether an A2A state ends a stream: a terminal state, or
// one that waits for the caller.
func final(state string) bool {
	switch state {
	case stateCompleted, stateFailed, stateCanceled, stateInputRequired:
		return true
	}
	return false
}

// terminal reports whether an A2A state is one a task never leaves.
func terminal(state string) bool {
	return state == stateCompleted || state == stateFailed || state == stateCanceled
}

// contextOf is a Run's A2A context: its thread, or its own id without one.
func contextOf(run *runsvcv1.Run) string {
	if t := run.GetThreadId(); t != "" {
		return t
	}
	return run.GetRunId()
}

// taskOf is a Run as an A2A task; structured is whether the Spec has an
// output schema (the answer is then a data part); history is how many
// messages of the history to include (nil: all).
func taskOf(run *runsvcv1.Run, structured bool, history *int32) Task {
	t := Task{ID: run.GetRunId(), ContextID: contextOf(run), Status: statusOf(run)}
	if run.GetState() == runsvcv1.RunState_RUN_STATE_COMPLETED {
		t.Artifacts = []Artifact{{ArtifactID: answerArtifact, Name: "answer", Parts: []Part{answerPart(run.GetAnswer(), structured)}}}
	}
	if history == nil || *history > 0 {
		t.History = []Message{{MessageID: run.GetRunId() + "-input", ContextID: t.ContextID, TaskID: t.ID, Role: roleUser, Parts: []Part{textPart(run.GetInput())}}}
	}
	t.Metadata = map[string]any{"runsvcState": run.GetState().String(), "spec": run.GetSpec(), "version": run.GetVersion()}
	return t
}

// statusOf is a Run's A2A status, with the agent's message for the
// states that have one: the question or approval awaited, the failure.
func statusOf(run *runsvcv1.Run) TaskStatus {
	st := TaskStatus{State: stateOf(run)}
	if ts := run.GetUpdateTime(); ts != nil {
		st.Timestamp = ts.AsTime().UTC().Format(time.RFC3339Nano)
	}
	var parts []Part
	switch st.State {
	case stateInputRequired:
		parts = inputParts(run.GetSuspension())
	case stateFailed, stateCanceled:
		if f := run.GetFailure(); f != nil {
			parts = []Part{textPart(f.GetMessage())}
			if b, err := protojson.Marshal(f); err == nil {
				parts = append(parts, Part{Data: b, MediaType: "application/json", Metadata: map[string]any{"type": "google.rpc.Status"}})
			}
		}
	}
	if len(parts) > 0 {
		st.Message = &Message{MessageID: run.GetRunId() + "-" + st.State, ContextID: contextOf(run), TaskID: run.GetRunId(), Role: roleAgent, Parts: parts}
	}
	return st
}

// inputParts says what a suspension waits for: the question's text, or
// the call to approve (its name and arguments as data).
func inputParts(s *runsvcv1.Suspension) []Part {
	if s.GetReason() == runsvcv1.SuspensionReason_SUSPENSION_REASON_QUESTION {
		return []Part{textPart(s.GetQuestion())}
	}
	text := "approve the call of " + s.GetApprovalCall().GetName() + "? answer yes or no"
	if r := s.GetApprovalReason(); r != "" {
		text += " (" + r + ")"
	}
	parts := []Part{textPart(text)}
	if c := s.GetApprovalCall(); c != nil {
		if b, err := protojson.Marshal(c); err == nil {
			parts = append(parts, Part{Data: b, MediaType: "application/json", Metadata: map[string]any{"type": "runsvc.v1.ToolCall"}})
		}
	}
	return parts
}

// answerPart is a Run's answer: a data part for structured output whose
// JSON parses, else text.
func answerPart(answer string, structured bool) Part {
	if structured && json.Valid([]byte(answer)) {
		return Part{Data: json.RawMessage(answer), MediaType: "application/json"}
	}
	return textPart(answer)
}

func textPart(s string) Part { return Part{Text: &s} }
