package evaluation

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/runs"
)

// judging is the detail of a judge's score while its Run has not settled.
const judging = "the judge has not answered yet"

// JudgeInput is what an LLM judge's Run is given, as JSON.
type JudgeInput struct {
	Question        string `json:"question"`
	RecordedAnswer  string `json:"recorded_answer"`
	CandidateAnswer string `json:"candidate_answer"`
}

// judge scores the i-th item's candidate answer by the k-th evaluator, an
// LLM judge: a Run of the judge's Spec in the evaluation's namespace,
// started once (its request id is its place in the evaluation), whose
// answer is a JSON object with a number score from 0 to 1.
func (s *Service) judge(ctx context.Context, tenant string, ev Evaluation, i, k int, e Evaluator, it Item, candidate string) (Score, error) {
	in, err := json.Marshal(JudgeInput{Question: it.Input, RecordedAnswer: it.Recorded.Answer, CandidateAnswer: candidate})
	if err != nil {
		return Score{}, err
	}
	run, _, err := s.d.Runs.Start(ctx, runs.StartRequest{
		Tenant: tenant, Spec: e.JudgeSpec, Version: e.JudgeVersion, Input: string(in),
		RequestID: fmt.Sprintf("evaluation/%s/judge/%d/%d", ev.ID, i, k), EvaluationID: ev.ID,
	})
	if err != nil {
		return Score{}, err
	}
	sc := Score{JudgeRunID: run.RunID}
	switch {
	case !run.Settled():
		sc.Detail = judging
	case run.Status != runlog.StatusCompleted:
		sc.Detail = "the judge's Run " + string(run.Status)
	default:
		sc.Score, sc.Detail = verdict(run.Answer)
	}
	return sc, nil
}

// verdict reads a judge's answer: a JSON object (alone, or the first one
// in its text) with a number score from 0 to 1 and a string reason.
func verdict(answer string) (float64, string) {
	var v struct {
		Score  *float64 `json:"score"`
		Reason string   `json:"reason"`
	}
	text := answer
	if json.Unmarshal([]byte(text), &v) != nil {
		start, end := strings.Index(answer, "{"), strings.LastIndex(answer, "}")
		if start < 0 || end < start || json.Unmarshal([]byte(answer[start:end+1]), &v) != nil {
			return 0, "the judge's answer holds no JSON object"
		}
	}
	switch {
	case v.Score == nil:
		return 0, "the judge's answer has no score"
	case *v.Score < 0 || *v.Score > 1:
		return 0, fmt.Sprintf("the judge's score %g is not between 0 and 1", *v.Score)
	}
	return *v.Score, v.Reason
}
