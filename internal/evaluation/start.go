package evaluation

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/runsvc/runsvc/internal/ids"
	"github.com/runsvc/runsvc/internal/logwriter"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/store"
)

// body is what the store keeps of an evaluation besides its identity.
type body struct {
	Evaluators []Evaluator `json:"evaluators,omitempty"`
	Items      []Item      `json:"items"`
}

// Evaluate starts an evaluation: it picks the recorded Runs, starts one
// replay Run of the candidate per Run, and stores the evaluation.
// *errs.EvaluationInvalid for a bad request or a selection with no
// settled Run; *errs.SpecNotFound for an unknown candidate.
func (s *Service) Evaluate(ctx context.Context, req Request) (Evaluation, error) {
	if err := req.validate(); err != nil {
		return Evaluation{}, err
	}
	sources, err := s.selectRuns(ctx, req)
	if err != nil {
		return Evaluation{}, err
	}
	now := s.d.Clock.Now().UTC()
	ev := Evaluation{ID: ids.New("evl", now), Spec: req.Spec, Version: req.Version, Evaluators: req.Evaluators, CreateTime: now}
	if err := s.startReplays(ctx, req, &ev, sources); err != nil {
		// Without its evaluation nothing would find the replays started
		// so far, and DeleteEvaluation could not take them: they go now.
		// Should that fail too, the caller hears the first failure, and
		// the retention sweep deletes them in the end.
		_ = s.deleteRuns(context.WithoutCancel(ctx), req.Tenant, ev.ID)
		return Evaluation{}, err
	}
	return ev, nil
}

// startReplays starts a replay of each source into ev and stores ev.
func (s *Service) startReplays(ctx context.Context, req Request, ev *Evaluation, sources []runs.Run) error {
	for i, src := range sources {
		item, err := s.startReplay(ctx, req, ev.ID, i, src)
		if err != nil {
			return err
		}
		ev.Items = append(ev.Items, item)
	}
	return s.put(ctx, req.Tenant, *ev)
}

func (s *Service) put(ctx context.Context, tenant string, ev Evaluation) error {
	b, err := json.Marshal(body{Evaluators: ev.Evaluators, Items: ev.Items})
	if err != nil {
		return err
	}
	return s.d.Store.PutEvaluation(ctx, store.Evaluation{
		Tenant: tenant, EvaluationID: ev.ID, Spec: ev.Spec, Version: ev.Version, Body: b, CreateTime: ev.CreateTime,
	})
}

// startReplay starts the replay of src, the i-th recorded Run.
func (s *Service) startReplay(ctx context.Context, req Request, evalID string, i int, src runs.Run) (Item, error) {
	recs, err := s.records(ctx, req.Tenant, src.RunID)
	if err != nil {
		return Item{}, err
	}
	history, err := s.history(ctx, req.Tenant, src.ContinuesRunID)
	if err != nil {
		return Item{}, err
	}
	rp := &runlog.Replay{EvaluationID: evalID, SourceRunID: src.RunID, Calls: runlog.Recorded(recs), History: history}
	run, _, err := s.d.Runs.Start(ctx, runs.StartRequest{
		Tenant: req.Tenant, Spec: req.Spec, Version: req.Version, Input: src.Input,
		RequestID: fmt.Sprintf("evaluation/%s/%d", evalID, i), EvaluationID: evalID, Replay: rp,
		Priority: src.Priority, FairnessKey: src.FairnessKey,
	})
	if err != nil {
		return Item{}, err
	}
	return Item{SourceRunID: src.RunID, ReplayRunID: run.RunID, Input: src.Input, Recorded: outcomeOf(src), Usage: usageOf(src)}, nil
}

// records reads and decodes a Run's whole log.
func (s *Service) records(ctx context.Context, tenant, runID string) ([]runlog.Record, error) {
	stored, err := s.d.Logs.ReadLog(ctx, tenant, runID, 1, 0)
	if err != nil {
		return nil, err
	}
	return logwriter.FromStore(runID, stored)
}

// maxHistoryRuns bounds how many Runs of a thread a replay's history
// reaches back through.
const maxHistoryRuns = 100

// history is the conversation of the thread's Runs up to and including
// prev (the Run a recorded thread Run continued), oldest first: what the
// recorded Run was given before its own input.
func (s *Service) history(ctx context.Context, tenant, prev string) ([]runlog.Message, error) {
	var parts [][]runlog.Message
	for n := 0; prev != "" && n < maxHistoryRuns; n++ {
		recs, err := s.records(ctx, tenant, prev)
		if err != nil {
			return nil, err
		}
		st := runlog.New(prev)
		if err := st.ApplyAll(recs); err != nil {
			return nil, err
		}
		parts = append(parts, st.Transcript)
		run, err := s.d.Runs.Get(ctx, tenant, prev)
		if err != nil {
			return nil, err
		}
		prev = run.ContinuesRunID
	}
	var out []runlog.Message
	for i := len(parts) - 1; i >= 0; i-- {
		out = append(out, parts[i]...)
	}
	return out, nil
}

func outcomeOf(r runs.Run) Outcome {
	o := Outcome{State: string(r.Status), Answer: r.Answer}
	if r.Failure != nil {
		o.Reason = r.Failure.Reason
	}
	return o
}

func usageOf(r runs.Run) Usage {
	u := Usage{InputTokens: r.Usage.InputTokens, OutputTokens: r.Usage.OutputTokens, Cost: r.Usage.Cost}
	if !r.SettleTime.IsZero() {
		u.Latency = r.SettleTime.Sub(r.CreateTime)
	}
	return u
}
