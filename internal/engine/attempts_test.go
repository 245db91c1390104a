package engine_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"sync/atomic"
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
)

// crashing is one worker process's view of a shared store: once dead, it
// writes nothing more, as a process killed with SIGKILL, so its lease is
// left to expire.
type crashing struct {
	store.Store
	dead atomic.Bool
}

var errCrashed = errors.New("the process is dead")

func (s *crashing) down(op string) error {
	return &errs.StoreUnavailable{Operation: op, Cause: errCrashed}
}

func (s *crashing) Append(ctx context.Context, a store.Append) error {
	if s.dead.Load() {
		return s.down("append")
	}
	return s.Store.Append(ctx, a)
}

func (s *crashing) Claim(ctx context.Context, owner string, now time.Time, ttl time.Duration, limit int) ([]*store.Lease, error) {
	if s.dead.Load() {
		return nil, s.down("claim")
	}
	return s.Store.Claim(ctx, owner, now, ttl, limit)
}

func (s *crashing) Renew(ctx context.Context, l *store.Lease, now time.Time, ttl time.Duration) error {
	if s.dead.Load() {
		return s.down("renew")
	}
	return s.Store.Renew(ctx, l, now, ttl)
}

func (s *crashing) Release(ctx context.Context, l *store.Lease) error {
	if s.dead.Load() {
		return s.down("release")
	}
	return s.Store.Release(ctx, l)
}

// hanging counts its calls and never answers, as a model call during
// which the process dies.
type hanging struct{ calls chan struct{} }

func (m hanging) Complete(ctx context.Context, _ model.Request) (model.Response, error) {
	m.calls <- struct{}{}
	<-ctx.Done()
	return model.Response{}, ctx.Err()
}

// TestMaxAttemptsStopsARunThatKillsItsWorker: a Run whose every Attempt
// dies in its model call (a poison Run killing its process) is made at
// most MaxAttempts times, then fails ATTEMPTS_EXHAUSTED, with the count
// and the limit, without another call: each
// Attempt after the first is stored before its model call, and the first
// one, whose record waits for its first append, is recorded by the second
// (TestAFirstAttemptThatStoredNothingIsCounted).
func TestMaxAttemptsStopsARunThatKillsItsWorker(t *testing.T) {
	const maxAttempts = 3
	errs.SetFailureEncoder(errdetails.StoredFailure)
	db, log, clk := sqlitetest.Open(t), slog.New(slog.NewTextHandler(io.Discard, nil)), clock.Real{}
	reg := versions.New(db, clk, versions.Options{})
	mgr := runs.New(runs.Deps{Store: db, Specs: reg, Policy: policy.AllowAll{}, Clock: clk, Log: log})
	calls := make(chan struct{}, maxAttempts+1)
	worker := func(s *crashing, id string) (stop func()) {
		eng := engine.New(engine.Deps{Store: s, Writer: logwriter.New(s, logwriter.Options{Clock: clk, Log: log}), Runs: mgr, Specs: reg, Models: model.Providers{spec.ProviderScripted: hanging{calls: calls}}, Clock: clk, Log: log},
			engine.Config{WorkerID: id, PollInterval: 20 * time.Millisecond, LeaseTTL: 300 * time.Millisecond, MaxAttempts: maxAttempts})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); eng.Run(ctx) }()
		return func() { cancel(); <-done }
	}
	if _, _, err := reg.Publish(context.Background(), store.DefaultTenant, spec.Spec{Name: "poison", Model: spec.Model{Provider: spec.ProviderScripted, Script: []spec.Turn{{Text: "never"}}}}); err != nil {
		t.Fatal(err)
	}
	run, _, err := mgr.Start(context.Background(), runs.StartRequest{Tenant: store.DefaultTenant, Spec: "poison", Input: "go"})
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= maxAttempts+1; i++ {
		s := &crashing{Store: db}
		stop := worker(s, fmt.Sprintf("w%d", i))
		if i > maxAttempts {
			defer stop()
			break
		}
		select {
		case <-calls:
		case <-time.After(20 * time.Second):
			t.Fatalf("attempt %d never called the model", i)
		}
		s.dead.Store(true)
		stop()
	}
	var got runs.Run
	waitFor(t, func() bool {
		got, err = mgr.Get(context.Background(), store.DefaultTenant, run.RunID)
		return err == nil && got.Settled()
	})
	if f := got.Failure; got.Status != runlog.StatusFailed || f == nil || f.Reason != "ATTEMPTS_EXHAUSTED" ||
		f.Metadata["diedAttempts"] != fmt.Sprint(maxAttempts) || f.Metadata["maxAttempts"] != fmt.Sprint(maxAttempts) {
		t.Errorf("the Run ended %s with %+v, want FAILED ATTEMPTS_EXHAUSTED after %d died Attempts", got.Status, got.Failure, maxAttempts)
	}
	if n := len(calls); n != 0 {
		t.Errorf("the model was called %d more times after %d Attempts died", n, maxAttempts)
	}
}

