package service

import (
	"context"
	"time"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/evaluation"
)

type evaluationServer struct {
	runsvcv1.UnimplementedEvaluationServiceServer
	*Service
}

func (s evaluationServer) EvaluateVersion(ctx context.Context, req *runsvcv1.EvaluateVersionRequest) (*runsvcv1.EvaluateVersionResponse, error) {
	r, err := evaluationRequestFromProto(tenantOf(ctx), req)
	if err != nil {
		return nil, err
	}
	ev, err := s.evaluations.Evaluate(ctx, r)
	if err != nil {
		return nil, err
	}
	if ev, err = s.evaluations.Get(ctx, r.Tenant, ev.ID); err != nil {
		return nil, err
	}
	return &runsvcv1.EvaluateVersionResponse{Evaluation: evaluationToProto(ev)}, nil
}

func (s evaluationServer) GetEvaluation(ctx context.Context, req *runsvcv1.GetEvaluationRequest) (*runsvcv1.GetEvaluationResponse, error) {
	ev, err := s.evaluations.Get(ctx, tenantOf(ctx), req.GetEvaluationId())
	if err != nil {
		return nil, err
	}
	return &runsvcv1.GetEvaluationResponse{Evaluation: evaluationToProto(ev)}, nil
}

func (s evaluationServer) ListEvaluations(ctx context.Context, req *runsvcv1.ListEvaluationsRequest) (*runsvcv1.ListEvaluationsResponse, error) {
	list, next, err := s.evaluations.List(ctx, tenantOf(ctx), int(req.GetPageSize()), req.GetPageToken())
	if err != nil {
		return nil, err
	}
	out := &runsvcv1.ListEvaluationsResponse{NextPageToken: next}
	for _, ev := range list {
		out.Evaluations = append(out.Evaluations, evaluationToProto(ev))
	}
	return out, nil
}

func (s evaluationServer) CheckEvaluation(ctx context.Context, req *runsvcv1.CheckEvaluationRequest) (*runsvcv1.CheckEvaluationResponse, error) {
	score, err := s.evaluations.Passes(ctx, tenantOf(ctx), req.GetEvaluationId(), req.GetSpec(), req.GetVersion(), req.GetMinScore())
	if err != nil {
		return nil, err
	}
	return &runsvcv1.CheckEvaluationResponse{Score: score}, nil
}

func (s evaluationServer) DeleteEvaluation(ctx context.Context, req *runsvcv1.DeleteEvaluationRequest) (*runsvcv1.DeleteEvaluationResponse, error) {
	if err := s.evaluations.Delete(ctx, tenantOf(ctx), req.GetEvaluationId()); err != nil {
		return nil, err
	}
	return &runsvcv1.DeleteEvaluationResponse{}, nil
}

// evaluationRequestFromProto converts a request; a Struct JSON cannot
// hold is EVALUATION_INVALID.
func evaluationRequestFromProto(tenant string, req *runsvcv1.EvaluateVersionRequest) (evaluation.Request, error) {
	sel := req.GetRuns()
	r := evaluation.Request{
		Tenant: tenant, Spec: req.GetSpec(), Version: req.GetVersion(),
		Select: evaluation.Selection{
			RunIDs: sel.GetRunIds(), Spec: sel.GetSpec(), ThreadID: sel.GetThreadId(), Limit: int(sel.GetLimit()),
			Start: timeOf(sel.GetStartTime().AsTime(), sel.GetStartTime() != nil), End: timeOf(sel.GetEndTime().AsTime(), sel.GetEndTime() != nil),
		},
	}
	if err := evaluation.CheckEvaluators(len(req.GetEvaluators())); err != nil {
		return r, err
	}
	var bad []errs.FieldViolation
	for _, e := range req.GetEvaluators() {
		r.Evaluators = append(r.Evaluators, evaluatorFromProto(e, &bad))
	}
	if len(bad) > 0 {
		return r, &errs.EvaluationInvalid{Violations: bad}
	}
	return r, nil
}

func timeOf(t time.Time, set bool) time.Time {
	if !set {
		return time.Time{}
	}
	return t
}

func evaluatorFromProto(e *runsvcv1.Evaluator, bad *[]errs.FieldViolation) evaluation.Evaluator {
	out := evaluation.Evaluator{Name: e.GetName()}
	switch k := e.GetKind().(type) {
	case *runsvcv1.Evaluator_Exact:
		out.Kind = evaluation.KindExact
	case *runsvcv1.Evaluator_JsonSchema:
		out.Kind, out.Schema = evaluation.KindJSONSchema, structField("evaluators.json_schema", k.JsonSchema, bad)
	case *runsvcv1.Evaluator_Regex:
		out.Kind, out.Pattern = evaluation.KindRegex, k.Regex
	case *runsvcv1.Evaluator_JsonPath:
		out.Kind, out.Path = evaluation.KindJSONPath, k.JsonPath
	case *runsvcv1.Evaluator_LlmJudge:
		out.Kind, out.JudgeSpec, out.JudgeVersion = evaluation.KindLLMJudge, k.LlmJudge.GetSpec(), k.LlmJudge.GetVersion()
	}
	return out
}

