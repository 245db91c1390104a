package evaluation

import (
	"context"
	"errors"
	"fmt"
	"regexp"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/schema"
	"github.com/runsvc/runsvc/internal/store"
)

// validate checks what a request says, before anything is read.
func (req Request) validate() error {
	var bad []errs.FieldViolation
	add := func(field, format string, args ...any) {
		bad = append(bad, errs.FieldViolation{Field: field, Description: fmt.Sprintf(format, args...)})
	}
	if req.Spec == "" {
		add("spec", "is required: the candidate's Spec")
	}
	if req.Version == "" {
		add("version", "is required: the candidate Version's id")
	}
	sel := req.Select
	if len(sel.RunIDs) > MaxRuns {
		add("runs.run_ids", "lists %d Runs; at most %d are allowed", len(sel.RunIDs), MaxRuns)
	}
	if sel.Limit < 0 || sel.Limit > MaxRuns {
		add("runs.limit", "must be between 0 and %d", MaxRuns)
	}
	if !sel.Start.IsZero() && !sel.End.IsZero() && !sel.Start.Before(sel.End) {
		add("runs.end_time", "must be after runs.start_time")
	}
	if v := evaluatorCount(len(req.Evaluators)); v != nil {
		bad = append(bad, *v)
	} else {
		for i, e := range req.Evaluators {
			if msg := e.problem(); msg != "" {
				add(fmt.Sprintf("evaluators[%d]", i), "%s", msg)
			}
		}
	}
	if len(bad) > 0 {
		return &errs.EvaluationInvalid{Violations: bad}
	}
	return nil
}

// CheckEvaluators refuses a request listing n evaluators when that is
// more than MaxEvaluators, before any is read.
func CheckEvaluators(n int) error {
	if v := evaluatorCount(n); v != nil {
		return &errs.EvaluationInvalid{Violations: []errs.FieldViolation{*v}}
	}
	return nil
}

func evaluatorCount(n int) *errs.FieldViolation {
	if n <= MaxEvaluators {
		return nil
	}
	return &errs.FieldViolation{Field: "evaluators", Description: fmt.Sprintf("lists %d evaluators; at most %d are allowed", n, MaxEvaluators)}
}

// problem is what is wrong with an evaluator, "" when nothing is.
func (e Evaluator) problem() string {
	switch e.Kind {
	case KindExact:
	case KindJSONSchema:
		if _, problems := schema.Compile(e.Schema); len(problems) > 0 {
			return "json_schema: " + problems[0].Message
		}
	case KindRegex:
		if _, err := regexp.Compile(e.Pattern); err != nil {
			return "regex: " + err.Error()
		}
	case KindJSONPath:
		if _, err := parsePath(e.Path); err != nil {
			return "json_path: " + err.Error()
		}
	case KindLLMJudge:
		if e.JudgeSpec == "" {
			return "llm_judge.spec is required: the judge's Spec"
		}
	default:
		return "names no kind: exact, json_schema, regex, json_path or llm_judge"
	}
	return ""
}

// selectRuns returns the recorded Runs a request picks: settled
// (COMPLETED or FAILED) production Runs, never replays.
func (s *Service) selectRuns(ctx context.Context, req Request) ([]runs.Run, error) {
	var picked []runs.Run
	var err error
	if len(req.Select.RunIDs) > 0 {
		picked, err = s.listed(ctx, req.Tenant, req.Select.RunIDs)
	} else {
		picked, err = s.listedBy(ctx, req)
	}
	if err != nil {
		return nil, err
	}
	if len(picked) == 0 {
		return nil, &errs.EvaluationInvalid{Violations: []errs.FieldViolation{{Field: "runs", Description: "selects no settled (COMPLETED or FAILED) Run"}}}
	}
	return picked, nil
}

// listed returns the Runs named, each of which must be a settled
// production Run.
func (s *Service) listed(ctx context.Context, tenant string, ids []string) ([]runs.Run, error) {
	var out []runs.Run
	for i, id := range ids {
		r, err := s.d.Runs.Get(ctx, tenant, id)
		var missing *errs.RunNotFound
		switch {
		case errors.As(err, &missing):
			return nil, badRun(i, "names Run %s, which does not exist", id)
		case err != nil:
			return nil, err
		case !recordable(r):
			return nil, badRun(i, "names Run %s, which is %s, not a settled (COMPLETED or FAILED) recorded Run", id, r.Status)
		}
		out = append(out, r)
	}
	return out, nil
}

func badRun(i int, format string, args ...any) error {
	return &errs.EvaluationInvalid{Violations: []errs.FieldViolation{{Field: fmt.Sprintf("runs.run_ids[%d]", i), Description: fmt.Sprintf(format, args...)}}}
}

// recordable reports whether r may be replayed: a production Run that
// completed or failed.
func recordable(r runs.Run) bool {
	return r.EvaluationID == "" && (r.Status == runlog.StatusCompleted || r.Status == runlog.StatusFailed)
}

// listedBy pages through the Spec's settled Runs, newest first.
func (s *Service) listedBy(ctx context.Context, req Request) ([]runs.Run, error) {
	sel := req.Select
	limit := sel.Limit
	if limit == 0 {
		limit = MaxRuns
	}
	q := store.RunQuery{Spec: sel.Spec, ThreadID: sel.ThreadID, States: []string{string(runlog.StatusCompleted), string(runlog.StatusFailed)}, PageSize: 100}
	if q.Spec == "" {
		q.Spec = req.Spec
	}
	var out []runs.Run
	for len(out) < limit {
		page, next, err := s.d.Runs.List(ctx, req.Tenant, q)
		if err != nil {
			return nil, err
		}
		for _, r := range page {
			inRange := (sel.Start.IsZero() || !r.CreateTime.Before(sel.Start)) && (sel.End.IsZero() || r.CreateTime.Before(sel.End))
			if inRange && recordable(r) && len(out) < limit {
				out = append(out, r)
			}
		}
		if next == "" {
			break
		}
		q.PageToken = next
	}
	return out, nil
}
