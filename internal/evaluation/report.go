package evaluation

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/store"
)

// Summary sums an evaluation's per-Run reports.
type Summary struct {
	Runs, Settled, Equal, Diverged, FencedCalls, NeedsPerson, OutcomeChanged int
	// Score is the mean of the per-Run scores.
	Score              float64
	Recorded, Replayed Usage
}

// StateDeleted is the replayed outcome's state of a replay that was
// deleted before its evaluation.
const StateDeleted = "DELETED"

// The ways a replayed tool call compares with the recording.
const (
	StepSame      = "SAME"
	StepReordered = "REORDERED"
	StepExtra     = "EXTRA"
	StepMissing   = "MISSING"
	StepFenced    = "FENCED"
)

// Step is one tool call of a replay, or a recorded call it did not make
// (StepMissing).
type Step struct {
	// Step is the replay's step, from 1 (0 for StepMissing); Recorded the
	// recording's step it matched, from 1 (0 for StepExtra and
	// StepFenced).
	Step, Recorded int
	Change         string
	Tool           string
	Arguments      string
}

// Score is one evaluator's score of a replay.
type Score struct {
	Evaluator  string
	Score      float64
	Detail     string
	JudgeRunID string
}

// RunReport is one recorded Run against its replay.
type RunReport struct {
	SourceRunID, ReplayRunID string
	Settled, Equal           bool
	NeedsPerson              bool
	Recorded, Replayed       Outcome
	Scores                   []Score
	// Score is the mean of Scores (0 until the replay settled, and when it
	// needs a person).
	Score                        float64
	Trajectory                   []Step
	Divergences, FencedCalls     int
	FirstDivergence              int
	RecordedUsage, ReplayedUsage Usage
	// judging is set while an LLM judge has not answered.
	judging bool
}

// Get returns an evaluation with its report as the replays stand now, or
// *errs.EvaluationNotFound. It starts the LLM judges of replays that
// settled since (each once: the judge's request id is its place).
func (s *Service) Get(ctx context.Context, tenant, id string) (Evaluation, error) {
	ev, err := s.load(ctx, tenant, id)
	if err != nil {
		return Evaluation{}, err
	}
	ev.Done = true
	for i, it := range ev.Items {
		rep, err := s.report(ctx, tenant, ev, i, it)
		if err != nil {
			return Evaluation{}, err
		}
		ev.Runs = append(ev.Runs, rep)
		ev.Done = ev.Done && rep.Settled && !rep.judging
	}
	ev.Summary = summarize(ev.Runs)
	return ev, nil
}

// load reads an evaluation without its report.
func (s *Service) load(ctx context.Context, tenant, id string) (Evaluation, error) {
	row, found, err := s.d.Store.GetEvaluation(ctx, tenant, id)
	if err != nil {
		return Evaluation{}, err
	}
	if !found || id == "" {
		return Evaluation{}, &errs.EvaluationNotFound{EvaluationID: id}
	}
	return fromRow(row)
}

func fromRow(row store.Evaluation) (Evaluation, error) {
	var b body
	if err := json.Unmarshal(row.Body, &b); err != nil {
		return Evaluation{}, err
	}
	return Evaluation{ID: row.EvaluationID, Spec: row.Spec, Version: row.Version, Evaluators: b.Evaluators, CreateTime: row.CreateTime, Items: b.Items}, nil
}

