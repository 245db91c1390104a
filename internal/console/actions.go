package console

import (
	"net/http"
	"strconv"
	"strings"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// actions are the forms a Run's page offers: only those the session's
// roles allow, and only when the Run's state makes them meaningful. The
// server decides again on every call.
type actions struct {
	ToolCalls []pendingCall // TOOL_RESULTS: one result each
	Approval  *pendingCall  // APPROVAL
	Budget    *budgetAsk    // APPROVAL of a budget
	InDoubt   bool
	Why       string
	Question  string // QUESTION
	Wake      bool   // TIMER: wake it now
	Until     string
	Message   bool
	Interrupt bool
}

// budgetAsk is a budget the Run asks to exceed, as the form shows it.
type budgetAsk struct {
	Dimension             string
	Spent, Reserve, Limit float64
}

// pendingCall is a tool call awaiting an answer.
type pendingCall struct{ ID, Name, Args string }

// Any reports whether any action is offered.
func (a actions) Any() bool {
	return len(a.ToolCalls) > 0 || a.Approval != nil || a.Budget != nil || a.Question != "" || a.Wake || a.Message || a.Interrupt
}

func pending(c *runsvcv1.ToolCall) pendingCall {
	return pendingCall{ID: c.GetCallId(), Name: c.GetName(), Args: jsonText(c.GetArguments())}
}

// actionsFor decides the forms of a Run's page.
func actionsFor(run *runsvcv1.Run, s *session) actions {
	var a actions
	if run.GetSettleTime() != nil {
		return a
	}
	a.Message = s.may("SendMessage")
	a.Interrupt = s.may("InterruptRun")
	sus := run.GetSuspension()
	if run.GetState() != runsvcv1.RunState_RUN_STATE_SUSPENDED || !s.may("ResumeRun") {
		return a
	}
	a.Until = stamp(sus.GetExpireTime())
	if w := sus.GetWakeTime(); w != nil {
		a.Until = stamp(w)
	}
	switch sus.GetReason() {
	case runsvcv1.SuspensionReason_SUSPENSION_REASON_TOOL_RESULTS:
		for _, c := range sus.GetToolCalls() {
			a.ToolCalls = append(a.ToolCalls, pending(c))
		}
	case runsvcv1.SuspensionReason_SUSPENSION_REASON_APPROVAL:
		if b := sus.GetBudget(); b != nil {
			a.Budget = &budgetAsk{Dimension: b.GetDimension(), Spent: b.GetSpent(), Reserve: b.GetReserve(), Limit: b.GetLimit()}
			break
		}
		p := pending(sus.GetApprovalCall())
		a.Approval, a.InDoubt, a.Why = &p, sus.GetInDoubt(), sus.GetApprovalReason()
	case runsvcv1.SuspensionReason_SUSPENSION_REASON_QUESTION:
		a.Question = sus.GetQuestion()
	case runsvcv1.SuspensionReason_SUSPENSION_REASON_TIMER:
		a.Wake = true
	}
	return a
}

// jsonValue reads a form's JSON value; text that is not JSON is a string.
func jsonValue(s string) *structpb.Value {
	v := &structpb.Value{}
	if strings.TrimSpace(s) != "" && protojson.Unmarshal([]byte(s), v) == nil {
		return v
	}
	return structpb.NewStringValue(s)
}

// resumeRequest builds ResumeRun's request from the form: kind says which
// suspension the form answers.
func resumeRequest(id string, form map[string][]string) *runsvcv1.ResumeRunRequest {
	get := func(k string) string {
		if v := form[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	req := &runsvcv1.ResumeRunRequest{RunId: id}
	switch get("kind") {
	case "tool_results":
		for _, callID := range form["call"] {
			res := &runsvcv1.ToolResult{CallId: callID}
			if msg := strings.TrimSpace(get("error:" + callID)); msg != "" {
				res.Error = &runsvcv1.ToolError{Message: msg}
			} else {
				res.Output = jsonValue(get("output:" + callID))
			}
			req.ToolResults = append(req.ToolResults, res)
		}
	case "approval":
		approved := get("decision") == "approve"
		req.Approved, req.Note = &approved, get("note")
	case "budget":
		approved := get("decision") == "approve"
		req.Approved = &approved
		if limit, err := strconv.ParseFloat(strings.TrimSpace(get("budget_limit")), 64); approved && err == nil {
			req.BudgetLimit = &limit
		}
	case "in_doubt":
		n := runsvcv1.InDoubtOutcome_value[get("outcome")]
		req.InDoubt = &runsvcv1.InDoubtAnswer{Outcome: runsvcv1.InDoubtOutcome(n)}
	case "question":
		req.Answer = get("answer")
	case "wake":
		// No answer: ResumeRun wakes a sleeping Run now.
	}
	return req
}

// resume answers a suspension with ResumeRun.
func (c *Console) resume(w http.ResponseWriter, r *http.Request, s *session) {
	ctx, cancel := callCtx(r, s)
	defer cancel()
	if _, err := c.runs.ResumeRun(ctx, resumeRequest(r.PathValue("id"), r.PostForm)); err != nil {
		c.rpcError(w, r, s, err)
		return
	}
	http.Redirect(w, r, "/runs/"+r.PathValue("id"), http.StatusSeeOther)
}

// sendMessage sends a message with SendMessage.
func (c *Console) sendMessage(w http.ResponseWriter, r *http.Request, s *session) {
	ctx, cancel := callCtx(r, s)
	defer cancel()
	mode := runsvcv1.MessageMode_MESSAGE_MODE_STEER
	if r.PostForm.Get("mode") == "follow_up" {
		mode = runsvcv1.MessageMode_MESSAGE_MODE_FOLLOW_UP
	}
	req := &runsvcv1.SendMessageRequest{RunId: r.PathValue("id"), Text: r.PostForm.Get("text"), Mode: mode}
	if _, err := c.runs.SendMessage(ctx, req); err != nil {
		c.rpcError(w, r, s, err)
		return
	}
	http.Redirect(w, r, "/runs/"+r.PathValue("id"), http.StatusSeeOther)
}

// interrupt stops a Run with InterruptRun.
func (c *Console) interrupt(w http.ResponseWriter, r *http.Request, s *session) {
	ctx, cancel := callCtx(r, s)
	defer cancel()
	req := &runsvcv1.InterruptRunRequest{RunId: r.PathValue("id"), Reason: r.PostForm.Get("reason")}
	if _, err := c.runs.InterruptRun(ctx, req); err != nil {
		c.rpcError(w, r, s, err)
		return
	}
	http.Redirect(w, r, "/runs/"+r.PathValue("id"), http.StatusSeeOther)
}
