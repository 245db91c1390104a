package metrics_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/metrics"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/sqlite"
	"github.com/runsvc/runsvc/internal/store/sqlite/sqlitetest"
)

// countingStore is the tests' SQLite store, counting how often it is asked
// to count and failing while down is set.
type countingStore struct {
	*sqlite.DB
	calls atomic.Int64
	down  atomic.Bool
}

func (s *countingStore) CountRuns(ctx context.Context, states []string) ([]store.RunCount, error) {
	s.calls.Add(1)
	if s.down.Load() {
		return nil, errors.New("store down")
	}
	return s.DB.CountRuns(ctx, states)
}

// TestRunsActiveGauge: runsvc_runs_active reports the store's unsettled
// Runs by state and suspension, zeros included; one count answers every
// scrape within the TTL, the next scrape after it counts again, and while
// the store fails the gauge is absent instead of stale.
func TestRunsActiveGauge(t *testing.T) {
	st := &countingStore{DB: sqlitetest.Open(t)}
	ctx := context.Background()
	clk := clock.NewFake(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	m := metrics.New(func(error) string { return "" })
	m.CountRuns(st, clk, 5*time.Second)
	create := func(id string, idx store.Index) {
		t.Helper()
		nr := store.NewRun{Run: store.Run{Tenant: "t", RunID: id, Spec: "s", Version: "v", RootRunID: id, CreateTime: clk.Now(), Index: idx},
			Records: []store.Record{{Seq: 1, Time: clk.Now(), Kind: "admitted", Body: []byte(`{}`)}}}
		if _, _, err := st.CreateRun(ctx, nr); err != nil {
			t.Fatal(err)
		}
	}
	create("run_1", store.Index{State: "SUSPENDED", Suspension: "APPROVAL"})
	create("run_2", store.Index{State: "RUNNING"})
	create("run_3", store.Index{State: "COMPLETED"})

	steps := []struct {
		name      string
		do        func()
		want      map[string]float64 // state/suspension -> value; nil: absent
		wantCalls int64
	}{
		{"first scrape counts", func() {}, map[string]float64{"SUSPENDED/APPROVAL": 1, "RUNNING/": 1, "QUEUED/": 0, "SUSPENDED/QUESTION": 0, "SUSPENDED/IN_DOUBT": 0}, 1},
		{"within the TTL the count is reused", func() {
			create("run_4", store.Index{State: "SUSPENDED", Suspension: "QUESTION"})
			clk.Advance(4 * time.Second)
		},
			map[string]float64{"SUSPENDED/QUESTION": 0}, 1},
		{"after the TTL the store is counted again", func() { clk.Advance(time.Second) }, map[string]float64{"SUSPENDED/QUESTION": 1, "SUSPENDED/APPROVAL": 1}, 2},
		{"a failing store leaves the gauge absent", func() { st.down.Store(true); clk.Advance(5 * time.Second) }, nil, 3},
		{"and the failure is cached too", func() {}, nil, 3},
		{"back", func() { st.down.Store(false); clk.Advance(5 * time.Second) }, map[string]float64{"SUSPENDED/QUESTION": 1}, 4},
	}
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			step.do()
			got := gauge(t, m)
			if step.want == nil && got != nil {
				t.Errorf("runsvc_runs_active present while the store fails: %v", got)
			}
			for k, v := range step.want {
				if g, ok := got[k]; !ok || g != v {
					t.Errorf("runsvc_runs_active{%s} = %v (present %v), want %v", k, g, ok, v)
				}
			}
			if n := st.calls.Load(); n != step.wantCalls {
				t.Errorf("the store was counted %d times, want %d", n, step.wantCalls)
			}
		})
	}
}

// gauge scrapes the registry for runsvc_runs_active, by
// "state/suspension"; nil when it is absent.
func gauge(t *testing.T, m *metrics.Metrics) map[string]float64 {
	t.Helper()
	families, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() != "runsvc_runs_active" {
			continue
		}
		out := map[string]float64{}
		for _, mt := range f.GetMetric() {
			labels := map[string]string{}
			for _, l := range mt.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			out[labels["state"]+"/"+labels["suspension"]] = mt.GetGauge().GetValue()
		}
		return out
	}
	return nil
}

// TestRunsActiveCountsSleepingRuns: Runs asleep on a timer are
// runs_active{state="SUSPENDED", suspension="TIMER"}, zero when none.
func TestRunsActiveCountsSleepingRuns(t *testing.T) {
	st := &countingStore{DB: sqlitetest.Open(t)}
	clk := clock.NewFake(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	m := metrics.New(func(error) string { return "" })
	m.CountRuns(st, clk, time.Second)
	if v, ok := gauge(t, m)["SUSPENDED/TIMER"]; !ok || v != 0 {
		t.Fatalf("no Run asleep: %v (present %v), want 0", v, ok)
	}
	for _, id := range []string{"run_1", "run_2"} {
		nr := store.NewRun{Run: store.Run{Tenant: "t", RunID: id, Spec: "s", Version: "v", RootRunID: id, CreateTime: clk.Now(),
			Index: store.Index{State: "SUSPENDED", Suspension: "TIMER", WakeAt: clk.Now().Add(time.Hour)}},
			Records: []store.Record{{Seq: 1, Time: clk.Now(), Kind: "admitted", Body: []byte(`{}`)}}}
		if _, _, err := st.CreateRun(context.Background(), nr); err != nil {
			t.Fatal(err)
		}
	}
	clk.Advance(time.Second)
	if got := gauge(t, m); got["SUSPENDED/TIMER"] != 2 {
		t.Errorf("two Runs asleep: %v", got)
	}
}
