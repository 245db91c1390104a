package cli

import (
	"fmt"
	"io"
	"strings"

	"google.golang.org/protobuf/types/known/timestamppb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// suspension is what a suspended Run waits for, from a Run or from a
// Suspended record and the tool calls seen before it.
type suspension struct {
	reason         runsvcv1.SuspensionReason
	expire         *timestamppb.Timestamp
	wake           *timestamppb.Timestamp // TIMER: when runsvc wakes the Run
	calls          []*runsvcv1.ToolCall   // arguments may be missing when unknown
	question       string
	approvalReason string
	delegations    []string
	inDoubt        bool // an APPROVAL asking whether a call in doubt happened
	budget         *runsvcv1.BudgetAsk
}

func suspensionOfRun(s *runsvcv1.Suspension) suspension {
	v := suspension{
		reason: s.GetReason(), expire: s.GetExpireTime(), calls: s.GetToolCalls(), question: s.GetQuestion(),
		approvalReason: s.GetApprovalReason(), delegations: s.GetDelegationIds(), inDoubt: s.GetInDoubt(),
		wake:   s.GetWakeTime(),
		budget: s.GetBudget(),
	}
	if c := s.GetApprovalCall(); c != nil {
		v.calls = []*runsvcv1.ToolCall{c}
	}
	return v
}

// suspensionOfRecord builds the view of a Suspended record; calls looks
// up the tool calls the model issued by id.
func suspensionOfRecord(s *runsvcv1.Record_Suspended, calls map[string]*runsvcv1.ToolCall) suspension {
	v := suspension{
		reason: s.GetReason(), expire: s.GetExpireTime(), question: s.GetQuestion(),
		approvalReason: s.GetApprovalReason(), delegations: s.GetDelegationIds(), inDoubt: s.GetInDoubt(),
		wake:   s.GetWakeTime(),
		budget: s.GetBudget(),
	}
	ids := s.GetCallIds()
	if len(ids) == 0 && s.GetCallId() != "" {
		ids = []string{s.GetCallId()}
	}
	for _, id := range ids {
		if c, ok := calls[id]; ok {
			v.calls = append(v.calls, c)
		} else {
			v.calls = append(v.calls, &runsvcv1.ToolCall{CallId: id})
		}
	}
	return v
}

// complete reports whether every call's name is known.
func (s suspension) complete() bool {
	for _, c := range s.calls {
		if c.GetName() == "" {
			return false
		}
	}
	return true
}

// headline says what the Run waits for.
func (s suspension) headline() string {
	switch s.reason {
	case runsvcv1.SuspensionReason_SUSPENSION_REASON_TOOL_RESULTS:
		return "the results of " + plural(len(s.calls), "client tool call", "client tool calls")
	case runsvcv1.SuspensionReason_SUSPENSION_REASON_APPROVAL:
		if s.inDoubt {
			return "word on whether a tool call in doubt happened"
		}
		if s.budget != nil {
			return "approval of a larger " + s.budget.GetDimension() + " budget"
		}
		return "approval of a tool call"
	case runsvcv1.SuspensionReason_SUSPENSION_REASON_QUESTION:
		return "an answer to a question"
	case runsvcv1.SuspensionReason_SUSPENSION_REASON_CHILDREN:
		return plural(len(s.delegations), "delegated run", "delegated runs") + " to settle"
	case runsvcv1.SuspensionReason_SUSPENSION_REASON_TIMER:
		return "a timer: sleeping until " + when(s.wake)
	}
	return "something unknown (" + s.reason.String() + ")"
}

// details writes the question, the calls with their arguments and the
// delegations, each line starting with pad.
func (s suspension) details(w io.Writer, pad string) {
	if s.question != "" {
		fmt.Fprintf(w, "%squestion: %s\n", pad, indent(s.question, pad+"          "))
	}
	if s.approvalReason != "" {
		fmt.Fprintf(w, "%swhy: %s\n", pad, s.approvalReason)
	}
	if b := s.budget; b != nil {
		fmt.Fprintf(w, "%s%s: spent %g, the next step reserves %g, the limit is %g\n", pad, b.GetDimension(), b.GetSpent(), b.GetReserve(), b.GetLimit())
	}
	for _, c := range s.calls {
		name := c.GetName()
		if name == "" {
			name = "?"
		}
		args := ""
		if c.GetArguments() != nil {
			args = " " + compactJSON(c.GetArguments())
		}
		fmt.Fprintf(w, "%s%s  %s%s\n", pad, c.GetCallId(), name, args)
	}
	for _, d := range s.delegations {
		fmt.Fprintf(w, "%sdelegation %s\n", pad, d)
	}
}

// resumeCommands are the commands that answer the suspension, or none
// when runsvc resumes the Run itself.
func (a *app) resumeCommands(runID string, s suspension) []string {
	base := a.suggestion("run resume " + shellQuote(runID))
	switch s.reason {
	case runsvcv1.SuspensionReason_SUSPENSION_REASON_TOOL_RESULTS:
		parts := make([]string, 0, len(s.calls))
		for _, c := range s.calls {
			parts = append(parts, fmt.Sprintf(`"%s": "..."`, c.GetCallId()))
		}
		return []string{base + " --results " + shellQuote("{"+strings.Join(parts, ", ")+"}")}
	case runsvcv1.SuspensionReason_SUSPENSION_REASON_QUESTION:
		return []string{base + " --answer '...'"}
	case runsvcv1.SuspensionReason_SUSPENSION_REASON_TIMER:
		return []string{base + " --wake"}
	case runsvcv1.SuspensionReason_SUSPENSION_REASON_APPROVAL:
		if s.inDoubt {
			return []string{base + " --in-doubt happened [--output '<JSON result>']", base + " --in-doubt did_not_happen", base + " --in-doubt skip"}
		}
		if b := s.budget; b != nil {
			return []string{base + fmt.Sprintf(" --approve --budget-limit %g", 2*max(b.GetLimit(), b.GetSpent()+b.GetReserve())), base + " --deny"}
		}
		return []string{base + " --approve", base + " --deny --note '...'"}
	}
	return nil
}

// printSuspension writes the whole block, each line starting with pad:
// what the Run waits for, until when, the details and, when current, how
// to answer.
func (a *app) printSuspension(w io.Writer, pad, runID string, s suspension, current bool) {
	if s.reason == runsvcv1.SuspensionReason_SUSPENSION_REASON_TIMER {
		fmt.Fprintf(w, "%ssleeping until %s\n", pad, when(s.wake))
	} else {
		fmt.Fprintf(w, "%ssuspended: waiting for %s, until %s\n", pad, s.headline(), when(s.expire))
	}
	s.details(w, pad+"  ")
	if !current {
		return
	}
	cmds := a.resumeCommands(runID, s)
	switch {
	case s.reason == runsvcv1.SuspensionReason_SUSPENSION_REASON_TIMER:
		fmt.Fprintf(w, "%s  runsvc wakes the run then; to wake it now:\n", pad)
	case len(cmds) == 0:
		fmt.Fprintf(w, "%s  runsvc resumes the run when they settle\n", pad)
	case s.reason == runsvcv1.SuspensionReason_SUSPENSION_REASON_TOOL_RESULTS:
		fmt.Fprintf(w, "%s  answer with (replace each \"...\" by that call's output, any JSON value):\n", pad)
	default:
		fmt.Fprintf(w, "%s  answer with:\n", pad)
	}
	for _, c := range cmds {
		fmt.Fprintf(w, "%s    %s\n", pad, c)
	}
}
