package service

import (
	"fmt"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/spec"
)

// deliveries maps the wire's deliveries to the Spec's; the default (and
// its explicit spelling) is "", so both publish the same Version.
var deliveries = map[runsvcv1.Delivery]spec.Delivery{
	runsvcv1.Delivery_DELIVERY_UNSPECIFIED:   "",
	runsvcv1.Delivery_DELIVERY_AT_LEAST_ONCE: "",
	runsvcv1.Delivery_DELIVERY_AT_MOST_ONCE:  spec.AtMostOnce,
}

var protoDeliveries = map[spec.Delivery]runsvcv1.Delivery{
	"":              runsvcv1.Delivery_DELIVERY_UNSPECIFIED,
	spec.AtMostOnce: runsvcv1.Delivery_DELIVERY_AT_MOST_ONCE,
}

var inDoubts = map[runsvcv1.InDoubt]spec.InDoubt{
	runsvcv1.InDoubt_IN_DOUBT_UNSPECIFIED: "",
	runsvcv1.InDoubt_IN_DOUBT_TELL_MODEL:  "",
	runsvcv1.InDoubt_IN_DOUBT_ASK:         spec.InDoubtAsk,
}

var protoInDoubts = map[spec.InDoubt]runsvcv1.InDoubt{
	"":              runsvcv1.InDoubt_IN_DOUBT_UNSPECIFIED,
	spec.InDoubtAsk: runsvcv1.InDoubt_IN_DOUBT_ASK,
}

// deliveryFromProto reads a tool's delivery and in-doubt settings into
// tool, adding a violation for a value this build does not know.
func deliveryFromProto(tool *spec.Tool, t *runsvcv1.Tool, path string, bad *[]errs.FieldViolation) {
	d, ok := deliveries[t.GetDelivery()]
	if !ok {
		*bad = append(*bad, errs.FieldViolation{Field: path + ".delivery", Description: fmt.Sprintf("unknown delivery %d: use AT_LEAST_ONCE or AT_MOST_ONCE", t.GetDelivery())})
	}
	i, ok := inDoubts[t.GetInDoubt()]
	if !ok {
		*bad = append(*bad, errs.FieldViolation{Field: path + ".in_doubt", Description: fmt.Sprintf("unknown in_doubt %d: use TELL_MODEL or ASK", t.GetInDoubt())})
	}
	tool.Delivery, tool.InDoubt = d, i
}

var outcomes = map[runsvcv1.InDoubtOutcome]runlog.Outcome{
	runsvcv1.InDoubtOutcome_IN_DOUBT_OUTCOME_HAPPENED:       runlog.OutcomeHappened,
	runsvcv1.InDoubtOutcome_IN_DOUBT_OUTCOME_DID_NOT_HAPPEN: runlog.OutcomeDidNotHappen,
	runsvcv1.InDoubtOutcome_IN_DOUBT_OUTCOME_SKIP:           runlog.OutcomeSkip,
}

var protoOutcomes = invert(outcomes)

// inDoubtAnswerFromProto reads ResumeRun's in_doubt; runs.Manager checks
// that it fits the suspension.
func inDoubtAnswerFromProto(d *runsvcv1.InDoubtAnswer) (*runlog.InDoubtAnswer, error) {
	out, err := valueJSON(d.GetOutput())
	if err != nil {
		return nil, errs.BadField("in_doubt.output", "is not a JSON value")
	}
	// An unknown outcome stays "", which the Manager refuses by name.
	return &runlog.InDoubtAnswer{Outcome: outcomes[d.GetOutcome()], Output: out}, nil
}

func inDoubtAnswerToProto(a *runlog.InDoubtAnswer) *runsvcv1.InDoubtAnswer {
	if a == nil {
		return nil
	}
	return &runsvcv1.InDoubtAnswer{Outcome: protoOutcomes[a.Outcome], Output: toValue(a.Output)}
}
