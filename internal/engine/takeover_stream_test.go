package engine_test

import (
	"context"
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
	"github.com/runsvc/runsvc/internal/live"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/policy"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/spec/versions"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/sqlite/sqlitetest"
)

// stalling streams three pieces, then hangs until its call is cancelled,
// as a worker that dies mid-answer.
type stalling struct{ streamed chan struct{} }

func (m stalling) Complete(ctx context.Context, req model.Request) (model.Response, error) {
	for _, p := range []string{"void ", "partial ", "text "} {
		req.Emit(model.Delta{Text: p})
	}
	close(m.streamed)
	<-ctx.Done()
	return model.Response{}, ctx.Err()
}

// paced streams the script's answer a word every 20ms.
type paced struct{}

func (paced) Complete(ctx context.Context, req model.Request) (model.Response, error) {
	text := req.Model.Script[req.Turn-1].Text
	for _, w := range strings.SplitAfter(text, " ") {
		select {
		case <-time.After(20 * time.Millisecond):
		case <-ctx.Done():
			return model.Response{}, ctx.Err()
		}
		req.Emit(model.Delta{Text: w})
	}
	return model.Response{Text: text}, nil
}

// TestTakeoverMidStreamDiscardsThePartialTurn: a worker stops while its
// model call streams; another worker's Attempt takes the Run over and
// answers the turn anew. A watcher is told the first call's pieces are
// void (a Discarded Delta, right before the new AttemptStarted), then gets
// the new call's pieces, and the log holds one answer for the turn.
func TestTakeoverMidStreamDiscardsThePartialTurn(t *testing.T) {
	errs.SetFailureEncoder(errdetails.StoredFailure)
	db, log, clk := sqlitetest.Open(t), slog.New(slog.NewTextHandler(io.Discard, nil)), clock.Real{}
	reg := versions.New(db, clk, versions.Options{})
	hub := live.NewHub()
	mgr := runs.New(runs.Deps{Store: db, Specs: reg, Policy: policy.AllowAll{}, Clock: clk, Log: log, Live: hub})
	writer := mgr.Writer()
	worker := func(id string, m model.Model) (stop func()) {
		eng := engine.New(engine.Deps{Store: db, Writer: writer, Runs: mgr, Specs: reg, Models: model.Providers{spec.ProviderScripted: m}, Clock: clk, Log: log, Live: hub},
			engine.Config{WorkerID: id, PollInterval: 20 * time.Millisecond, LeaseTTL: time.Second})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); eng.Run(ctx) }()
		return func() { cancel(); <-done }
	}
	answer := "It is sunny today."
	if _, _, err := reg.Publish(context.Background(), store.DefaultTenant, spec.Spec{Name: "weather", Model: spec.Model{Provider: spec.ProviderScripted, Script: []spec.Turn{{Text: answer}}}}); err != nil {
		t.Fatal(err)
	}
	streamed := make(chan struct{})
	stopFirst := worker("first", stalling{streamed: streamed})
	run, _, err := mgr.Start(context.Background(), runs.StartRequest{Tenant: store.DefaultTenant, Spec: "weather", Input: "weather?"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var mu sync.Mutex
	var events []runs.Event
	watched := make(chan error, 1)
	go func() {
		watched <- mgr.WatchLive(ctx, store.DefaultTenant, run.RunID, 1, runs.LiveFrom{}, func(ev runs.Event) error {
			mu.Lock()
			defer mu.Unlock()
			events = append(events, ev)
			return nil
		})
	}()
	<-streamed
	waitFor(t, func() bool { // the watcher has the pieces
		mu.Lock()
		defer mu.Unlock()
		return len(events) > 0 && events[len(events)-1].Delta != nil && strings.HasSuffix(events[len(events)-1].Delta.Text, "text ")
	})
	stopFirst()
	defer worker("second", paced{})()
	if err := <-watched; err != nil {
		t.Fatalf("WatchLive: %v", err)
	}
	checkTakeoverEvents(t, events, answer)
}

// checkTakeoverEvents: the pieces of the first call, a Discarded Delta for
// it right before the second AttemptStarted, then the second call's
// pieces making the answer, and one ModelCallFinished.
func checkTakeoverEvents(t *testing.T, events []runs.Event, answer string) {
	t.Helper()
	var firstCall, secondCall int64
	var after strings.Builder
	finished := 0
	for i, ev := range events {
		if r := ev.Record; r != nil {
			switch op := r.Op.(type) {
			case *runlog.ModelCallStarted:
				if firstCall == 0 {
					firstCall = r.Seq
				} else {
					secondCall = r.Seq
				}
			case *runlog.AttemptStarted:
				if op.Attempt == 2 && (i == 0 || events[i-1].Delta == nil || !events[i-1].Delta.Discarded || events[i-1].Delta.CallSeq != firstCall) {
					t.Errorf("the takeover's AttemptStarted is not right after a Discarded Delta of call %d", firstCall)
				}
			case *runlog.ModelCallFinished:
				finished++
				if op.Text != answer {
					t.Errorf("the turn's Record says %q, want %q", op.Text, answer)
				}
			}
			continue
		}
		if d := ev.Delta; secondCall != 0 && d.CallSeq == secondCall {
			after.WriteString(d.Text)
		}
	}
	if firstCall == 0 || secondCall == 0 || finished != 1 {
		t.Fatalf("calls %d and %d, %d answers; want two calls and one answer", firstCall, secondCall, finished)
	}
	if after.String() != answer {
		t.Errorf("the new call streamed %q, want %q", after.String(), answer)
	}
}
