package storetest

import (
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/store"
)

// runEvaluations checks evaluations and the namespace of their Runs.
func runEvaluations(t *testing.T, open Opener) {
	t.Run("Evaluations", func(t *testing.T) { testEvaluations(t, open(t)) })
	t.Run("EvaluationRunsNotListed", func(t *testing.T) { testEvaluationRuns(t, open(t)) })
}

func testEvaluations(t *testing.T, s store.Store) {
	e, ok := s.(store.Evaluations)
	if !ok {
		t.Fatalf("%T does not implement store.Evaluations", s)
	}
	c := ctx(t)
	for i, id := range []string{"evl_a", "evl_b", "evl_c"} {
		ev := store.Evaluation{Tenant: tenant, EvaluationID: id, Spec: "shop", Version: "v1", Body: []byte(`{"items":[]}`), CreateTime: t0.Add(time.Duration(i) * time.Second)}
		if err := e.PutEvaluation(c, ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.PutEvaluation(c, store.Evaluation{Tenant: tenant, EvaluationID: "evl_a", Spec: "shop", Version: "v1", Body: []byte(`{"items":[1]}`), CreateTime: t0}); err != nil {
		t.Fatal(err)
	}
	got, found, err := e.GetEvaluation(c, tenant, "evl_a")
	if err != nil || !found || string(got.Body) != `{"items":[1]}` || got.Spec != "shop" || !got.CreateTime.Equal(t0) {
		t.Fatalf("GetEvaluation = %+v, %v, %v", got, found, err)
	}
	if _, found, err := e.GetEvaluation(c, "other", "evl_a"); found || err != nil {
		t.Fatalf("another tenant's GetEvaluation = %v, %v", found, err)
	}
	page, err := e.ListEvaluations(c, tenant, time.Time{}, "", 2)
	if err != nil || len(page) != 2 || page[0].EvaluationID != "evl_c" || page[1].EvaluationID != "evl_b" {
		t.Fatalf("first page = %+v, %v", page, err)
	}
	page, err = e.ListEvaluations(c, tenant, page[1].CreateTime, page[1].EvaluationID, 2)
	if err != nil || len(page) != 1 || page[0].EvaluationID != "evl_a" {
		t.Fatalf("second page = %+v, %v", page, err)
	}
	if found, err := e.DeleteEvaluation(c, tenant, "evl_a"); !found || err != nil {
		t.Fatalf("DeleteEvaluation = %v, %v", found, err)
	}
	if found, err := e.DeleteEvaluation(c, tenant, "evl_a"); found || err != nil {
		t.Fatalf("DeleteEvaluation again = %v, %v", found, err)
	}
}

// testEvaluationRuns: a Run of an evaluation keeps its evaluation id, and
// ListRuns lists it only when asked for that evaluation's Runs.
func testEvaluationRuns(t *testing.T, s store.Store) {
	mustCreate(t, s, newRun("run_prod", false))
	nr := newRun("run_replay", false)
	nr.EvaluationID = "evl_1"
	mustCreate(t, s, nr)
	got, err := s.GetRun(ctx(t), tenant, "run_replay")
	if err != nil || got.EvaluationID != "evl_1" {
		t.Fatalf("GetRun = %+v, %v", got, err)
	}
	prod, _, err := s.ListRuns(ctx(t), tenant, store.RunQuery{PageSize: 10})
	if err != nil || len(prod) != 1 || prod[0].RunID != "run_prod" {
		t.Fatalf("ListRuns = %+v, %v, want run_prod only", prod, err)
	}
	replays, _, err := s.ListRuns(ctx(t), tenant, store.RunQuery{PageSize: 10, EvaluationID: "evl_1"})
	if err != nil || len(replays) != 1 || replays[0].RunID != "run_replay" {
		t.Fatalf("ListRuns of evl_1 = %+v, %v", replays, err)
	}
}
