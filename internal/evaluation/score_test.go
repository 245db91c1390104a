package evaluation

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	errdetailspb "google.golang.org/genproto/googleapis/rpc/errdetails"

	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/ids"
)

// TestEvaluatorsCompare: each evaluator kind scores 1 or 0, saying why
// when 0.
func TestEvaluatorsCompare(t *testing.T) {
	tests := []struct {
		name                string
		e                   Evaluator
		recorded, candidate string
		want                float64
	}{
		{"exact equal", Evaluator{Kind: KindExact}, "done", "done", 1},
		{"exact differs", Evaluator{Kind: KindExact}, "done", "Done", 0},
		{"regex matches", Evaluator{Kind: KindRegex, Pattern: `^\d+ items$`}, "", "3 items", 1},
		{"regex does not", Evaluator{Kind: KindRegex, Pattern: `^\d+ items$`}, "", "three items", 0},
		{"schema valid", Evaluator{Kind: KindJSONSchema, Schema: json.RawMessage(`{"type":"object","required":["total"]}`)}, "", `{"total": 3}`, 1},
		{"schema invalid", Evaluator{Kind: KindJSONSchema, Schema: json.RawMessage(`{"type":"object","required":["total"]}`)}, "", `{"sum": 3}`, 0},
		{"schema not JSON", Evaluator{Kind: KindJSONSchema, Schema: json.RawMessage(`{"type":"object"}`)}, "", `total 3`, 0},
		{"path equal", Evaluator{Kind: KindJSONPath, Path: "$.order.items[1]['sku id']"}, `{"order":{"items":[{},{"sku id":"a","n":1}]}}`, `{"order":{"items":[{"x":1},{"n":1,"sku id":"a"}]}, "extra": true}`, 1},
		{"path differs", Evaluator{Kind: KindJSONPath, Path: "$.total"}, `{"total": 3}`, `{"total": 4}`, 0},
		{"path missing", Evaluator{Kind: KindJSONPath, Path: "$.total"}, `{"total": 3}`, `{}`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.e.compare(tt.recorded, tt.candidate)
			if got.Score != tt.want || (got.Score == 0) != (got.Detail != "") {
				t.Fatalf("compare = %+v, want score %v with a detail when 0", got, tt.want)
			}
		})
	}
}

// TestJudgeVerdict: a judge's answer is a JSON object with a score from 0
// to 1, alone or within its text; anything else scores 0 with a reason.
func TestJudgeVerdict(t *testing.T) {
	tests := []struct {
		answer string
		want   float64
		detail string
	}{
		{`{"score": 0.75, "reason": "mostly"}`, 0.75, "mostly"},
		{"Here is my verdict: {\"score\": 1} — done", 1, ""},
		{`{"score": 1.5}`, 0, "the judge's score 1.5 is not between 0 and 1"},
		{`{"reason": "no idea"}`, 0, "the judge's answer has no score"},
		{`good`, 0, "the judge's answer holds no JSON object"},
	}
	for _, tt := range tests {
		if score, detail := verdict(tt.answer); score != tt.want || detail != tt.detail {
			t.Errorf("verdict(%q) = %v, %q; want %v, %q", tt.answer, score, detail, tt.want, tt.detail)
		}
	}
}

// TestRequestValidation: a request names its candidate and evaluators
// that can run.
func TestRequestValidation(t *testing.T) {
	bad := Request{Evaluators: []Evaluator{{Kind: KindRegex, Pattern: "("}, {Kind: KindJSONPath, Path: "total"}, {Kind: KindLLMJudge}, {Kind: "vibes"}}}
	err := bad.validate()
	if err == nil {
		t.Fatal("validate accepted a bad request")
	}
	want := "the evaluation request is invalid: spec: is required"
	if got := err.Error(); len(got) < len(want) || got[:len(want)] != want {
		t.Fatalf("validate = %v", err)
	}
	if n := len(err.(*errs.EvaluationInvalid).Violations); n != 6 {
		t.Fatalf("%d violations, want 6", n)
	}
	// Too many evaluators is one violation, whatever each of them says.
	many := Request{Spec: "shop", Version: "v", Evaluators: make([]Evaluator, MaxEvaluators+1)}
	var invalid *errs.EvaluationInvalid
	if err := many.validate(); !errors.As(err, &invalid) || len(invalid.Violations) != 1 || invalid.Violations[0].Field != "evaluators" {
		t.Fatalf("validate(%d evaluators) = %v, want one violation of evaluators", len(many.Evaluators), err)
	}
	if err := CheckEvaluators(MaxEvaluators); err != nil {
		t.Fatalf("CheckEvaluators(%d) = %v", MaxEvaluators, err)
	}
}

// TestGateRefusalFitsTheWire: a refusal naming many failing Runs keeps
// every id it lists whole, says how many more there are, and fits the
// wire budget of one error (a Trailers-Only header block well under 4 KiB).
func TestGateRefusalFitsTheWire(t *testing.T) {
	ev := Evaluation{ID: ids.New("evl", time.Now()), Spec: "shop", Version: strings.Repeat("f", 64), Done: true}
	for range 100 {
		ev.Runs = append(ev.Runs, RunReport{SourceRunID: ids.New("run", time.Now())})
	}
	err := gate(ev, "shop", ev.Version, 0.9)
	var refused *errs.EvaluationGateFailed
	if !errors.As(err, &refused) || len(refused.FailingRunIDs) != errs.MaxGateRunIDs || refused.More != 100-errs.MaxGateRunIDs {
		t.Fatalf("gate = %v", err)
	}
	st := errdetails.New(errdetails.Options{}).Map(context.Background(), err).Status.Proto()
	if size := errdetails.WireSize(st); size > errdetails.WireBudget {
		t.Fatalf("the refusal takes %d bytes on the wire, over %d", size, errdetails.WireBudget)
	}
	var info *errdetailspb.ErrorInfo
	for _, d := range st.GetDetails() {
		if m, err := d.UnmarshalNew(); err == nil {
			if i, ok := m.(*errdetailspb.ErrorInfo); ok {
				info = i
			}
		}
	}
	if got := info.GetMetadata()["failingRunIds"]; got != strings.Join(refused.FailingRunIDs, ", ") {
		t.Fatalf("failingRunIds on the wire = %q, want every listed id whole", got)
	}
}

// TestFirstDivergence: the first replayed step that differs, counting a
// recorded call the replay never made at the step after its last.
func TestFirstDivergence(t *testing.T) {
	same := func(n int) Step { return Step{Step: n, Recorded: n, Change: StepSame} }
	for _, tc := range []struct {
		name  string
		steps []Step
		want  int
	}{
		{"none made or recorded", nil, 0},
		{"all the same", []Step{same(1), same(2)}, 0},
		{"fenced at 2", []Step{same(1), {Step: 2, Change: StepFenced}}, 2},
		{"extra at 1", []Step{{Step: 1, Change: StepExtra}, same(2)}, 1},
		{"reordered at 2, then missing", []Step{same(1), {Step: 2, Recorded: 3, Change: StepReordered}, {Recorded: 2, Change: StepMissing}}, 2},
		{"the last recorded call missing", []Step{same(1), {Recorded: 2, Change: StepMissing}}, 2},
		{"no call made, one recorded", []Step{{Recorded: 1, Change: StepMissing}}, 1},
	} {
		if got := firstDivergence(tc.steps); got != tc.want {
			t.Errorf("%s: firstDivergence = %d, want %d", tc.name, got, tc.want)
		}
	}
}
