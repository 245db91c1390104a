package engine_test

import (
	"fmt"
	"sync"
	"testing"

	edpb "google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// raceRounds is how many times two StartRuns race on a fresh thread, per
// strategy.
const raceRounds = 50

// slowSpec answers after three seconds, long enough that the second of
// two racing starts finds the first still active, and that an interrupt
// lands before the answer even under -race on a loaded machine (at one
// second, a few of 50 interrupted Runs completed first); its second turn
// answers a steer.
const slowSpec = `{"name": "slow", "model": {"provider": "scripted", "script": {"turns": [
  {"text": "done", "delay": "3s"}, {"text": "steered"}]}}}`

// TestThreadStrategiesRace races two StartRuns 50 times on one thread for
// each strategy, on SQLite and on PostgreSQL: never two active Runs; reject
// gives THREAD_BUSY naming the active Run; enqueue runs both in order;
// interrupt leaves the first ABORTED/INTERRUPTED and the second continuing
// from it; steer gives the input to the active Run.
func TestThreadStrategiesRace(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { threadStrategiesRace(t, testserver.Start(t)) })
	t.Run("postgres", func(t *testing.T) {
		dsn := pgtest.Start(t).NewDatabase(t)
		threadStrategiesRace(t, testserver.Start(t, func(c *server.Config) { c.Store = dsn }))
	})
}

// raced is what the two racing StartRuns of one round got.
type raced struct {
	resp [2]*runsvcv1.StartRunResponse
	err  [2]error
}

func race(t *testing.T, srv *testserver.Server, thread string, strategy runsvcv1.ThreadStrategy) raced {
	var out raced
	var wg sync.WaitGroup
	gate := make(chan struct{})
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-gate
			out.resp[i], out.err[i] = srv.Runs.StartRun(testserver.Context(t), &runsvcv1.StartRunRequest{
				Spec: "slow", Input: fmt.Sprintf("input %d", i), ThreadId: thread, ThreadStrategy: strategy,
			})
		}()
	}
	close(gate)
	wg.Wait()
	return out
}

func threadStrategiesRace(t *testing.T, srv *testserver.Server) {
	srv.Publish(t, slowSpec)
	cases := []struct {
		name     string
		strategy runsvcv1.ThreadStrategy
		check    func(t *testing.T, srv *testserver.Server, thread string, r raced)
	}{
		{"reject", runsvcv1.ThreadStrategy_THREAD_STRATEGY_REJECT, checkReject},
		{"enqueue", runsvcv1.ThreadStrategy_THREAD_STRATEGY_ENQUEUE, checkEnqueue},
		{"interrupt", runsvcv1.ThreadStrategy_THREAD_STRATEGY_INTERRUPT, checkInterrupt},
		{"steer", runsvcv1.ThreadStrategy_THREAD_STRATEGY_STEER, checkSteer},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var wg sync.WaitGroup
			for round := range raceRounds {
				wg.Add(1)
				go func() {
					defer wg.Done()
					thread := fmt.Sprintf("%s-%d", c.name, round)
					c.check(t, srv, thread, race(t, srv, thread, c.strategy))
					checkOneActiveAtATime(t, srv, thread)
				}()
			}
			wg.Wait()
		})
	}
}

// started returns the responses of the starts that succeeded, the Run
// that became active first (not waiting) first.
func started(t *testing.T, r raced) []*runsvcv1.StartRunResponse {
	var out []*runsvcv1.StartRunResponse
	for i, resp := range r.resp {
		if r.err[i] != nil {
			continue
		}
		if resp.GetRun().GetWaiting() {
			out = append(out, resp)
		} else {
			out = append([]*runsvcv1.StartRunResponse{resp}, out...)
		}
	}
	return out
}

func checkReject(t *testing.T, srv *testserver.Server, thread string, r raced) {
	ok := started(t, r)
	if len(ok) != 1 || ok[0].GetRun().GetWaiting() {
		t.Errorf("%s: %d starts succeeded (%v); want exactly one, active", thread, len(ok), r.err)
		return
	}
	active := ok[0].GetRun().GetRunId()
	for _, err := range r.err {
		if err == nil {
			continue
		}
		c := errdetails.Classify(err)
		if c.Code != codes.FailedPrecondition || c.Reason != "THREAD_BUSY" || c.Metadata["activeRunId"] != active || c.Retryable {
			t.Errorf("%s: rejected start = %v %s %v", thread, c.Code, c.Reason, c.Metadata)
		}
		if pf := preconditionOf(err); pf == nil || pf.GetSubject() != "runs/"+active {
			t.Errorf("%s: PreconditionFailure = %v; want one naming runs/%s", thread, pf, active)
		}
	}
	if run := srv.Settled(t, active); run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED {
		t.Errorf("%s: the accepted run ended %v", thread, run.GetState())
	}
}

