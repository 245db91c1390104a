package evaluation_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/evaluation"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestReplaysStayOutOfProduction: the replays of a Spec whose concurrency
// key is its input, in REPLACE mode, neither take production's slots (a
// replay of an order production is working on runs at once) nor replace
// production's waiting Run of that order, and neither they nor their
// settling raise the tenant's webhook events: the subscription's
// deliveries are the production Runs', one each.
func TestReplaysStayOutOfProduction(t *testing.T) {
	charged := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`{"charged": true}`))
	}))
	t.Cleanup(charged.Close)
	hooked := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	t.Cleanup(hooked.Close)
	srv := testserver.Start(t, func(c *server.Config) {
		c.AllowNetworks = []string{"127.0.0.0/8"}
		c.Webhooks.Backoff = 50 * time.Millisecond
	})
	ctx := testserver.Context(t)
	hooks := runsvcv1.NewWebhookServiceClient(srv.Conn)
	sub, err := hooks.CreateWebhook(ctx, &runsvcv1.CreateWebhookRequest{Subscription: &runsvcv1.WebhookSubscription{
		Url: hooked.URL + "/hook", EventTypes: []string{"run.settled"}}})
	if err != nil {
		t.Fatal(err)
	}
	hold, release := make(chan struct{}, 1), make(chan struct{})
	srv.StartWorker(t, "shop-worker", map[string]testserver.ToolFunc{
		"lookup": func(map[string]any) (any, *runsvcv1.ToolError) {
			select {
			case <-hold: // the one production call that holds its order
				<-release
			default:
			}
			return map[string]any{"stock": 3}, nil
		},
	})
	source := srv.Publish(t, strings.Replace(shopSpec(charged.URL, "5", "done"), `"tools":`,
		`"concurrency": {"key": "input", "limit": 1, "mode": "CONCURRENCY_MODE_REPLACE"}, "tools":`, 1))
	const recorded = 5
	production := map[string]bool{}
	for i := range recorded {
		id := srv.Start(t, "shop", fmt.Sprintf("order %d", i)).GetRunId()
		production[id] = true
		srv.Settled(t, id)
	}

	// Order 0 again: one Run working on it, holding its slot, and one
	// waiting for the slot.
	hold <- struct{}{}
	holding := srv.Start(t, "shop", "order 0").GetRunId()
	for len(hold) > 0 {
		time.Sleep(10 * time.Millisecond)
	}
	waiting := srv.Start(t, "shop", "order 0").GetRunId()
	production[holding], production[waiting] = true, true

	evals := runsvcv1.NewEvaluationServiceClient(srv.Conn)
	resp, err := evals.EvaluateVersion(ctx, &runsvcv1.EvaluateVersionRequest{
		Spec: "shop", Version: source.GetVersion(), Runs: &runsvcv1.RunSelection{Spec: "shop", Limit: recorded}})
	if err != nil {
		t.Fatalf("EvaluateVersion: %v", err)
	}
	ev := waitEvaluation(t, evals, resp.GetEvaluation().GetEvaluationId())
	if sum := ev.GetSummary(); sum.GetRuns() != recorded || sum.GetEqual() != recorded {
		t.Fatalf("summary = %v, want %d equal replays while production holds order 0", sum, recorded)
	}
	got, err := srv.Runs.GetRun(ctx, &runsvcv1.GetRunRequest{RunId: waiting})
	if err != nil {
		t.Fatal(err)
	}
	if r := got.GetRun(); r.GetState() != runsvcv1.RunState_RUN_STATE_QUEUED || r.GetConcurrencyPlace() != 1 {
		t.Fatalf("production's waiting Run after the replays: %v, place %d; want QUEUED first in line", r.GetState(), r.GetConcurrencyPlace())
	}
	close(release)
	for _, id := range []string{holding, waiting} {
		if r := srv.Settled(t, id); r.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED {
			t.Fatalf("production Run %s: %v", id, r.GetState())
		}
	}

	checkDeliveredOnce(t, hooks, sub.GetSubscription().GetId(), production)
}

// checkDeliveredOnce checks that subscription id has one delivery for each
// of the Runs and none for any other. Every settle writes its event in the
// settling transaction, so the outbox is complete once the Runs have
// settled.
func checkDeliveredOnce(t *testing.T, hooks runsvcv1.WebhookServiceClient, id string, runs map[string]bool) {
	t.Helper()
	deliveries, err := hooks.ListWebhookDeliveries(testserver.Context(t), &runsvcv1.ListWebhookDeliveriesRequest{Id: id, PageSize: 100})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, d := range deliveries.GetDeliveries() {
		seen[d.GetRunId()]++
		if !runs[d.GetRunId()] {
			t.Errorf("run.settled delivered for %s, which is not a production Run (a replay's?)", d.GetRunId())
		}
	}
	for run := range runs {
		if seen[run] != 1 {
			t.Errorf("production Run %s has %d run.settled deliveries, want 1", run, seen[run])
		}
	}
}

