package engine_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/engine"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/model/scripted"
	"github.com/runsvc/runsvc/internal/policy"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/spec/versions"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/sqlite/sqlitetest"
	"github.com/runsvc/runsvc/internal/tool"
)

// heldTool answers once released, as a slow worker tool.
type heldTool struct {
	started chan struct{}
	release chan struct{}
}

func (x heldTool) Execute(ctx context.Context, _ tool.Call) (json.RawMessage, error) {
	x.started <- struct{}{}
	select {
	case <-x.release:
		return json.RawMessage(`"slept"`), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// seenModel is the scripted model, keeping the text of every request.
type seenModel struct {
	model.Model
	mu   sync.Mutex
	reqs []string
}

func (m *seenModel) Complete(ctx context.Context, req model.Request) (model.Response, error) {
	b, _ := json.Marshal(req.Messages)
	m.mu.Lock()
	m.reqs = append(m.reqs, string(b))
	m.mu.Unlock()
	return m.Model.Complete(ctx, req)
}

// TestSteerWhileAWorkerToolRuns: a steer sent while a worker tool runs
// reaches the Run's next model call, the one after the tool's result.
func TestSteerWhileAWorkerToolRuns(t *testing.T) {
	errs.SetFailureEncoder(errdetails.StoredFailure)
	db, log, clk := sqlitetest.Open(t), slog.New(slog.NewTextHandler(io.Discard, nil)), clock.Real{}
	reg := versions.New(db, clk, versions.Options{})
	cfg := engine.Config{WorkerID: "steer", PollInterval: 20 * time.Millisecond}
	slots := engine.NewSlots(cfg)
	mgr := runs.New(runs.Deps{Store: db, Specs: reg, Policy: policy.AllowAll{}, Clock: clk, Log: log, Local: slots})
	writer := mgr.Writer()
	x := heldTool{started: make(chan struct{}, 1), release: make(chan struct{})}
	m := &seenModel{Model: scripted.New(clk)}
	eng := engine.New(engine.Deps{
		Store: db, Writer: writer, Runs: mgr, Specs: reg, Models: model.Providers{spec.ProviderScripted: m},
		Tools: map[spec.Kind]tool.Executor{spec.KindWorker: x}, Clock: clk, Log: log,
		Slots: slots,
	}, cfg)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); eng.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })

	sp := spec.Spec{
		Name:  "sleeper",
		Tools: []spec.Tool{{Name: "sleep", Kind: spec.KindWorker}},
		Model: spec.Model{Provider: spec.ProviderScripted, Script: []spec.Turn{
			{ToolCalls: []spec.ScriptCall{{Name: "sleep", Arguments: json.RawMessage(`{}`)}}}, {Text: "done"},
		}},
	}
	if _, _, err := reg.Publish(context.Background(), store.DefaultTenant, sp); err != nil {
		t.Fatal(err)
	}
	run, _, err := mgr.Start(context.Background(), runs.StartRequest{Tenant: store.DefaultTenant, Spec: "sleeper", Input: "go"})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-x.started:
	case <-time.After(20 * time.Second):
		t.Fatal("the tool was never called")
	}
	if _, err := mgr.SendMessage(context.Background(), store.DefaultTenant, run.RunID, "answer in French", runlog.ModeSteer); err != nil {
		t.Fatal(err)
	}
	// The steer is stored before the tool answers; the watcher of the
	// Run's outsiders sees it soon after.
	time.Sleep(500 * time.Millisecond)
	close(x.release)
	waitFor(t, func() bool {
		got, err := mgr.Get(context.Background(), store.DefaultTenant, run.RunID)
		return err == nil && got.Settled()
	})
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.reqs) != 2 || !strings.Contains(m.reqs[1], "answer in French") {
		t.Errorf("%d model calls; the one after the tool's result was sent %s, want the steer in it", len(m.reqs), m.reqs[len(m.reqs)-1])
	}
}