// dying is a model call during which its process dies: the store goes
// dead as the call starts, before anything of the Attempt is stored.
type dying struct {
	s     *crashing
	calls chan struct{}
}

func (m dying) Complete(ctx context.Context, _ model.Request) (model.Response, error) {
	m.s.dead.Store(true)
	m.calls <- struct{}{}
	<-ctx.Done()
	return model.Response{}, ctx.Err()
}

// TestAFirstAttemptThatStoredNothingIsCounted: a first Attempt stores its
// AttemptStarted only with its first append, which comes after its model
// call starts; when its process dies in that call, the next lease records
// it (with no worker, whose lease is gone) before its own, so the
// takeover is Attempt 2 and MaxAttempts counts both.
func TestAFirstAttemptThatStoredNothingIsCounted(t *testing.T) {
	errs.SetFailureEncoder(errdetails.StoredFailure)
	db, log, clk := sqlitetest.Open(t), slog.New(slog.NewTextHandler(io.Discard, nil)), clock.Real{}
	reg := versions.New(db, clk, versions.Options{})
	mgr := runs.New(runs.Deps{Store: db, Specs: reg, Policy: policy.AllowAll{}, Clock: clk, Log: log})
	worker := func(s store.Store, m model.Model, id string) (stop func()) {
		eng := engine.New(engine.Deps{Store: s, Writer: logwriter.New(s, logwriter.Options{Clock: clk, Log: log}), Runs: mgr, Specs: reg, Models: model.Providers{spec.ProviderScripted: m}, Clock: clk, Log: log},
			engine.Config{WorkerID: id, PollInterval: 20 * time.Millisecond, LeaseTTL: 300 * time.Millisecond})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); eng.Run(ctx) }()
		return func() { cancel(); <-done }
	}
	if _, _, err := reg.Publish(context.Background(), store.DefaultTenant, spec.Spec{Name: "once", Model: spec.Model{Provider: spec.ProviderScripted, Script: []spec.Turn{{Text: "done"}}}}); err != nil {
		t.Fatal(err)
	}
	run, _, err := mgr.Start(context.Background(), runs.StartRequest{Tenant: store.DefaultTenant, Spec: "once", Input: "go"})
	if err != nil {
		t.Fatal(err)
	}
	first := &crashing{Store: db}
	calls := make(chan struct{}, 1)
	stop := worker(first, dying{s: first, calls: calls}, "w1")
	select {
	case <-calls:
	case <-time.After(20 * time.Second):
		t.Fatal("the first attempt never called the model")
	}
	stop()
	defer worker(db, scripted.New(clk), "w2")()
	var got runs.Run
	waitFor(t, func() bool {
		got, err = mgr.Get(context.Background(), store.DefaultTenant, run.RunID)
		return err == nil && got.Settled()
	})
	if got.Status != runlog.StatusCompleted {
		t.Fatalf("the Run ended %s with %v, want COMPLETED", got.Status, got.Failed())
	}
	stored, err := db.ReadLog(context.Background(), store.DefaultTenant, run.RunID, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := logwriter.FromStore(run.RunID, stored)
	if err != nil {
		t.Fatal(err)
	}
	var attempts []runlog.AttemptStarted
	for _, r := range recs {
		if op, ok := r.Op.(*runlog.AttemptStarted); ok {
			attempts = append(attempts, *op)
		}
	}
	want := []runlog.AttemptStarted{{Attempt: 1}, {Attempt: 2, WorkerID: "w2"}}
	if !slices.Equal(attempts, want) {
		t.Errorf("attempts recorded %+v, want %+v", attempts, want)
	}
}