// replays is a store that remembers the evaluations' Runs it creates.
type replays struct {
	store.Store
	store.Evaluations
	mu      sync.Mutex
	created map[string]string // run id: evaluation id
}

func (r *replays) CreateRun(ctx context.Context, n store.NewRun) (store.Run, bool, error) {
	run, created, err := r.Store.CreateRun(ctx, n)
	if err == nil && n.EvaluationID != "" {
		r.mu.Lock()
		r.created[run.RunID] = n.EvaluationID
		r.mu.Unlock()
	}
	return run, created, err
}

// TestAnEvaluationThatFailsToStartLeavesNoReplay: a dataset whose second
// Run cannot be replayed (its thread's earlier Run was deleted, so its
// history cannot be read) fails EvaluateVersion, and the replay already
// started for the first Run is deleted with it instead of being left in
// a namespace nothing can reach.
func TestAnEvaluationThatFailsToStartLeavesNoReplay(t *testing.T) {
	rec := &replays{created: map[string]string{}}
	srv := testserver.Start(t, func(c *server.Config) {
		c.WrapStore = func(s store.Store) store.Store {
			rec.Store, rec.Evaluations = s, s.(store.Evaluations)
			return rec
		}
	})
	chat := srv.Publish(t, `{"name": "chat", "model": {"provider": "scripted", "script": {"turns": [{"text": "noted"}]}}}`)
	ctx := testserver.Context(t)
	alone := srv.Settled(t, srv.Start(t, "chat", "hello").GetRunId()).GetRunId()
	var onThread []string
	for _, in := range []string{"my name is Ada", "what is my name?"} {
		resp, err := srv.Runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "chat", Input: in, ThreadId: "th-gone"})
		if err != nil {
			t.Fatal(err)
		}
		onThread = append(onThread, srv.Settled(t, resp.GetRun().GetRunId()).GetRunId())
	}
	if _, err := srv.Runs.DeleteRun(ctx, &runsvcv1.DeleteRunRequest{RunId: onThread[0]}); err != nil {
		t.Fatalf("DeleteRun: %v", err)
	}
	evals := runsvcv1.NewEvaluationServiceClient(srv.Conn)
	_, err := evals.EvaluateVersion(ctx, &runsvcv1.EvaluateVersionRequest{Spec: "chat", Version: chat.GetVersion(), Runs: &runsvcv1.RunSelection{RunIds: []string{alone, onThread[1]}}})
	if err == nil {
		t.Fatal("EvaluateVersion of a Run whose thread history is gone succeeded")
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.created) != 1 {
		t.Fatalf("EvaluateVersion (%v) created %d replays, want the first Run's", err, len(rec.created))
	}
	for id, ev := range rec.created {
		var gone *errs.RunNotFound
		if _, err := srv.Store.GetRun(ctx, "default", id); !errors.As(err, &gone) {
			t.Errorf("replay %s of evaluation %s after EvaluateVersion failed: GetRun = %v, want it deleted", id, ev, err)
		}
	}
}

// TestADeletedReplayIsReportedDeleted: a replay deleted under its
// evaluation (as the retention sweep deletes one) leaves the evaluation
// readable: that Run's replay is DELETED and scores 0, the others stand,
// and the gate refuses naming the deleted one's recorded Run.
func TestADeletedReplayIsReportedDeleted(t *testing.T) {
	s := newShop(t)
	s.record(t, 3)
	ev := s.evaluate(t, s.source.GetVersion(), 0)
	ctx := testserver.Context(t)
	deleted := ev.GetRuns()[0]
	if _, err := s.srv.Runs.DeleteRun(ctx, &runsvcv1.DeleteRunRequest{RunId: deleted.GetReplayRunId()}); err != nil {
		t.Fatalf("DeleteRun of a replay: %v", err)
	}
	got := waitEvaluation(t, s.evals, ev.GetEvaluationId())
	for _, r := range got.GetRuns() {
		switch {
		case r.GetSourceRunId() == deleted.GetSourceRunId():
			if r.GetReplayed().GetState() != evaluation.StateDeleted || r.GetScore() != 0 || r.GetEqual() {
				t.Errorf("the deleted replay's report: %v", r)
			}
		case r.GetScore() != 1 || !r.GetEqual():
			t.Errorf("a replay that stands: %v", r)
		}
	}
	err := s.srv.Evaluations.Check(ctx, "default", ev.GetEvaluationId(), "shop", s.source.GetVersion(), 0.9)
	var refused *errs.EvaluationGateFailed
	if !errors.As(err, &refused) || len(refused.FailingRunIDs) != 1 || refused.FailingRunIDs[0] != deleted.GetSourceRunId() {
		t.Fatalf("gate with a deleted replay: %v", err)
	}
}
