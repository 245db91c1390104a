package mcpserver

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/status"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// answerSchema is what an elicitation asks for: the answer to the Run's
// question.
var answerSchema = json.RawMessage(`{"type":"object","properties":{"answer":{"type":"string","title":"Answer","description":"Your answer to the agent's question."}},"required":["answer"]}`)

// answered is a completed Run's answer: its text, and, for a Spec with an
// object output schema, the answer as structured content.
func answered(sp *runsvcv1.Spec, run *runsvcv1.Run) *mcp.CallToolResult {
	res := &mcp.CallToolResult{
		Meta:    mcp.Meta{MetaRunID: run.GetRunId()},
		Content: []mcp.Content{&mcp.TextContent{Text: run.GetAnswer()}},
	}
	if objectSchema(sp) != nil {
		var obj map[string]any
		if json.Unmarshal([]byte(run.GetAnswer()), &obj) == nil && obj != nil {
			res.StructuredContent = json.RawMessage(run.GetAnswer())
		}
	}
	return res
}

// runFailed is the tool error of a Run that ended without an answer: its
// state, reason and message, naming the Run.
func runFailed(run *runsvcv1.Run) *mcp.CallToolResult {
	state := strings.TrimPrefix(run.GetState().String(), "RUN_STATE_")
	msg := fmt.Sprintf("Run %s ended %s", run.GetRunId(), state)
	if f := run.GetFailure(); f != nil {
		msg += ": " + describe(f)
	}
	if state == "ABORTED" {
		msg += " (" + strings.TrimPrefix(run.GetAbortCause().String(), "ABORT_CAUSE_") + ")"
	}
	return toolError(run.GetRunId(), msg)
}

// waiting is the tool error of a Run this call cannot take further: it
// waits for something only runsvc's API can give.
func waiting(run *runsvcv1.Run, what string) *mcp.CallToolResult {
	id := run.GetRunId()
	return toolError(id, fmt.Sprintf("Run %s %s. It stays suspended: answer it through runsvc (ResumeRun run_id %s), then read its answer with WaitRun or GetRun.", id, what, id))
}

// refused is the tool error of a request the API refused (quota, role,
// an unknown Spec, ...): its reason and message.
func refused(err error) *mcp.CallToolResult {
	return toolError("", describe(status.Convert(err).Proto()))
}

// describe is a status as "REASON: message".
func describe(st *spb.Status) string {
	for _, d := range st.GetDetails() {
		var info errdetails.ErrorInfo
		if d.UnmarshalTo(&info) == nil && info.GetReason() != "" {
			return info.GetReason() + ": " + st.GetMessage()
		}
	}
	return st.GetMessage()
}

func toolError(runID, msg string) *mcp.CallToolResult {
	res := &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}}}
	if runID != "" {
		res.Meta = mcp.Meta{MetaRunID: runID}
	}
	return res
}

// reasonName is a suspension reason as the API names it.
func reasonName(r runsvcv1.SuspensionReason) string {
	return strings.TrimPrefix(r.String(), "SUSPENSION_REASON_")
}
