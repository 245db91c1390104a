package schedule_test

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/schedule"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/sqlite/sqlitetest"
)

// fakeRuns is runs.Manager's part schedules use, in memory: a request id
// starts one Run, as CreateRun makes it; started Runs stay RUNNING until
// the test settles them, unless settle is set.
type fakeRuns struct {
	mu          sync.Mutex
	settle      bool
	byRequest   map[string]*runs.Run
	byID        map[string]*runs.Run
	order       []string
	interrupted []string
}

func newFakeRuns() *fakeRuns {
	return &fakeRuns{byRequest: map[string]*runs.Run{}, byID: map[string]*runs.Run{}}
}

func (f *fakeRuns) Start(_ context.Context, req runs.StartRequest) (runs.Run, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r, ok := f.byRequest[req.RequestID]; ok {
		return *r, false, nil
	}
	r := &runs.Run{Tenant: req.Tenant, RunID: fmt.Sprintf("run_%04d", len(f.order)+1), Spec: req.Spec, RequestID: req.RequestID,
		ScheduleID: req.Scheduled.ScheduleID, ScheduleTick: req.Scheduled.Tick}
	r.Status = runlog.StatusRunning
	if f.settle {
		r.Status = runlog.StatusCompleted
	}
	f.byRequest[req.RequestID], f.byID[r.RunID] = r, r
	f.order = append(f.order, r.RunID)
	return *r, true, nil
}

func (f *fakeRuns) Get(_ context.Context, _ string, runID string) (runs.Run, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, ok := f.byID[runID]
	if !ok {
		return runs.Run{}, &errs.RunNotFound{RunID: runID}
	}
	return *r, nil
}

func (f *fakeRuns) Interrupt(_ context.Context, _ string, runID, _ string) (runs.Run, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r := f.byID[runID]
	r.Status = runlog.StatusAborted
	f.interrupted = append(f.interrupted, runID)
	return *r, nil
}

// settleAll settles every Run started so far.
func (f *fakeRuns) settleAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.byID {
		if !r.Settled() {
			r.Status = runlog.StatusCompleted
		}
	}
}

// ticks returns the ticks of the Runs started, in the order they started,
// as UTC "15:04:05".
func (f *fakeRuns) ticks() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, id := range f.order {
		out = append(out, f.byID[id].ScheduleTick.UTC().Format("15:04:05"))
	}
	return out
}

// rig is a Scheduler on a fake clock, a real SQLite store and fakeRuns.
type rig struct {
	clk   *clock.Fake
	db    store.Schedules
	runs  *fakeRuns
	sched *schedule.Scheduler
}

func newRig(t *testing.T, start time.Time) *rig {
	t.Helper()
	r := &rig{clk: clock.NewFake(start), db: sqlitetest.Open(t), runs: newFakeRuns()}
	r.sched = r.replica("a")
	return r
}

// replica is another Scheduler on the rig's store, clock and Runs.
func (r *rig) replica(owner string) *schedule.Scheduler {
	return schedule.New(schedule.Deps{Store: r.db, Runs: r.runs, Clock: r.clk, Owner: owner})
}

func (r *rig) create(t *testing.T, d schedule.Definition) schedule.Schedule {
	t.Helper()
	d.Tenant = store.DefaultTenant
	if d.Spec == "" {
		d.Spec = "nightly"
	}
	s, err := r.sched.Create(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fire makes passes until nothing is due at the clock's time.
func (r *rig) fire(t *testing.T) {
	t.Helper()
	for i := 0; i < 100; i++ {
		due, err := r.db.DueSchedules(context.Background(), r.clk.Now(), 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(due) == 0 {
			return
		}
		if err := r.sched.FireDue(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("schedules stay due")
}

// run advances the clock by step until end, firing after each step.
func (r *rig) run(t *testing.T, step time.Duration, end time.Time) {
	t.Helper()
	for r.clk.Now().Before(end) {
		r.clk.Advance(step)
		r.fire(t)
	}
}

// outcomes returns the schedule's recorded ticks, oldest first, as
// "15:04:05 OUTCOME".
func (r *rig) outcomes(t *testing.T, id string) []string {
	t.Helper()
	ticks, err := r.db.ScheduleTicks(context.Background(), store.DefaultTenant, id, 100000)
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(ticks, func(i, j int) bool { return ticks[i].Tick.Before(ticks[j].Tick) })
	var out []string
	for _, tk := range ticks {
		out = append(out, tk.Tick.UTC().Format("15:04:05")+" "+tk.Outcome)
	}
	return out
}

func equal(t *testing.T, what string, got, want []string) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("%s:\n got  %v\n want %v", what, got, want)
	}
}
