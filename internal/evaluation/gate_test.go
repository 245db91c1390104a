package evaluation_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestAliasMoveGatedOnEvaluation: over 100 recorded Runs, MoveAlias with
// if_evaluation moves prod to a candidate whose replays pass, and refuses
// EVALUATION_GATE_FAILED, naming the failing Runs, a candidate answering
// otherwise and one whose model refuses every call (every replay FAILED
// where its recording COMPLETED); prod stays where it was. The gate is the evaluation service the server wires into the
// alias registry, reached over gRPC.
func TestAliasMoveGatedOnEvaluation(t *testing.T) {
	const recorded = 100
	s := newShop(t)
	s.record(t, recorded)
	ctx := testserver.Context(t)
	aliases := runsvcv1.NewAliasServiceClient(s.srv.Conn)
	if _, err := aliases.MoveAlias(ctx, &runsvcv1.MoveAliasRequest{Spec: "shop", Alias: "prod", Version: s.source.GetVersion()}); err != nil {
		t.Fatal(err)
	}
	same := s.srv.Publish(t, shopSpec(s.url, "5", "done "))
	wrong := s.srv.Publish(t, shopSpec(s.url, "5", "wrong"))
	// A candidate whose every replay fails: its model refuses each call.
	refusing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"error": {"message": "this model is gone", "type": "invalid_request_error"}}`))
	}))
	t.Cleanup(refusing.Close)
	broken := s.srv.Publish(t, fmt.Sprintf(`{"name": "shop", "model": {"provider": "openai", "model": "gone", "baseUrl": %q},
	  "tools": [{"name": "charge", "kind": "TOOL_KIND_HTTP", "http": {"url": %q}}, {"name": "lookup", "kind": "TOOL_KIND_WORKER"}]}`, refusing.URL, s.url))
	good := s.evaluate(t, same.GetVersion(), 0, &runsvcv1.Evaluator{Kind: &runsvcv1.Evaluator_Regex{Regex: "^done"}})
	bad := s.evaluate(t, wrong.GetVersion(), 0)
	failing := s.evaluate(t, broken.GetVersion(), 0)
	if sum := failing.GetSummary(); sum.GetOutcomeChanged() != recorded || sum.GetScore() != 0 {
		t.Fatalf("the refused candidate's summary = %v, want %d replays FAILED where the recording COMPLETED", sum, recorded)
	}
	tests := []struct {
		name       string
		version    string
		evaluation string
		reason     string
		wantOn     string
	}{
		{"a candidate answering otherwise is refused", wrong.GetVersion(), bad.GetEvaluationId(), "EVALUATION_GATE_FAILED", s.source.GetVersion()},
		{"a candidate whose replays fail is refused", broken.GetVersion(), failing.GetEvaluationId(), "EVALUATION_GATE_FAILED", s.source.GetVersion()},
		{"the evaluation of another Version is refused", wrong.GetVersion(), good.GetEvaluationId(), "EVALUATION_GATE_FAILED", s.source.GetVersion()},
		{"an unknown evaluation is refused", same.GetVersion(), "evl_missing", "EVALUATION_NOT_FOUND", s.source.GetVersion()},
		{"a passing candidate moves", same.GetVersion(), good.GetEvaluationId(), "", same.GetVersion()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := aliases.MoveAlias(ctx, &runsvcv1.MoveAliasRequest{Spec: "shop", Alias: "prod", Version: tt.version, IfEvaluation: tt.evaluation, MinScore: 0.9})
			if got := reasonOf(err); got != tt.reason {
				t.Fatalf("MoveAlias = %v, want reason %q", err, tt.reason)
			}
			for _, ev := range []*runsvcv1.Evaluation{bad, failing} {
				if tt.reason == "EVALUATION_GATE_FAILED" && tt.evaluation == ev.GetEvaluationId() {
					checkFailingRuns(t, err, ev, recorded)
				}
			}
			got, err := aliases.GetAlias(ctx, &runsvcv1.GetAliasRequest{Spec: "shop", Alias: "prod"})
			if err != nil {
				t.Fatal(err)
			}
			if v := got.GetAlias().GetVersion(); v != tt.wantOn {
				t.Fatalf("prod is on %s, want %s", v, tt.wantOn)
			}
		})
	}
}

// checkFailingRuns checks that a refusal is FAILED_PRECONDITION and names
// n failing Runs of ev, some by id and the rest by count.
func checkFailingRuns(t *testing.T, err error, ev *runsvcv1.Evaluation, n int) {
	t.Helper()
	if status.Code(err) != codes.FailedPrecondition {
		t.Fatalf("code %v, want FAILED_PRECONDITION", status.Code(err))
	}
	md := metadataOf(err)
	ofEv := map[string]bool{}
	for _, r := range ev.GetRuns() {
		ofEv[r.GetSourceRunId()], ofEv[r.GetReplayRunId()] = true, true
	}
	named := strings.Split(md["failingRunIds"], ",")
	for _, id := range named {
		if !ofEv[strings.TrimSpace(id)] {
			t.Errorf("failingRunIds names %q, not a Run of evaluation %s", id, ev.GetEvaluationId())
		}
	}
	more, _ := strconv.Atoi(md["moreFailingRuns"])
	if len(named)+more != n {
		t.Errorf("the refusal names %d failing Runs and %d more, want %d in all (metadata %v)", len(named), more, n, md)
	}
}

func metadataOf(err error) map[string]string {
	for _, d := range status.Convert(err).Details() {
		if ei, ok := d.(*errdetails.ErrorInfo); ok {
			return ei.GetMetadata()
		}
	}
	return nil
}

func reasonOf(err error) string {
	for _, d := range status.Convert(err).Details() {
		if ei, ok := d.(*errdetails.ErrorInfo); ok {
			return ei.GetReason()
		}
	}
	return ""
}
