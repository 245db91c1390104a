package console

import (
	"testing"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/auth"
)

// TestBudgetForm: a budget's APPROVAL offers the budget form, not a tool
// call's, and the form's answer carries the new limit.
func TestBudgetForm(t *testing.T) {
	run := &runsvcv1.Run{State: runsvcv1.RunState_RUN_STATE_SUSPENDED, Suspension: &runsvcv1.Suspension{
		Reason: runsvcv1.SuspensionReason_SUSPENSION_REASON_APPROVAL,
		Budget: &runsvcv1.BudgetAsk{Dimension: "tokens", Spent: 15, Reserve: 12, Limit: 25},
	}}
	a := actionsFor(run, &session{signedIn: true, identity: auth.Identity{Roles: []string{auth.RoleAdmin}}})
	if a.Budget == nil || a.Approval != nil || a.Budget.Limit != 25 {
		t.Fatalf("actions %+v", a)
	}
	req := resumeRequest("r1", map[string][]string{"kind": {"budget"}, "decision": {"approve"}, "budget_limit": {"1000"}})
	if !req.GetApproved() || req.GetBudgetLimit() != 1000 {
		t.Errorf("approve: %v", req)
	}
	req = resumeRequest("r1", map[string][]string{"kind": {"budget"}, "decision": {"deny"}, "budget_limit": {"1000"}})
	if req.GetApproved() || req.BudgetLimit != nil {
		t.Errorf("deny: %v", req)
	}
}
