// Package logtest makes Run logs for tests: random ones that fold, for
// property tests of what is derived from a log incrementally.
package logtest

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/runsvc/runsvc/internal/runlog"
)

// Random returns a log of up to n Records that folds, drawn from rng: an
// admission, then turns of model calls (some failing), tool calls
// answered by workers or by a resume after a suspension, messages queued
// and consumed, compactions, new Attempts, and maybe a settlement. Each
// Record is one of several candidates the State allows next, tried in a
// random order.
func Random(rng *rand.Rand, runID string, n int) []runlog.Record {
	base := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	admitted := &runlog.Admitted{Tenant: "default", Spec: "s", Version: "v1", Input: word(rng), Deadline: base.Add(time.Hour), RootRunID: runID}
	recs := []runlog.Record{{Seq: 1, Time: base, Op: admitted}}
	st, _ := runlog.Fold(runID, recs)
	for len(recs) < n && !st.Settled() {
		cands := candidates(rng, st)
		rng.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
		added := false
		for _, op := range cands {
			r := runlog.Record{Seq: st.Seq + 1, Time: base.Add(time.Duration(st.Seq) * time.Second), Attempt: st.Attempt, Op: op}
			if err := st.Apply(r); err != nil {
				st, _ = runlog.Fold(runID, recs) // a refused Record may have left traces
				continue
			}
			recs, added = append(recs, r), true
			break
		}
		if !added {
			break
		}
	}
	return recs
}

// candidates are Records that may follow st, most of them allowed.
func candidates(rng *rand.Rand, st *runlog.State) []runlog.Op {
	turn := st.Turn
	ops := []runlog.Op{
		&runlog.AttemptStarted{Attempt: st.Attempt + 1, WorkerID: "w"},
		&runlog.TurnStarted{Turn: turn + 1},
		&runlog.ModelCallStarted{Turn: turn},
		modelAnswer(rng, turn),
		&runlog.MessageQueued{Text: word(rng), Mode: []runlog.MessageMode{runlog.ModeSteer, runlog.ModeFollowUp}[rng.IntN(2)]},
	}
	if rng.IntN(8) == 0 {
		ops = append(ops, &runlog.ModelCallFailed{Turn: turn, WillRetry: true})
	}
	if c := st.NextCall(); c != nil {
		out, _ := json.Marshal(word(rng))
		ops = append(ops,
			&runlog.ToolCallStarted{CallID: c.ID, Name: c.Name},
			&runlog.ToolCallFinished{CallID: c.ID, Name: c.Name, Output: out},
			&runlog.Suspended{Reason: runlog.ReasonToolResults, ExpireAt: st.UpdateTime.Add(time.Hour), CallIDs: unanswered(st)})
	}
	if sus := st.Suspension; sus != nil && st.Status == runlog.StatusSuspended {
		var results []runlog.ToolResult
		for _, id := range sus.CallIDs {
			results = append(results, runlog.ToolResult{CallID: id, Output: json.RawMessage(`"` + word(rng) + `"`)})
		}
		ops = append(ops, &runlog.Resumed{Reason: sus.Reason, Results: results})
	}
	if len(st.Queued) > 0 {
		ops = append(ops, &runlog.MessageConsumed{QueuedSeqs: []int64{st.Queued[0].Seq}})
	}
	if len(st.Transcript) > 2 && rng.IntN(6) == 0 {
		ops = append(ops, &runlog.HistoryCompacted{Turn: turn, ThroughTurn: max(turn-1, 1), Messages: 1 + rng.IntN(len(st.Transcript)-1), Summary: word(rng)})
	}
	if rng.IntN(40) == 0 {
		ops = append(ops, &runlog.Settled{State: runlog.StatusCompleted, Answer: st.LastText})
	}
	return ops
}

// modelAnswer is a model call's end with up to three tool calls.
func modelAnswer(rng *rand.Rand, turn int) *runlog.ModelCallFinished {
	done := &runlog.ModelCallFinished{Turn: turn, Text: word(rng), InputTokens: 10, OutputTokens: 3}
	for i := range rng.IntN(4) {
		c := runlog.ToolCall{ID: fmt.Sprintf("call_%d_%d", turn, i+1), Name: word(rng), Arguments: json.RawMessage(`{"i":` + fmt.Sprint(i) + `}`)}
		if rng.IntN(3) == 0 {
			c.ProviderID = "p" + c.ID
		}
		done.ToolCalls = append(done.ToolCalls, c)
	}
	return done
}

// unanswered are the ids of the calls not answered yet.
func unanswered(st *runlog.State) []string {
	var ids []string
	for _, c := range st.Calls {
		if !c.Finished {
			ids = append(ids, c.ID)
		}
	}
	return ids
}

var words = []string{"alpha", "beta", "gamma", "delta", "look it up", "", "ünïcode", "a longer sentence with spaces"}

func word(rng *rand.Rand) string { return words[rng.IntN(len(words))] }
