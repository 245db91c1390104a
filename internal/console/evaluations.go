package console

import (
	"fmt"
	"net/http"
	"strings"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// evaluationsView is the tenant's evaluations.
type evaluationsView struct {
	Evaluations []*runsvcv1.Evaluation
}

// evaluationsPage lists the evaluations, newest first.
func (c *Console) evaluationsPage(w http.ResponseWriter, r *http.Request, s *session) {
	ctx, cancel := callCtx(r, s)
	defer cancel()
	resp, err := c.evals.ListEvaluations(ctx, &runsvcv1.ListEvaluationsRequest{PageSize: listPageSize})
	if err != nil {
		c.rpcError(w, r, s, err)
		return
	}
	c.render(w, r, s, http.StatusOK, "evaluations.html", "Evaluations", evaluationsView{Evaluations: resp.GetEvaluations()})
}

// evaluationView is an evaluation's table and, per Run, the recorded and
// the replayed tool calls side by side.
type evaluationView struct {
	Eval *runsvcv1.Evaluation
	Runs []replayPair
}

// replayPair is one recorded Run beside its replay.
type replayPair struct {
	N      int
	Report *runsvcv1.RunEvaluation
	Rows   []pairRow
}

// pairRow is one step of the two timelines: the recorded call and the
// replayed one it is compared with (either may be empty), how they
// compare, and whether it is the first divergence.
type pairRow struct {
	Recorded, Replayed string
	Change             string
	Diverges, First    bool
}

// evaluationPage shows an evaluation.
func (c *Console) evaluationPage(w http.ResponseWriter, r *http.Request, s *session) {
	ctx, cancel := callCtx(r, s)
	defer cancel()
	id := r.PathValue("id")
	resp, err := c.evals.GetEvaluation(ctx, &runsvcv1.GetEvaluationRequest{EvaluationId: id})
	if err != nil {
		c.rpcError(w, r, s, err)
		return
	}
	v := evaluationView{Eval: resp.GetEvaluation()}
	for i, rep := range v.Eval.GetRuns() {
		v.Runs = append(v.Runs, replayPair{N: i + 1, Report: rep, Rows: pairRows(rep)})
	}
	c.render(w, r, s, http.StatusOK, "evaluation.html", "Evaluation "+id, v)
}

// pairRows lines the recorded calls up with the replayed ones, in the
// replay's order, the recorded calls it never made last; the first row
// that is not the same call is the first divergence.
func pairRows(rep *runsvcv1.RunEvaluation) []pairRow {
	var rows []pairRow
	first := true
	for _, st := range rep.GetTrajectory() {
		call := st.GetTool() + st.GetArguments()
		row := pairRow{Change: strings.ToLower(strings.TrimPrefix(st.GetChange().String(), "TRAJECTORY_CHANGE_"))}
		if st.GetRecordedStep() > 0 {
			row.Recorded = fmt.Sprintf("%d. %s", st.GetRecordedStep(), call)
		}
		if st.GetStep() > 0 {
			row.Replayed = fmt.Sprintf("%d. %s", st.GetStep(), call)
		}
		row.Diverges = st.GetChange() != runsvcv1.TrajectoryChange_TRAJECTORY_CHANGE_SAME
		row.First, first = row.Diverges && first, first && !row.Diverges
		rows = append(rows, row)
	}
	return rows
}
