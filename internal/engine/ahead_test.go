package engine_test

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/engine"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/spec/versions"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/sqlite"
	"github.com/runsvc/runsvc/internal/tool"
)

// rowTool is a worker tool that notes when each call starts and returns,
// and holds every call until `together` calls are in flight at once (or a
// second passed): calls made one after another each wait the second out.
type rowTool struct {
	together int

	mu       sync.Mutex
	inFlight int
	most     int
	events   []string
	changed  chan struct{}
}

func newRowTool(together int) *rowTool {
	return &rowTool{together: together, changed: make(chan struct{})}
}

func (r *rowTool) note(event string, delta int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.inFlight += delta
	r.most = max(r.most, r.inFlight)
	r.events = append(r.events, event)
	close(r.changed)
	r.changed = make(chan struct{})
}

func (r *rowTool) Execute(ctx context.Context, c tool.Call) (json.RawMessage, error) {
	r.note("start "+c.Name+" "+c.CallID, 1)
	defer r.note("end "+c.Name+" "+c.CallID, -1)
	give := time.After(300 * time.Millisecond)
	for {
		r.mu.Lock()
		enough, changed := r.inFlight >= r.together, r.changed
		r.mu.Unlock()
		if enough {
			return c.Arguments, nil
		}
		select {
		case <-changed:
		case <-give:
			return c.Arguments, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func (r *rowTool) seen() (int, []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.most, slices.Clone(r.events)
}

// TestCallsOfOneResponseRunTogether checks that the at-least-once calls
// of one response run at once, that anything which could stop or suspend
// the Run (an at-most-once call, a raise_on_error tool) waits for the
// calls before it and holds back those after it, and that the Log is the
// one a sequential loop writes: each call started and answered in issue
// order.
func TestCallsOfOneResponseRunTogether(t *testing.T) {
	step := spec.Tool{Name: "step", Kind: spec.KindWorker, Description: "One step."}
	pay := spec.Tool{Name: "pay", Kind: spec.KindWorker, Description: "Pays.", Delivery: spec.AtMostOnce}
	strict := spec.Tool{Name: "strict", Kind: spec.KindWorker, Description: "Must work.", RaiseOnError: true}
	tests := []struct {
		name     string
		together int
		calls    []string
		most     int
		// after: each "start X" event must come after the events listed.
		after map[string][]string
	}{
		{name: "three at-least-once calls", together: 3, calls: []string{"step", "step", "step"}, most: 3},
		{name: "an at-most-once call waits for the calls before it", together: 2,
			calls: []string{"step", "step", "pay", "step"}, most: 2,
			after: map[string][]string{
				"start pay call_1_3":  {"end step call_1_1", "end step call_1_2"},
				"start step call_1_4": {"end pay call_1_3"},
			}},
		{name: "a raise_on_error tool holds back the calls after it", together: 2,
			calls: []string{"step", "strict", "step"}, most: 1,
			after: map[string][]string{
				"start strict call_1_2": {"end step call_1_1"},
				"start step call_1_3":   {"end strict call_1_2"},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			row := newRowTool(tt.together)
			mgr := startRowEngine(t, row)
			var script []spec.ScriptCall
			for i, name := range tt.calls {
				args, _ := json.Marshal(map[string]int{"i": i})
				script = append(script, spec.ScriptCall{Name: name, Arguments: args})
			}
			sp := spec.Spec{
				Name: "row", Instructions: "Call the tools, then answer.",
				Model: spec.Model{Provider: spec.ProviderScripted, Script: []spec.Turn{
					{Text: "Calling.", ToolCalls: script},
					{Text: "Done."},
				}},
				Tools: []spec.Tool{step, pay, strict},
			}
			ctx := context.Background()
			if _, _, err := mgr.specs.Publish(ctx, store.DefaultTenant, sp); err != nil {
				t.Fatal(err)
			}
			run, _, err := mgr.runs.Start(ctx, runs.StartRequest{Tenant: store.DefaultTenant, Spec: sp.Name, Input: "go"})
			if err != nil {
				t.Fatal(err)
			}
			got, err := mgr.runs.WaitSettled(ctx, store.DefaultTenant, run.RunID, 20*time.Second)
			if err != nil || got.Status != runlog.StatusCompleted {
				t.Fatalf("run: %v, state %q", err, got.Status)
			}
			most, events := row.seen()
			if most != tt.most {
				t.Errorf("at most %d calls in flight at once, want %d; events %q", most, tt.most, events)
			}
			for event, before := range tt.after {
				at := slices.Index(events, event)
				for _, b := range before {
					if i := slices.Index(events, b); at < 0 || i < 0 || i > at {
						t.Errorf("%q came before %q; events %q", event, b, events)
					}
				}
			}
			checkIssueOrder(t, mgr.db, run.RunID, len(tt.calls))
		})
	}
}

// checkIssueOrder checks that a Run's log starts and answers calls
// call_1_1 .. call_1_n one after another, each with its own output.
func checkIssueOrder(t *testing.T, db store.Store, runID string, n int) {
	t.Helper()
	recs, err := db.ReadLog(context.Background(), store.DefaultTenant, runID, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got, want []string
	for i := range n {
		id := engine.CallID(1, i)
		want = append(want, "started "+id, "finished "+id)
	}
	for _, r := range recs {
		op, err := runlog.Decode(r.Kind, r.Body)
		if err != nil {
			t.Fatal(err)
		}
		switch op := op.(type) {
		case *runlog.ToolCallStarted:
			got = append(got, "started "+op.CallID)
		case *runlog.ToolCallFinished:
			got = append(got, "finished "+op.CallID)
			var out struct{ I int }
			if err := json.Unmarshal(op.Output, &out); err != nil || engine.CallID(1, out.I) != op.CallID {
				t.Errorf("%s answered %s", op.CallID, op.Output)
			}
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("the log has %q, want %q", got, want)
	}
}

type rowEngine struct {
	db    *sqlite.DB
	specs *versions.Registry
	runs  *runs.Manager
}

// startRowEngine runs an engine on SQLite whose worker tools are row.
func startRowEngine(t *testing.T, row *rowTool) rowEngine {
	t.Helper()
	errs.SetFailureEncoder(errdetails.StoredFailure)
	db, err := sqlite.Open(t.TempDir(), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	reg, mgr := startEngine(t, db, row, "row", nil)
	return rowEngine{db: db, specs: reg, runs: mgr}
}
