package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/engine"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/live"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/model/scripted"
	"github.com/runsvc/runsvc/internal/policy"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/spec/versions"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/sqlite"
	"github.com/runsvc/runsvc/internal/tool"
)

// counting counts the writes that reach a store: writes of Records
// (CreateRun, Append), each a commit of its own unless a group commit
// shares it, and lease writes (Claim, Renew, Release).
type counting struct {
	store.Store
	records, leases atomic.Int64

	mu sync.Mutex
	// kinds lists, per Run, the Record kinds of each append in order.
	kinds map[string][][]string
}

func (s *counting) CreateRun(ctx context.Context, r store.NewRun) (store.Run, bool, error) {
	s.records.Add(1)
	return s.Store.CreateRun(ctx, r)
}

func (s *counting) Append(ctx context.Context, a store.Append) error {
	s.records.Add(1)
	var kinds []string
	for _, r := range a.Records {
		kinds = append(kinds, r.Kind)
	}
	s.mu.Lock()
	if s.kinds == nil {
		s.kinds = map[string][][]string{}
	}
	s.kinds[a.RunID] = append(s.kinds[a.RunID], kinds)
	s.mu.Unlock()
	return s.Store.Append(ctx, a)
}

// startsAlone counts a Run's appends that hold a model_call_started but
// not the model_call_finished after it, and the model_call_started seen.
func (s *counting) startsAlone(runID string) (alone, starts int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, kinds := range s.kinds[runID] {
		open := false
		for _, k := range kinds {
			switch k {
			case "model_call_started":
				starts++
				open = true
			case "model_call_finished":
				open = false
			}
		}
		if open {
			alone++
		}
	}
	return alone, starts
}

func (s *counting) Claim(ctx context.Context, owner string, now time.Time, ttl time.Duration, limit int) ([]*store.Lease, error) {
	s.leases.Add(1)
	return s.Store.Claim(ctx, owner, now, ttl, limit)
}

func (s *counting) Renew(ctx context.Context, l *store.Lease, now time.Time, ttl time.Duration) error {
	s.leases.Add(1)
	return s.Store.Renew(ctx, l, now, ttl)
}

func (s *counting) Release(ctx context.Context, l *store.Lease) error {
	s.leases.Add(1)
	return s.Store.Release(ctx, l)
}

// stepTool answers every call at once, as the bench's worker tool does.
type stepTool struct{}

func (stepTool) Execute(context.Context, tool.Call) (json.RawMessage, error) {
	return json.RawMessage(`{"ok":true}`), nil
}

// BenchmarkRunCommits runs the Runs phase's shape (one turn of three
// worker-tool calls, then the answer) one Run at a time on SQLite with
// synchronous=FULL, and reports beside its time the store writes a Run
// makes: record writes (each a durable commit) and lease writes (claims,
// found something or not, renewals, releases). They are the numbers that
// do not drift with the machine's load.
//
//	go test ./internal/engine -run '^$' -bench RunCommits -benchtime 200x
func BenchmarkRunCommits(b *testing.B) {
	errs.SetFailureEncoder(errdetails.StoredFailure)
	db, err := sqlite.Open(b.TempDir(), sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = db.Close() })
	s := &counting{Store: db}
	reg, mgr := startEngine(b, s, stepTool{}, "bench", live.NewHub())
	ctx := context.Background()
	step := func(i int) spec.ScriptCall {
		args, _ := json.Marshal(map[string]int{"i": i})
		return spec.ScriptCall{Name: "step", Arguments: args}
	}
	sp := spec.Spec{
		Name: "bench-tools", Instructions: "Use the tool three times, then answer.",
		Model: spec.Model{Provider: spec.ProviderScripted, Script: []spec.Turn{
			{Text: "Looking.", ToolCalls: []spec.ScriptCall{step(1), step(2), step(3)}},
			{Text: "Done after three steps."},
		}},
		Tools: []spec.Tool{{Name: "step", Kind: spec.KindWorker, Description: "One step."}},
	}
	if _, _, err := reg.Publish(ctx, store.DefaultTenant, sp); err != nil {
		b.Fatal(err)
	}
	records, leases := s.records.Load(), s.leases.Load()
	b.ResetTimer()
	for range b.N {
		run, _, err := mgr.Start(ctx, runs.StartRequest{Tenant: store.DefaultTenant, Spec: sp.Name, Input: "go"})
		if err != nil {
			b.Fatal(err)
		}
		got, err := mgr.WaitSettled(ctx, store.DefaultTenant, run.RunID, 10*time.Second)
		if err != nil || !got.Settled() {
			b.Fatalf("run %s: %v, settled %v", run.RunID, err, got.Settled())
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(s.records.Load()-records)/float64(b.N), "record-writes/run")
	b.ReportMetric(float64(s.leases.Load()-leases)/float64(b.N), "lease-writes/run")
}

