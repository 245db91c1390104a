package main

import (
	"math"
	"slices"
	"testing"
)

func TestParseBenchHelp(t *testing.T) {
	tests := []struct {
		name       string
		help       string
		wantPhases []string
		wantFlags  []string
	}{
		{
			name:       "this bench",
			help:       "Usage of bench:\n  -compare string\n    \tearlier commit\n  -phases string\n    \tcomma-separated phases to run: errors, ops (default \"errors,ops\")\n  -quick\n    \tshorter phases (default 3s, 1s with -quick)\n",
			wantPhases: []string{"errors", "ops"}, wantFlags: []string{"compare", "phases", "quick"},
		},
		{
			name:       "an older bench, phases last and another default after it",
			help:       "Usage of bench:\n  -duration duration\n    \ttime per variant (default 3s)\n  -phases string\n    \tphases (default \"errors,floor,runs\")\n",
			wantPhases: []string{"errors", "floor", "runs"}, wantFlags: []string{"duration", "phases"},
		},
		{
			name:      "no -phases flag",
			help:      "Usage of bench:\n  -json string\n    \twrite every number (default \"x\")\n",
			wantFlags: []string{"json"},
		},
		{name: "not a bench", help: "exec format error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			phases, flags := parseBenchHelp(tt.help)
			if !slices.Equal(phases, tt.wantPhases) {
				t.Errorf("phases = %q, want %q", phases, tt.wantPhases)
			}
			var names []string
			for n := range flags {
				names = append(names, n)
			}
			slices.Sort(names)
			if !slices.Equal(names, tt.wantFlags) {
				t.Errorf("flags = %q, want %q", names, tt.wantFlags)
			}
		})
	}
}

func TestChildFlags(t *testing.T) {
	now := &childBench{flags: map[string]bool{"quick": true, "duration": true, "watch-duration": true}}
	old := &childBench{flags: map[string]bool{"quick": true, "duration": true}}
	tests := []struct {
		name          string
		set           map[string]string
		benches       []*childBench
		wantPass, not []string
	}{
		{
			name:     "the comparison's own flags are never passed",
			set:      map[string]string{"compare": "abc", "compare-rounds": "3", "json": "x.json", "phases": "runs", "cpuprofile": "p", "quick": "true"},
			benches:  []*childBench{now, old},
			wantPass: []string{"-quick=true"},
		},
		{
			name:     "a flag one bench lacks is passed to neither",
			set:      map[string]string{"duration": "1s", "watch-duration": "2s"},
			benches:  []*childBench{now, old},
			wantPass: []string{"-duration=1s"}, not: []string{"watch-duration"},
		},
		{name: "nothing set", set: map[string]string{}, benches: []*childBench{now, old}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pass, not := childFlags(tt.set, tt.benches...)
			if !slices.Equal(pass, tt.wantPass) || !slices.Equal(not, tt.not) {
				t.Errorf("childFlags = %q, %q; want %q, %q", pass, not, tt.wantPass, tt.not)
			}
		})
	}
}

func TestParseReport(t *testing.T) {
	tests := []struct {
		name      string
		json      string
		wantErr   bool
		wantRuns  int
		wantWatch int
	}{
		{name: "this bench's shape", json: `{"runs": {"phases": [{"store": "sqlite", "concurrency": 16, "runsPerSecond": 900}]}, "watch": {"phases": [{"watchers": 100}]}}`, wantRuns: 1, wantWatch: 1},
		{name: "unknown fields are ignored", json: `{"runs": {"phases": [{"store": "sqlite", "concurrency": 1, "newField": 3}]}, "somethingNew": {}}`, wantRuns: 1},
		{name: "a field whose type changed is left empty", json: `{"watch": "gone", "runs": {"phases": [{"store": "sqlite"}]}}`, wantRuns: 1},
		{name: "not JSON", json: `{"runs": `, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := parseReport([]byte(tt.json))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if rep.Runs == nil || len(rep.Runs.Phases) != tt.wantRuns {
				t.Errorf("runs = %+v, want %d phases", rep.Runs, tt.wantRuns)
			}
			if got := len(headlines(&report{Watch: rep.Watch})); rep.Watch != nil && len(rep.Watch.Phases) != tt.wantWatch || rep.Watch == nil && tt.wantWatch > 0 {
				t.Errorf("watch = %+v (%d headlines), want %d phases", rep.Watch, got, tt.wantWatch)
			}
		})
	}
}

// sqliteRuns is a report of one SQLite Runs phase at c16.
func sqliteRuns(perSec, p50 float64) *report {
	return &report{Runs: &runsResult{Phases: []runsPhase{{Store: "sqlite", Concurrency: 16, RunsPerSec: perSec, P50Ms: p50}}}}
}

