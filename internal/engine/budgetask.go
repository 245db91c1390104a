package engine

import (
	"context"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/spec"
)

// DimensionToolRounds is the budget of max_tool_rounds as a BudgetAsk
// names it.
const DimensionToolRounds = "tool_rounds"

// limits are the Spec's effective limits with the ones approved since
// (limits.on_exhausted ASK) in their place.
func (a *attempt) limits() spec.Limits {
	l := a.spec.Limits.Effective()
	for dim, v := range a.state.BudgetRaised {
		switch dim {
		case errs.DimensionTokens:
			l.TokenBudget = int64(v)
		case errs.DimensionCost:
			l.CostBudget = v
		case DimensionToolRounds:
			l.MaxToolRounds = int(v)
		}
	}
	return l
}

// exhausted fails the Run with err, the budget it would exceed, or, when
// the Spec says ASK, suspends it for APPROVAL of a new limit: spent and
// reserve are what the Run used and what the next step needs.
func (a *attempt) exhausted(ctx context.Context, err error, dimension string, spent, reserve, limit float64) error {
	if a.spec.Limits.OnExhausted != spec.BudgetAsk {
		return a.settle(ctx, runlog.StatusFailed, "", "", err)
	}
	a.log.Info("budget exhausted; asking for approval", "dimension", dimension, "spent", spent, "reserve", reserve, "limit", limit)
	return a.suspend(ctx, &runlog.Suspended{
		Reason: runlog.ReasonApproval, ApprovalReason: "the Run would exceed its " + dimension + " budget: " + err.Error(),
		Budget: &runlog.BudgetAsk{Dimension: dimension, Spent: spent, Reserve: reserve, Limit: limit},
	})
}