func preconditionOf(err error) *edpb.PreconditionFailure_Violation {
	st, _ := status.FromError(err)
	for _, d := range st.Details() {
		if pf, ok := d.(*edpb.PreconditionFailure); ok && len(pf.GetViolations()) == 1 {
			return pf.GetViolations()[0]
		}
	}
	return nil
}

// bothStarted checks that both starts succeeded, one active and one
// waiting, and returns their settled Runs, the first-active one first.
func bothStarted(t *testing.T, srv *testserver.Server, thread string, r raced) (*runsvcv1.Run, *runsvcv1.Run, bool) {
	ok := started(t, r)
	if len(ok) != 2 || ok[0].GetRun().GetWaiting() || !ok[1].GetRun().GetWaiting() {
		t.Errorf("%s: starts = %v, errors %v; want one active and one waiting", thread, ok, r.err)
		return nil, nil, false
	}
	first, second := srv.Settled(t, ok[0].GetRun().GetRunId()), srv.Settled(t, ok[1].GetRun().GetRunId())
	if second.GetContinuesRunId() != first.GetRunId() || first.GetContinuesRunId() != "" {
		t.Errorf("%s: second continues %q, first %q; want the first, nothing", thread, second.GetContinuesRunId(), first.GetContinuesRunId())
	}
	return first, second, true
}

func checkEnqueue(t *testing.T, srv *testserver.Server, thread string, r raced) {
	first, second, ok := bothStarted(t, srv, thread, r)
	if !ok {
		return
	}
	if first.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED || second.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED {
		t.Errorf("%s: enqueued runs ended %v, %v; want both COMPLETED", thread, first.GetState(), second.GetState())
	}
	if !second.GetSettleTime().AsTime().After(first.GetSettleTime().AsTime()) {
		t.Errorf("%s: the second settled at %v, not after the first (%v)", thread, second.GetSettleTime().AsTime(), first.GetSettleTime().AsTime())
	}
}

func checkInterrupt(t *testing.T, srv *testserver.Server, thread string, r raced) {
	first, second, ok := bothStarted(t, srv, thread, r)
	if !ok {
		return
	}
	if first.GetState() != runsvcv1.RunState_RUN_STATE_ABORTED || first.GetAbortCause() != runsvcv1.AbortCause_ABORT_CAUSE_INTERRUPTED {
		t.Errorf("%s: the interrupted run ended %v %v; want ABORTED INTERRUPTED", thread, first.GetState(), first.GetAbortCause())
	}
	if second.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED {
		t.Errorf("%s: the interrupting run ended %v", thread, second.GetState())
	}
}

func checkSteer(t *testing.T, srv *testserver.Server, thread string, r raced) {
	var created, steered []*runsvcv1.StartRunResponse
	for i, resp := range r.resp {
		switch {
		case r.err[i] != nil:
			t.Errorf("%s: steer start failed: %v", thread, r.err[i])
			return
		case resp.GetSteered():
			steered = append(steered, resp)
		default:
			created = append(created, resp)
		}
	}
	if len(created) != 1 || len(steered) != 1 || steered[0].GetRun().GetRunId() != created[0].GetRun().GetRunId() || steered[0].GetCreated() {
		t.Errorf("%s: created %v, steered %v; want one Run, steered once", thread, created, steered)
		return
	}
	runID := created[0].GetRun().GetRunId()
	srv.Settled(t, runID)
	var queued []string
	for _, rec := range srv.Records(t, runID) {
		if m := rec.GetMessageQueued(); m != nil {
			queued = append(queued, m.GetText())
		}
	}
	want := "input 0"
	if created[0] == r.resp[0] {
		want = "input 1"
	}
	if len(queued) != 1 || queued[0] != want {
		t.Errorf("%s: messages queued on the active run = %q, want [%q]", thread, queued, want)
	}
}

// checkOneActiveAtATime reads the thread's Runs' logs: no Run's first
// Attempt started before the Run it continues had settled.
func checkOneActiveAtATime(t *testing.T, srv *testserver.Server, thread string) {
	list, err := srv.Runs.ListRuns(testserver.Context(t), &runsvcv1.ListRunsRequest{ThreadId: thread})
	if err != nil {
		t.Errorf("%s: ListRuns: %v", thread, err)
		return
	}
	runs := list.GetRuns()
	for i := 1; i < len(runs); i++ {
		prev := srv.Settled(t, runs[i-1].GetRunId())
		for _, rec := range srv.Records(t, runs[i].GetRunId()) {
			if rec.GetAttemptStarted() != nil && rec.GetTime().AsTime().Before(prev.GetSettleTime().AsTime()) {
				t.Errorf("%s: %s started at %v, before %s settled at %v: two active runs", thread, runs[i].GetRunId(),
					rec.GetTime().AsTime(), prev.GetRunId(), prev.GetSettleTime().AsTime())
			}
		}
	}
}
