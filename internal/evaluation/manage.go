package evaluation

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
)

// List lists up to limit of the tenant's evaluations, newest first,
// without their reports; after is the previous page's last evaluation
// (its token), "" for the first page. The token of the next page is ""
// after the last.
func (s *Service) List(ctx context.Context, tenant string, limit int, after string) ([]Evaluation, string, error) {
	if limit <= 0 || limit > 100 {
		limit = 100
	}
	var before time.Time
	var beforeID string
	if after != "" {
		row, found, err := s.d.Store.GetEvaluation(ctx, tenant, after)
		if err != nil {
			return nil, "", err
		}
		if !found {
			return nil, "", &errs.EvaluationInvalid{Violations: []errs.FieldViolation{{Field: "page_token", Description: "is not a page token of ListEvaluations"}}}
		}
		before, beforeID = row.CreateTime, row.EvaluationID
	}
	rows, err := s.d.Store.ListEvaluations(ctx, tenant, before, beforeID, limit+1)
	if err != nil {
		return nil, "", err
	}
	var out []Evaluation
	for _, row := range rows[:min(len(rows), limit)] {
		ev, err := fromRow(row)
		if err != nil {
			return nil, "", err
		}
		out = append(out, ev)
	}
	next := ""
	if len(rows) > limit {
		next = out[len(out)-1].ID
	}
	return out, next, nil
}

// maxDeletePages bounds the pages of Runs one Delete deletes: an
// evaluation has at most MaxRuns replays and as many judges per judge
// evaluator.
const maxDeletePages = 1000

// Delete deletes an evaluation with every Run of its namespace (replays
// and judges; an active one is interrupted first), or
// *errs.EvaluationNotFound.
func (s *Service) Delete(ctx context.Context, tenant, id string) error {
	if _, err := s.load(ctx, tenant, id); err != nil {
		return err
	}
	if err := s.deleteRuns(ctx, tenant, id); err != nil {
		return err
	}
	_, err := s.d.Store.DeleteEvaluation(ctx, tenant, id)
	return err
}

// deleteRuns deletes every Run of evaluation id's namespace, interrupting
// an active one first.
func (s *Service) deleteRuns(ctx context.Context, tenant, id string) error {
	for pages := 0; pages < maxDeletePages; pages++ {
		page, _, err := s.d.Runs.List(ctx, tenant, store.RunQuery{EvaluationID: id, PageSize: 100})
		if err != nil {
			return err
		}
		if len(page) == 0 {
			break
		}
		for _, r := range page {
			var gone *errs.RunNotFound
			if err := s.d.Runs.Delete(ctx, tenant, r.RunID, true); err != nil && !errors.As(err, &gone) {
				return err
			}
		}
	}
	return nil
}

// Check is the alias-move gate: nil when evaluation evaluationID of tenant
// evaluated Version version of spec, every replay settled, and its score
// is at least minScore; else *errs.EvaluationGateFailed naming the
// recorded Runs whose replays scored below minScore, or
// *errs.EvaluationNotFound.
func (s *Service) Check(ctx context.Context, tenant, evaluationID, spec, version string, minScore float64) error {
	_, err := s.Passes(ctx, tenant, evaluationID, spec, version, minScore)
	return err
}

// Passes is Check that also returns the evaluation's score when it
// passes. A minScore outside 0..1 is *errs.EvaluationInvalid.
func (s *Service) Passes(ctx context.Context, tenant, evaluationID, spec, version string, minScore float64) (float64, error) {
	if !(minScore >= 0 && minScore <= 1) {
		return 0, &errs.EvaluationInvalid{Violations: []errs.FieldViolation{{Field: "min_score", Description: "must be between 0 and 1"}}}
	}
	ev, err := s.Get(ctx, tenant, evaluationID)
	if err != nil {
		return 0, err
	}
	return ev.Summary.Score, gate(ev, spec, version, minScore)
}

// gate is Check's decision on an evaluation's report.
func gate(ev Evaluation, spec, version string, minScore float64) error {
	refuse := &errs.EvaluationGateFailed{EvaluationID: ev.ID, Spec: spec, Version: version, Score: ev.Summary.Score, MinScore: minScore}
	switch {
	case ev.Spec != spec || ev.Version != version:
		refuse.Why = fmt.Sprintf("it evaluated %s version %s", ev.Spec, ev.Version)
		return refuse
	case !ev.Done:
		refuse.Why = fmt.Sprintf("%d of its %d replays (or their judges) have not settled", ev.Summary.Runs-settledAndJudged(ev.Runs), ev.Summary.Runs)
		return refuse
	case ev.Summary.Score >= minScore:
		return nil
	}
	refuse.Why = fmt.Sprintf("its score %.3f is below %.3f", ev.Summary.Score, minScore)
	var failing []RunReport
	for _, r := range ev.Runs {
		if r.Score < minScore {
			failing = append(failing, r)
		}
	}
	sort.SliceStable(failing, func(i, j int) bool { return failing[i].Score < failing[j].Score })
	for _, r := range failing[:min(len(failing), errs.MaxGateRunIDs)] {
		refuse.FailingRunIDs = append(refuse.FailingRunIDs, r.SourceRunID)
	}
	refuse.More = len(failing) - len(refuse.FailingRunIDs)
	return refuse
}

func settledAndJudged(reps []RunReport) int {
	n := 0
	for _, r := range reps {
		if r.Settled && !r.judging {
			n++
		}
	}
	return n
}

// Gate is what the alias move depends on: Service implements it.
type Gate interface {
	// Check returns nil when evaluation evaluationID of tenant evaluated
	// the Version (spec name, version id) and its score is at least
	// minScore; otherwise a typed error.
	Check(ctx context.Context, tenant, evaluationID, spec, version string, minScore float64) error
}

var _ Gate = (*Service)(nil)
