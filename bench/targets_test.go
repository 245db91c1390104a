package main

import (
	"strings"
	"testing"
)

// fullErrors is an error phase measured at c1, c16 and c64, each rich
// case at thr ratio and p50 ratio p50, but rich-quota at c16 at worst.
func fullErrors(thr, p50, worstThr float64) *errorPathResult {
	ep := &errorPathResult{Ratios: map[int]map[string]errorRatios{}}
	for _, conc := range []int{1, 16, 64} {
		ep.Ratios[conc] = map[string]errorRatios{}
		for _, c := range errorCases() {
			if c.rich {
				ep.Ratios[conc][c.name] = errorRatios{ThroughputVsPlain: thr, P50VsPlain: p50}
			}
		}
	}
	ep.Ratios[16]["rich-quota"] = errorRatios{ThroughputVsPlain: worstThr, P50VsPlain: p50}
	return ep
}

// evaluateCase is a report and what evaluate must make of one target.
type evaluateCase struct {
	name string
	rep  *report
	// target is the row's name and issue18; want its result word's
	// start and where.
	target    string
	issue18   bool
	wantWord  string
	wantWhere string
}

func evaluateCases() []evaluateCase {
	return []evaluateCase{
		{name: "a phase not run is not measured", rep: &report{}, target: "Runs/s at c16 (PostgreSQL, fsync=on)", issue18: true, wantWord: "not measured"},
		{name: "issue 18's SQLite c16 row", rep: sqliteRuns(1200, 10), target: "Runs/s at c16 (SQLite, synchronous=FULL)", issue18: true, wantWord: "MISS", wantWhere: "c16"},
		{name: "the earlier SQLite c16 row is kept", rep: sqliteRuns(1200, 10), target: "Runs/s at c16 (SQLite, synchronous=FULL)", wantWord: "PASS", wantWhere: "c16"},
		{name: "c1 not measured when only c16 was", rep: sqliteRuns(1200, 10), target: "StartRun->settled p50 at c1 (SQLite, one-turn Run)", issue18: true, wantWord: "not measured"},
		{
			name: "PostgreSQL skipped", rep: &report{Runs: &runsResult{Skipped: "no binaries"}},
			target: "Runs/s at c16 (PostgreSQL, fsync=on)", issue18: true, wantWord: "not measured", wantWhere: "skipped",
		},
		{
			name: "PostgreSQL at 800", rep: &report{Runs: &runsResult{Postgres: &runsPhase{Concurrency: 16, RunsPerSec: 800}}},
			target: "Runs/s at c16 (PostgreSQL, fsync=on)", issue18: true, wantWord: "PASS",
		},
		{
			name: "every rich case: the worst names its case and concurrency", rep: &report{ErrorPath: fullErrors(0.9, 1.1, 0.8)},
			target: "every rich case / plain throughput at c1, c16, c64 (the worst)", issue18: true, wantWord: "MISS", wantWhere: "rich-quota c16",
		},
		{
			name: "every rich case passes", rep: &report{ErrorPath: fullErrors(0.9, 1.1, 0.86)},
			target: "every rich case / plain p50 at c1, c16, c64 (the worst)", issue18: true, wantWord: "PASS",
		},
		{
			name: "a concurrency missing: not measured", rep: func() *report {
				ep := fullErrors(0.9, 1.1, 0.9)
				delete(ep.Ratios, 64)
				return &report{ErrorPath: ep}
			}(),
			target: "every rich case / plain throughput at c1, c16, c64 (the worst)", issue18: true, wantWord: "not measured", wantWhere: "no rich-badrequest c64, rich-retry c64, rich-quota c64",
		},
		{
			name: "watch with 1,000 watchers at too low a rate",
			rep: &report{Watch: &watchResult{TargetRate: 200, Phases: []watchPhase{
				{Watchers: 1000, AppendsPerSec: 136, Latency: dist{P99Ms: 8}},
			}}},
			target: "appends/s reached with 1000 watchers (the load of the p99 row: 200/s)", issue18: true, wantWord: "MISS", wantWhere: "1000 watchers",
		},
		{
			name: "watch p99 with 1,000 watchers",
			rep: &report{Watch: &watchResult{TargetRate: 200, Phases: []watchPhase{
				{Watchers: 1000, AppendsPerSec: 198, Latency: dist{P99Ms: 8}},
			}}},
			target: "watch delivery p99 with 1000 watchers", issue18: true, wantWord: "PASS",
		},
		{
			name:   "watch phase without 100 watchers",
			rep:    &report{Watch: &watchResult{TargetRate: 200, Phases: []watchPhase{{Watchers: 1000, AppendsPerSec: 198}}}},
			target: "watch delivery p99 with 100 watchers", issue18: true, wantWord: "not measured",
		},
		{name: "deltas not run", rep: &report{}, target: "provider delta -> StreamText receipt p99 with 100 watchers", issue18: true, wantWord: "not measured"},
	}
}

func TestEvaluate(t *testing.T) {
	for _, tt := range evaluateCases() {
		t.Run(tt.name, func(t *testing.T) {
			var got *target
			for _, tg := range evaluate(tt.rep) {
				if tg.Name == tt.target && tg.Issue18 == tt.issue18 {
					got = &tg
					break
				}
			}
			if got == nil {
				t.Fatalf("no target %q (issue 18: %v)", tt.target, tt.issue18)
			}
			if w := got.resultWord(); !strings.HasPrefix(w, tt.wantWord) {
				t.Errorf("result = %q, want %s", w, tt.wantWord)
			}
			if tt.wantWord == "not measured" && got.Pass {
				t.Errorf("an unmeasured target passes")
			}
			if got.Where != tt.wantWhere && tt.wantWhere != "" {
				t.Errorf("where = %q, want %q", got.Where, tt.wantWhere)
			}
		})
	}
}