// startEngine runs an engine on s, with the scripted model, whose worker
// tools are worker, until the test ends. hub, when not nil, carries what
// model calls stream, as in the server.
func startEngine(tb testing.TB, s store.Store, worker tool.Executor, id string, hub *live.Hub) (*versions.Registry, *runs.Manager) {
	return startEngineAs(tb, s, worker, id, hub, nil)
}

// startEngineAs is startEngine whose Manager hands Runs to local(slots),
// or to the engine's slots themselves when local is nil.
func startEngineAs(tb testing.TB, s store.Store, worker tool.Executor, id string, hub *live.Hub, local func(*engine.Slots) runs.Local) (*versions.Registry, *runs.Manager) {
	tb.Helper()
	clk, log := clock.Real{}, slog.New(slog.NewTextHandler(io.Discard, nil))
	reg := versions.New(s, clk, versions.Options{})
	cfg := engine.Config{WorkerID: id}
	slots := engine.NewSlots(cfg)
	var to runs.Local = slots
	if local != nil {
		to = local(slots)
	}
	mgr := runs.New(runs.Deps{Store: s, Specs: reg, Policy: policy.AllowAll{}, Clock: clk, Log: log, Live: hub, Local: to})
	eng := engine.New(engine.Deps{
		Store: s, Writer: mgr.Writer(), Runs: mgr, Specs: reg, Models: model.Providers{spec.ProviderScripted: scripted.New(clk)},
		Tools: map[spec.Kind]tool.Executor{spec.KindWorker: worker}, Clock: clk, Log: log, Live: hub, Slots: slots,
	}, cfg)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); eng.Run(ctx) }()
	tb.Cleanup(func() { cancel(); <-done })
	return reg, mgr
}

// TestAModelCallWatchedForPiecesStoresItsStartFirst checks when a model
// call's start is stored: at its first piece while someone watches the
// Run's pieces (they get the pieces only after the start), and otherwise
// with its answer, in one commit. The second case depends on the call
// returning within flushPendingAfter, which a loaded machine can miss, so
// it is asked of one Run in three.
func TestAModelCallWatchedForPiecesStoresItsStartFirst(t *testing.T) {
	errs.SetFailureEncoder(errdetails.StoredFailure)
	db, err := sqlite.Open(t.TempDir(), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	s := &counting{Store: db}
	hub := live.NewHub()
	reg, mgr := startEngine(t, s, stepTool{}, "watched", hub)
	ctx := context.Background()
	sp := spec.Spec{
		Name: "two-calls", Instructions: "Use the tool, then answer.",
		Model: spec.Model{Provider: spec.ProviderScripted, Script: []spec.Turn{
			{Text: "Looking now.", ToolCalls: []spec.ScriptCall{{Name: "step", Arguments: json.RawMessage(`{}`)}}},
			{Text: "Done after one step."},
		}},
		Tools: []spec.Tool{{Name: "step", Kind: spec.KindWorker, Description: "One step."}},
	}
	if _, _, err := reg.Publish(ctx, store.DefaultTenant, sp); err != nil {
		t.Fatal(err)
	}
	run := func(t *testing.T, runID string) (alone, starts int) {
		t.Helper()
		if _, _, err := mgr.Start(ctx, runs.StartRequest{Tenant: store.DefaultTenant, RunID: runID, Spec: sp.Name, Input: "go"}); err != nil {
			t.Fatal(err)
		}
		got, err := mgr.WaitSettled(ctx, store.DefaultTenant, runID, 20*time.Second)
		if err != nil || !got.Settled() {
			t.Fatalf("run %s: %v, settled %v", runID, err, got.Settled())
		}
		return s.startsAlone(runID)
	}
	t.Run("watched", func(t *testing.T) {
		w := hub.Watch(store.DefaultTenant, "run_watched")
		defer w.Close()
		alone, starts := run(t, "run_watched")
		if starts != 2 || alone != 2 {
			t.Errorf("%d of %d model call starts stored before their answer, want 2 of 2; appends %q", alone, starts, s.kinds["run_watched"])
		}
	})
	t.Run("unwatched", func(t *testing.T) {
		var seen []int
		for i := range 3 {
			alone, starts := run(t, fmt.Sprintf("run_unwatched_%d", i))
			if starts != 2 {
				t.Fatalf("%d model call starts stored, want 2", starts)
			}
			if alone == 0 {
				return
			}
			seen = append(seen, alone)
		}
		t.Errorf("every Run stored a model call's start before its answer with no one watching (%v of 2 calls)", seen)
	})
}
