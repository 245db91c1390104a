package runs

import (
	"fmt"
	"math"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
)

// budgetResume answers a Run that asks to exceed a budget: approved with
// a new limit above what it spent and reserves, it goes on; denied, it
// fails as it would have without asking (BUDGET_EXCEEDED; TOOL_LOOP_LIMIT
// for tool rounds).
func budgetResume(b *runlog.BudgetAsk, r Resume) ([]runlog.Op, error) {
	var bad []errs.FieldViolation
	if r.Approved == nil {
		bad = append(bad, errs.FieldViolation{Field: "approved", Description: "is required: the Run asks to exceed its " + b.Dimension + " budget"})
	}
	if len(r.Results) > 0 || r.Answer != nil || r.InDoubt != nil {
		bad = append(bad, errs.FieldViolation{Field: "approved", Description: "a budget's approval takes approved and budget_limit only"})
	}
	approved := r.Approved != nil && *r.Approved
	need := b.Spent + b.Reserve
	switch {
	case approved && r.BudgetLimit == nil:
		bad = append(bad, errs.FieldViolation{Field: "budget_limit", Description: fmt.Sprintf("is required to approve: a new %s limit above %s", b.Dimension, amount(need))})
	case approved && (math.IsNaN(*r.BudgetLimit) || math.IsInf(*r.BudgetLimit, 0) || *r.BudgetLimit < need):
		bad = append(bad, errs.FieldViolation{Field: "budget_limit", Description: fmt.Sprintf("%v does not cover what the Run spent and the next step reserves (%s)", *r.BudgetLimit, amount(need))})
	case !approved && r.BudgetLimit != nil:
		bad = append(bad, errs.FieldViolation{Field: "budget_limit", Description: "is only for approving"})
	}
	if len(bad) > 0 {
		return nil, &errs.InvalidRequest{Violations: bad}
	}
	if approved {
		return []runlog.Op{&runlog.Resumed{Reason: runlog.ReasonApproval, Approved: true, BudgetLimit: *r.BudgetLimit}}, nil
	}
	var failure error = &errs.BudgetExceeded{Dimension: b.Dimension, Requested: need, Limit: b.Limit}
	if b.Dimension == "tool_rounds" {
		failure = &errs.ToolLoopLimit{Calls: int(need), Max: int(b.Limit)}
	}
	stored := errs.Store(failure, "")
	return []runlog.Op{
		&runlog.Resumed{Reason: runlog.ReasonApproval, Note: r.Note},
		&runlog.Settled{State: runlog.StatusFailed, Failure: &stored},
	}, nil
}

// amount prints a budget amount the shortest way.
func amount(v float64) string { return fmt.Sprintf("%g", v) }