// report compares the i-th item's replay with its recording.
func (s *Service) report(ctx context.Context, tenant string, ev Evaluation, i int, it Item) (RunReport, error) {
	rep := RunReport{SourceRunID: it.SourceRunID, ReplayRunID: it.ReplayRunID, Recorded: it.Recorded, RecordedUsage: it.Usage}
	run, err := s.d.Runs.Get(ctx, tenant, it.ReplayRunID)
	var gone *errs.RunNotFound
	if errors.As(err, &gone) {
		// Deleted under the evaluation (the retention sweep keeps a
		// replay no longer than a production Run, or DeleteRun): the
		// report says so, and it scores 0.
		rep.Replayed, rep.Settled = Outcome{State: StateDeleted}, true
		return rep, nil
	}
	if err != nil {
		return rep, err
	}
	rep.Replayed, rep.ReplayedUsage = outcomeOf(run), usageOf(run)
	rep.Settled = run.Settled()
	recs, err := s.records(ctx, tenant, it.ReplayRunID)
	if err != nil {
		return rep, err
	}
	st := runlog.New(it.ReplayRunID)
	if err := st.ApplyAll(recs); err != nil {
		return rep, err
	}
	rep.Trajectory = trajectory(st, recs)
	for _, step := range rep.Trajectory {
		if step.Change == StepSame {
			continue
		}
		rep.Divergences++
		if step.Change == StepFenced {
			rep.FencedCalls++
		}
	}
	rep.FirstDivergence = firstDivergence(rep.Trajectory)
	rep.NeedsPerson = run.Failure != nil && strings.Contains(run.Failure.Message, runlog.ReplayNeedsPerson)
	rep.Equal = rep.Settled && rep.Divergences == 0 && rep.Replayed.State == rep.Recorded.State &&
		rep.Replayed.Reason == rep.Recorded.Reason && rep.Replayed.Answer == rep.Recorded.Answer
	if !rep.Settled || rep.NeedsPerson {
		return rep, nil
	}
	err = s.score(ctx, tenant, ev, i, it, run, &rep)
	return rep, err
}

// trajectory compares the replay's tool calls with the recorded ones its
// Admitted record carries (runlog.MatchRecorded).
func trajectory(st *runlog.State, recs []runlog.Record) []Step {
	recorded := st.Admission.Replay.Calls
	made := runlog.CallsMade(st.Transcript)
	pairs := runlog.MatchRecorded(recorded, made)
	fenced := fencedCalls(recs)
	taken := make([]bool, len(recorded))
	var out []Step
	for i, c := range made {
		step := Step{Step: i + 1, Tool: c.Name, Arguments: string(runlog.CanonicalJSON(c.Arguments))}
		switch j := pairs[i]; {
		case j == i:
			step.Change, step.Recorded, taken[j] = StepSame, j+1, true
		case j >= 0:
			step.Change, step.Recorded, taken[j] = StepReordered, j+1, true
		case fenced[c.ID]:
			step.Change = StepFenced
		default:
			step.Change = StepExtra
		}
		out = append(out, step)
	}
	for j, r := range recorded {
		if !taken[j] {
			out = append(out, Step{Recorded: j + 1, Change: StepMissing, Tool: r.Name, Arguments: string(runlog.CanonicalJSON(r.Arguments))})
		}
	}
	return out
}

// firstDivergence is the first replayed step (from 1) of a trajectory
// that differs from the recording, 0 for none. A recorded call the
// replay never made differs at the step after the replay's last: every
// step the replay made matched in place.
func firstDivergence(steps []Step) int {
	made := 0
	for _, s := range steps {
		if s.Change == StepMissing {
			return made + 1
		}
		if s.Change != StepSame {
			return s.Step
		}
		made++
	}
	return 0
}

// fencedCalls are the ids of the calls a replay fenced.
func fencedCalls(recs []runlog.Record) map[string]bool {
	out := map[string]bool{}
	for _, r := range recs {
		if f, ok := r.Op.(*runlog.ToolCallFinished); ok && f.Error != nil && strings.Contains(f.Error.Message, runlog.ReplayFenced) {
			out[f.CallID] = true
		}
	}
	return out
}

// summarize sums the per-Run reports.
func summarize(reps []RunReport) Summary {
	var sum Summary
	for _, r := range reps {
		sum.Runs++
		sum.Score += r.Score
		sum.FencedCalls += r.FencedCalls
		sum.Recorded.add(r.RecordedUsage)
		sum.Replayed.add(r.ReplayedUsage)
		count := func(n *int, b bool) {
			if b {
				*n++
			}
		}
		count(&sum.Settled, r.Settled)
		count(&sum.Equal, r.Equal)
		count(&sum.Diverged, r.Divergences > 0)
		count(&sum.NeedsPerson, r.NeedsPerson)
		count(&sum.OutcomeChanged, r.Settled && r.Replayed.State != r.Recorded.State)
	}
	if sum.Runs > 0 {
		sum.Score /= float64(sum.Runs)
	}
	return sum
}

// answers are the recorded answer and the candidate's, which the
// evaluators compare.
func answers(it Item, run runs.Run) (recorded, candidate string) {
	return it.Recorded.Answer, run.Answer
}
