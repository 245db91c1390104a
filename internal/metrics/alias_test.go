package metrics_test

import (
	"context"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/engine"
	"github.com/runsvc/runsvc/internal/metrics"
	"github.com/runsvc/runsvc/internal/runlog"
)

// TestAliasSidesAreLabels: Runs of an alias count by side, the sides'
// tokens and cost apart; a Run started by name adds no alias series.
func TestAliasSidesAreLabels(t *testing.T) {
	m := metrics.New(func(error) string { return "" })
	ctx := context.Background()
	settle := func(side, state, reason string, tokens int64) {
		m.RunSettled(ctx, engine.SettledInfo{Spec: "s", State: state, Alias: "prod", AliasSide: side, Reason: reason,
			Usage: runlog.Usage{InputTokens: tokens, Cost: 0.5}, Took: time.Second})
	}
	settle("PRIMARY", "COMPLETED", "", 10)
	settle("PRIMARY", "COMPLETED", "", 10)
	settle("CANARY", "FAILED", "TOOL_FAILED", 7)
	m.RunSettled(ctx, engine.SettledInfo{Spec: "s", State: "COMPLETED"})
	families, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, f := range families {
		for _, mt := range f.GetMetric() {
			key := f.GetName()
			for _, l := range mt.GetLabel() {
				key += " " + l.GetName() + "=" + l.GetValue()
			}
			got[key] = mt.GetCounter().GetValue()
		}
	}
	want := map[string]float64{
		"runsvc_alias_runs_settled_total alias=prod reason= side=PRIMARY spec=s state=COMPLETED":        2,
		"runsvc_alias_runs_settled_total alias=prod reason=TOOL_FAILED side=CANARY spec=s state=FAILED": 1,
		"runsvc_alias_tokens_total alias=prod direction=input side=PRIMARY spec=s":                      20,
		"runsvc_alias_tokens_total alias=prod direction=input side=CANARY spec=s":                       7,
		"runsvc_alias_cost_dollars_total alias=prod side=CANARY spec=s":                                 0.5,
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
}