// headlinesCase is two sides' reports and the row compareHeadlines must
// make of key.
type headlinesCase struct {
	name          string
	before, after []*report
	key           string
	// want* describe the row of key.
	wantRatio                 float64
	wantBeforeAbs, wantAftAbs bool
	wantRounds                []float64
	wantMissing               bool
}

func headlinesCases() []headlinesCase {
	withOps := sqliteRuns(1000, 10)
	withOps.Ops = &opsResult{Ratio: 0.95}
	withErrors := &report{ErrorPath: &errorPathResult{Ratios: map[int]map[string]errorRatios{
		16: {"rich-retry": {ThroughputVsPlain: 0.8, P50VsPlain: 1.2}, "rich-old": {ThroughputVsPlain: 0.5, P50VsPlain: 2}},
	}}}
	return []headlinesCase{
		{
			name:   "median over the rounds, ratio of the medians, each round's ratio",
			before: []*report{sqliteRuns(800, 20), sqliteRuns(1000, 10), sqliteRuns(900, 30)},
			after:  []*report{sqliteRuns(1600, 10), sqliteRuns(1800, 5), sqliteRuns(1000, 15)},
			key:    "runs sqlite c16 runs/s", wantRatio: 1600.0 / 900, wantRounds: []float64{2, 1.8, 1000.0 / 900},
		},
		{
			name:   "lower is kept as a ratio too: p50",
			before: []*report{sqliteRuns(800, 20)}, after: []*report{sqliteRuns(800, 10)},
			key: "runs sqlite c16 p50 ms", wantRatio: 0.5, wantRounds: []float64{0.5},
		},
		{
			name:   "a phase the earlier bench lacks is absent before",
			before: []*report{sqliteRuns(1000, 10)}, after: []*report{withOps},
			key: "ops on/off runs/s", wantBeforeAbs: true,
		},
		{
			name:   "a failed run (nil report) counts in no round",
			before: []*report{nil, sqliteRuns(1000, 10)}, after: []*report{sqliteRuns(500, 10), sqliteRuns(2000, 10)},
			key: "runs sqlite c16 runs/s", wantRatio: 1250.0 / 1000, wantRounds: []float64{2},
		},
		{
			name:   "a number only before has is kept, absent after",
			before: []*report{withErrors}, after: []*report{{ErrorPath: &errorPathResult{Ratios: map[int]map[string]errorRatios{16: {"rich-retry": {ThroughputVsPlain: 0.9, P50VsPlain: 1.1}}}}}},
			key: "errors rich-old c16 thr/plain", wantAftAbs: true,
		},
		{
			name:   "errors: thr/plain per case and concurrency",
			before: []*report{withErrors}, after: []*report{{ErrorPath: &errorPathResult{Ratios: map[int]map[string]errorRatios{16: {"rich-retry": {ThroughputVsPlain: 0.88, P50VsPlain: 1.1}}}}}},
			key: "errors rich-retry c16 thr/plain", wantRatio: 1.1, wantRounds: []float64{1.1},
		},
		{
			name:   "both absent: no row",
			before: []*report{nil}, after: []*report{nil},
			key: "runs sqlite c16 runs/s", wantMissing: true,
		},
	}
}

func TestCompareHeadlines(t *testing.T) {
	for _, tt := range headlinesCases() {
		t.Run(tt.name, func(t *testing.T) {
			rows := compareHeadlines(tt.before, tt.after)
			i := slices.IndexFunc(rows, func(r compareRow) bool { return r.Key == tt.key })
			if tt.wantMissing {
				if i >= 0 {
					t.Fatalf("row %q = %+v, want none", tt.key, rows[i])
				}
				return
			}
			if i < 0 {
				t.Fatalf("no row %q in %+v", tt.key, rows)
			}
			r := rows[i]
			if r.BeforeAbsent != tt.wantBeforeAbs || r.AfterAbsent != tt.wantAftAbs {
				t.Errorf("absent before %v after %v, want %v %v", r.BeforeAbsent, r.AfterAbsent, tt.wantBeforeAbs, tt.wantAftAbs)
			}
			if !near(r.Ratio, tt.wantRatio) {
				t.Errorf("ratio = %v, want %v", r.Ratio, tt.wantRatio)
			}
			if len(r.RoundRatios) != len(tt.wantRounds) {
				t.Fatalf("round ratios = %v, want %v", r.RoundRatios, tt.wantRounds)
			}
			for j := range r.RoundRatios {
				if !near(r.RoundRatios[j], tt.wantRounds[j]) {
					t.Errorf("round ratios = %v, want %v", r.RoundRatios, tt.wantRounds)
				}
			}
		})
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