func evaluatorToProto(e evaluation.Evaluator) *runsvcv1.Evaluator {
	out := &runsvcv1.Evaluator{Name: e.Name}
	switch e.Kind {
	case evaluation.KindExact:
		out.Kind = &runsvcv1.Evaluator_Exact{Exact: &runsvcv1.ExactMatch{}}
	case evaluation.KindJSONSchema:
		out.Kind = &runsvcv1.Evaluator_JsonSchema{JsonSchema: toStruct(e.Schema)}
	case evaluation.KindRegex:
		out.Kind = &runsvcv1.Evaluator_Regex{Regex: e.Pattern}
	case evaluation.KindJSONPath:
		out.Kind = &runsvcv1.Evaluator_JsonPath{JsonPath: e.Path}
	case evaluation.KindLLMJudge:
		out.Kind = &runsvcv1.Evaluator_LlmJudge{LlmJudge: &runsvcv1.LlmJudge{Spec: e.JudgeSpec, Version: e.JudgeVersion}}
	}
	return out
}

func evaluationToProto(ev evaluation.Evaluation) *runsvcv1.Evaluation {
	out := &runsvcv1.Evaluation{
		EvaluationId: ev.ID, Spec: ev.Spec, Version: ev.Version, CreateTime: ts(ev.CreateTime), Done: ev.Done,
	}
	for _, e := range ev.Evaluators {
		out.Evaluators = append(out.Evaluators, evaluatorToProto(e))
	}
	if ev.Runs == nil {
		return out
	}
	sum := ev.Summary
	out.Summary = &runsvcv1.EvaluationSummary{
		Runs: int32(sum.Runs), Settled: int32(sum.Settled), Equal: int32(sum.Equal), Diverged: int32(sum.Diverged),
		FencedCalls: int32(sum.FencedCalls), NeedsPerson: int32(sum.NeedsPerson), OutcomeChanged: int32(sum.OutcomeChanged),
		Score: sum.Score, Recorded: usageToProto(sum.Recorded), Replayed: usageToProto(sum.Replayed),
	}
	for _, r := range ev.Runs {
		out.Runs = append(out.Runs, runEvaluationToProto(r))
	}
	return out
}

func runEvaluationToProto(r evaluation.RunReport) *runsvcv1.RunEvaluation {
	out := &runsvcv1.RunEvaluation{
		SourceRunId: r.SourceRunID, ReplayRunId: r.ReplayRunID, Settled: r.Settled, Equal: r.Equal,
		Recorded: outcomeToProto(r.Recorded), Replayed: outcomeToProto(r.Replayed), Score: r.Score,
		Divergences: int32(r.Divergences), FencedCalls: int32(r.FencedCalls), FirstDivergence: int32(r.FirstDivergence),
		NeedsPerson: r.NeedsPerson, RecordedUsage: usageToProto(r.RecordedUsage), ReplayedUsage: usageToProto(r.ReplayedUsage),
	}
	for _, sc := range r.Scores {
		out.Scores = append(out.Scores, &runsvcv1.EvaluatorScore{Evaluator: sc.Evaluator, Score: sc.Score, Detail: sc.Detail, JudgeRunId: sc.JudgeRunID})
	}
	for _, st := range r.Trajectory {
		out.Trajectory = append(out.Trajectory, &runsvcv1.TrajectoryStep{
			Step: int32(st.Step), RecordedStep: int32(st.Recorded), Change: trajectoryChanges[st.Change], Tool: st.Tool, Arguments: st.Arguments,
		})
	}
	return out
}

var trajectoryChanges = map[string]runsvcv1.TrajectoryChange{
	evaluation.StepSame:      runsvcv1.TrajectoryChange_TRAJECTORY_CHANGE_SAME,
	evaluation.StepReordered: runsvcv1.TrajectoryChange_TRAJECTORY_CHANGE_REORDERED,
	evaluation.StepExtra:     runsvcv1.TrajectoryChange_TRAJECTORY_CHANGE_EXTRA,
	evaluation.StepMissing:   runsvcv1.TrajectoryChange_TRAJECTORY_CHANGE_MISSING,
	evaluation.StepFenced:    runsvcv1.TrajectoryChange_TRAJECTORY_CHANGE_FENCED,
}

func outcomeToProto(o evaluation.Outcome) *runsvcv1.EvaluationOutcome {
	return &runsvcv1.EvaluationOutcome{State: o.State, Reason: o.Reason, Answer: o.Answer}
}

func usageToProto(u evaluation.Usage) *runsvcv1.EvaluationUsage {
	return &runsvcv1.EvaluationUsage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens, Cost: u.Cost, Latency: dur(u.Latency)}
}
