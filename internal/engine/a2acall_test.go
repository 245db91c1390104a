package engine_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/engine"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/logwriter"
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

// lostAnswerAgent is a remote A2A agent whose first answer to a
// SendMessage is lost: it receives the message, then never answers, as
// when runsvc dies between the send and recording the task. Later sends
// complete at once.
type lostAnswerAgent struct {
	mu       sync.Mutex
	received []string // message ids
	got      chan struct{}
}

func (x *lostAnswerAgent) Send(ctx context.Context, c tool.Call, m tool.RemoteMessage) (tool.RemoteTask, error) {
	x.mu.Lock()
	x.received = append(x.received, m.ID)
	first := len(x.received) == 1
	x.mu.Unlock()
	if first {
		x.got <- struct{}{}
		<-ctx.Done()
		return tool.RemoteTask{}, ctx.Err()
	}
	return tool.RemoteTask{ID: "task-1", State: tool.RemoteCompleted, Output: json.RawMessage(`"ok"`)}, nil
}

func (x *lostAnswerAgent) Follow(_ context.Context, _ tool.Call, t tool.RemoteTask, _ string) (tool.RemoteTask, error) {
	return t, nil
}

func (x *lostAnswerAgent) Cancel(context.Context, tool.Call, string) error { return nil }

func (x *lostAnswerAgent) Execute(context.Context, tool.Call) (json.RawMessage, error) {
	return nil, &errs.ToolRejected{Tool: "agent", Message: "not used"}
}

func (x *lostAnswerAgent) messages() []string {
	x.mu.Lock()
	defer x.mu.Unlock()
	return append([]string(nil), x.received...)
}

// TestA2ALostSendAnswer: a worker dies after an a2a call's message was
// sent and before the agent named its task. An AT_MOST_ONCE call is then
// closed in doubt and never sent again; an AT_LEAST_ONCE call is sent
// again with the same message id, so an agent deduplicating by it sees
// one message.
func TestA2ALostSendAnswer(t *testing.T) {
	errs.SetFailureEncoder(errdetails.StoredFailure)
	for _, tt := range []struct {
		delivery spec.Delivery
		sends    int
		inDoubt  bool
	}{
		{delivery: spec.AtMostOnce, sends: 1, inDoubt: true},
		{delivery: spec.AtLeastOnce, sends: 2},
	} {
		t.Run(string(tt.delivery), func(t *testing.T) {
			agent := &lostAnswerAgent{got: make(chan struct{}, 1)}
			mgr, db, worker := a2aWorkers(t, agent)
			sp := spec.Spec{
				Name:  "ask",
				Model: spec.Model{Provider: spec.ProviderScripted, Script: []spec.Turn{{ToolCalls: []spec.ScriptCall{{Name: "agent", Arguments: json.RawMessage(`{"message":"hi"}`)}}}, {Text: "done"}}},
				Tools: []spec.Tool{{Name: "agent", Kind: spec.KindA2A, A2A: &spec.A2ATool{URL: "http://127.0.0.1:9/a2a"}, Delivery: tt.delivery}},
			}
			if _, _, err := mgr.specs.Publish(context.Background(), store.DefaultTenant, sp); err != nil {
				t.Fatal(err)
			}
			run, _, err := mgr.Start(context.Background(), runs.StartRequest{Tenant: store.DefaultTenant, Spec: "ask", Input: "go"})
			if err != nil {
				t.Fatal(err)
			}
			first := &crashing{Store: db}
			stop := worker(first, "w1")
			select {
			case <-agent.got:
			case <-time.After(20 * time.Second):
				t.Fatal("the message was never sent")
			}
			first.dead.Store(true)
			stop()
			defer worker(&crashing{Store: db}, "w2")()
			var got runs.Run
			waitFor(t, func() bool {
				got, err = mgr.Get(context.Background(), store.DefaultTenant, run.RunID)
				return err == nil && got.Settled()
			})
			sent := agent.messages()
			if got.Status != runlog.StatusCompleted || len(sent) != tt.sends || sent[len(sent)-1] != sent[0] {
				t.Fatalf("the Run ended %s after the messages %v, want COMPLETED after %d sends of one message id", got.Status, sent, tt.sends)
			}
			if inDoubt := closedInDoubt(t, db, run.RunID); inDoubt != tt.inDoubt {
				t.Errorf("the call closed in doubt: %v, want %v", inDoubt, tt.inDoubt)
			}
		})
	}
}

// closedInDoubt reports whether the Run's tool call was closed in doubt.
func closedInDoubt(t *testing.T, db store.Store, runID string) bool {
	recs, err := db.ReadLog(context.Background(), store.DefaultTenant, runID, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		op, err := runlog.Decode(r.Kind, r.Body)
		if err != nil {
			t.Fatal(err)
		}
		if f, ok := op.(*runlog.ToolCallFinished); ok {
			return f.InDoubt
		}
	}
	return false
}

// a2aRuns is the Run manager and Spec registry of a2aWorkers.
type a2aRuns struct {
	*runs.Manager
	specs *versions.Registry
}

// a2aWorkers opens a store and returns its Run manager and a way to start
// workers whose a2a tools call agent.
func a2aWorkers(t *testing.T, agent *lostAnswerAgent) (a2aRuns, store.Store, func(*crashing, string) func()) {
	db, log, clk := sqlitetest.Open(t), slog.New(slog.NewTextHandler(io.Discard, nil)), clock.Real{}
	reg := versions.New(db, clk, versions.Options{})
	mgr := runs.New(runs.Deps{Store: db, Specs: reg, Policy: policy.AllowAll{}, Clock: clk, Log: log})
	worker := func(s *crashing, id string) (stop func()) {
		eng := engine.New(engine.Deps{
			Store: s, Writer: logwriter.New(s, logwriter.Options{Clock: clk, Log: log}), Runs: mgr, Specs: reg, Models: model.Providers{spec.ProviderScripted: scripted.New(clk)},
			Tools: map[spec.Kind]tool.Executor{spec.KindA2A: agent}, Clock: clk, Log: log,
		}, engine.Config{WorkerID: id, PollInterval: 20 * time.Millisecond, LeaseTTL: 300 * time.Millisecond})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); eng.Run(ctx) }()
		return func() { cancel(); <-done }
	}
	return a2aRuns{Manager: mgr, specs: reg}, db, worker
}
