package evaluation_test

import (
	"strings"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestAliasMoveGatedOnEvaluation: MoveAlias with if_evaluation moves prod
// to a candidate whose replays pass, and refuses one whose replays fail
// EVALUATION_GATE_FAILED, naming the failing Runs; prod stays where it
// was. The gate is the evaluation service the server wires into the
// alias registry, reached over gRPC.
func TestAliasMoveGatedOnEvaluation(t *testing.T) {
	s := newShop(t)
	s.record(t, 4)
	ctx := testserver.Context(t)
	aliases := runsvcv1.NewAliasServiceClient(s.srv.Conn)
	if _, err := aliases.MoveAlias(ctx, &runsvcv1.MoveAliasRequest{Spec: "shop", Alias: "prod", Version: s.source.GetVersion()}); err != nil {
		t.Fatal(err)
	}
	same := s.srv.Publish(t, shopSpec(s.url, "5", "done "))
	wrong := s.srv.Publish(t, shopSpec(s.url, "5", "wrong"))
	good := s.evaluate(t, same.GetVersion(), 0, &runsvcv1.Evaluator{Kind: &runsvcv1.Evaluator_Regex{Regex: "^done"}})
	bad := s.evaluate(t, wrong.GetVersion(), 0)
	tests := []struct {
		name       string
		version    string
		evaluation string
		reason     string
		wantOn     string
	}{
		{"a failing candidate is refused", wrong.GetVersion(), bad.GetEvaluationId(), "EVALUATION_GATE_FAILED", s.source.GetVersion()},
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
			if tt.reason == "EVALUATION_GATE_FAILED" && tt.evaluation == bad.GetEvaluationId() {
				if status.Code(err) != codes.FailedPrecondition {
					t.Fatalf("code %v, want FAILED_PRECONDITION", status.Code(err))
				}
				ids := metadataOf(err)["failingRunIds"]
				for _, r := range bad.GetRuns() {
					if !strings.Contains(ids, r.GetReplayRunId()) && !strings.Contains(ids, r.GetSourceRunId()) {
						t.Errorf("failingRunIds %q does not name the Run of %s", ids, r.GetSourceRunId())
					}
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
