package server_test

import (
	"fmt"
	"testing"

	"google.golang.org/grpc/status"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/fakeopenai"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// fallbackSpec is a Spec on the fake primary with the fake secondary as
// its one fallback.
func fallbackSpec(name, primary, secondary string) string {
	return fmt.Sprintf(`{"name": %q, "model": {"provider": "openai", "model": "primary", "baseUrl": %q,
	  "fallbacks": [{"provider": "openai", "model": "secondary", "baseUrl": %q}]}}`, name, primary, secondary)
}

// TestFallbackWhenThePrimaryIsDown: the primary answers 503, the
// secondary answers: every Run completes on the secondary, and its
// Record names the secondary as the model that answered and the primary
// with its INFERENCE_FAILED.
func TestFallbackWhenThePrimaryIsDown(t *testing.T) {
	primary := fakeopenai.Start(t, fakeopenai.Turn{Refuse: &fakeopenai.Refusal{Status: 503, Message: "down"}})
	secondary := fakeopenai.Start(t, fakeopenai.Turn{Text: "from the secondary"})
	s := testserver.Start(t)
	s.Publish(t, fallbackSpec("falls-back", primary.URL, secondary.URL))
	const runs = 5
	for i := range runs {
		run := s.Settled(t, s.Start(t, "falls-back", fmt.Sprintf("run %d", i)).GetRunId())
		if run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED || run.GetAnswer() != "from the secondary" {
			t.Fatalf("run settled %v with %q: %v", run.GetState(), run.GetAnswer(), run.GetFailure())
		}
		var finished *runsvcv1.Record_ModelCallFinished
		for _, r := range s.Records(t, run.GetRunId()) {
			if f := r.GetModelCallFinished(); f != nil {
				finished = f
			}
		}
		fb := finished.GetFallbacks()
		if finished.GetModel() != "openai/secondary" || len(fb) != 1 || fb[0].GetModel() != "openai/primary" ||
			reasonOf(status.ErrorProto(fb[0].GetFailure())) != "INFERENCE_FAILED" {
			t.Errorf("model_call_finished names %q after %v", finished.GetModel(), fb)
		}
	}
	if len(primary.Requests()) != runs || len(secondary.Requests()) != runs {
		t.Errorf("primary got %d requests, secondary %d; want %d each", len(primary.Requests()), len(secondary.Requests()), runs)
	}
}

// TestNoFallbackOnRejection: a 400 from the primary fails the Run
// INFERENCE_REJECTED and the secondary is never asked.
func TestNoFallbackOnRejection(t *testing.T) {
	primary := fakeopenai.Start(t, fakeopenai.Turn{Refuse: &fakeopenai.Refusal{Status: 400, Code: "invalid_value", Message: "bad request"}})
	secondary := fakeopenai.Start(t, fakeopenai.Turn{Text: "from the secondary"})
	s := testserver.Start(t)
	s.Publish(t, fallbackSpec("rejected", primary.URL, secondary.URL))
	run := s.Settled(t, s.Start(t, "rejected", "hello").GetRunId())
	if run.GetState() != runsvcv1.RunState_RUN_STATE_FAILED || reasonOf(status.ErrorProto(run.GetFailure())) != "INFERENCE_REJECTED" {
		t.Fatalf("run settled %v: %v", run.GetState(), run.GetFailure())
	}
	if n := len(secondary.Requests()); n != 0 {
		t.Errorf("the secondary got %d requests after a 400, want 0", n)
	}
}
