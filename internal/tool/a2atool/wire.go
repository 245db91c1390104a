package a2atool

import (
	"encoding/json"
	"strings"

	"github.com/runsvc/runsvc/internal/tool"
)

// The A2A 1.0 objects runsvc reads and writes, in their ProtoJSON form
// (a2a.proto, package lf.a2a.v1): camelCase fields, enums by name.

type message struct {
	MessageID string `json:"messageId"`
	ContextID string `json:"contextId,omitempty"`
	TaskID    string `json:"taskId,omitempty"`
	Role      string `json:"role"`
	Parts     []part `json:"parts"`
}

type part struct {
	Text      *string         `json:"text,omitempty"`
	Data      json.RawMessage `json:"data,omitempty"`
	URL       string          `json:"url,omitempty"`
	Filename  string          `json:"filename,omitempty"`
	MediaType string          `json:"mediaType,omitempty"`
}

type task struct {
	ID        string     `json:"id"`
	ContextID string     `json:"contextId"`
	Status    taskStatus `json:"status"`
	Artifacts []artifact `json:"artifacts,omitempty"`
}

type taskStatus struct {
	State     string   `json:"state"`
	Message   *message `json:"message,omitempty"`
	Timestamp string   `json:"timestamp,omitempty"`
}

type artifact struct {
	ArtifactID string `json:"artifactId"`
	Parts      []part `json:"parts"`
}

// sendRequest is SendMessageRequest: returnImmediately, so the agent
// names the task at once and runsvc records it before waiting.
type sendRequest struct {
	Message       message           `json:"message"`
	Configuration sendConfiguration `json:"configuration"`
}

type sendConfiguration struct {
	ReturnImmediately bool `json:"returnImmediately"`
	HistoryLength     *int `json:"historyLength,omitempty"`
}

// sendResponse is SendMessageResponse: a task, or a direct message.
type sendResponse struct {
	Task    *task    `json:"task,omitempty"`
	Message *message `json:"message,omitempty"`
}

// Task states (TaskState names).
const (
	stateSubmitted     = "TASK_STATE_SUBMITTED"
	stateWorking       = "TASK_STATE_WORKING"
	stateCompleted     = "TASK_STATE_COMPLETED"
	stateFailed        = "TASK_STATE_FAILED"
	stateCanceled      = "TASK_STATE_CANCELED"
	stateInputRequired = "TASK_STATE_INPUT_REQUIRED"
	stateRejected      = "TASK_STATE_REJECTED"
	stateAuthRequired  = "TASK_STATE_AUTH_REQUIRED"
)

func outgoing(m tool.RemoteMessage) message {
	text := m.Text
	return message{
		MessageID: m.ID, TaskID: m.TaskID, ContextID: m.ContextID, Role: "ROLE_USER",
		Parts: []part{{Text: &text}},
	}
}

// textOf is the text of parts: text parts as they are, data parts as
// JSON, files by their URL or name, one per line.
func textOf(parts []part) string {
	var lines []string
	for _, p := range parts {
		switch {
		case p.Text != nil:
			lines = append(lines, *p.Text)
		case len(p.Data) > 0:
			lines = append(lines, string(p.Data))
		case p.URL != "":
			lines = append(lines, p.URL)
		case p.Filename != "":
			lines = append(lines, "[file "+p.Filename+"]")
		}
	}
	return strings.Join(lines, "\n")
}

// answer is a completed task's result: the single data part of its
// artifacts as it is, or else the text of all their parts as a JSON
// string; the status message's when it has no artifacts.
func answer(t task) json.RawMessage {
	var parts []part
	for _, a := range t.Artifacts {
		parts = append(parts, a.Parts...)
	}
	if len(parts) == 0 && t.Status.Message != nil {
		parts = t.Status.Message.Parts
	}
	if len(parts) == 1 && len(parts[0].Data) > 0 && json.Valid(parts[0].Data) {
		return parts[0].Data
	}
	out, _ := json.Marshal(textOf(parts))
	return out
}

// questionID tells one question of a task from another: its status
// message's id, else the status time.
func questionID(s taskStatus) string {
	if s.Message != nil && s.Message.MessageID != "" {
		return s.Message.MessageID
	}
	return s.Timestamp
}

// statusText is the text of a task's status message.
func statusText(s taskStatus) string {
	if s.Message == nil {
		return ""
	}
	return textOf(s.Message.Parts)
}
