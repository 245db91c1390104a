package toolworkers_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/tool"
	"github.com/runsvc/runsvc/internal/toolworkers"
)

const tenant = "default"

func defs(names ...string) []toolworkers.Definition {
	out := make([]toolworkers.Definition, len(names))
	for i, n := range names {
		out[i] = toolworkers.Definition{Name: n, Description: "the " + n + " tool", Parameters: json.RawMessage(`{"type":"object"}`)}
	}
	return out
}

func ctxT(t *testing.T) context.Context {
	t.Helper()
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

func mkCall(tenant, callID, name string) tool.Call {
	return tool.Call{Tenant: tenant, RunID: "run_1", CallID: callID, Name: name, Arguments: json.RawMessage(`{"n":1}`)}
}

type outcome struct {
	out json.RawMessage
	err error
}

// execute runs Execute in the background and returns where its outcome
// arrives.
func execute(ctx context.Context, h *toolworkers.Hub, c tool.Call) <-chan outcome {
	ch := make(chan outcome, 1)
	go func() {
		out, err := h.Execute(ctx, c)
		ch <- outcome{out, err}
	}()
	return ch
}

// next returns the next message for a worker, failing after a generous
// while.
func next(t *testing.T, w *toolworkers.Worker) toolworkers.Outgoing {
	t.Helper()
	select {
	case m := <-w.Outbox():
		return m
	case <-time.After(10 * time.Second):
		t.Fatalf("worker %s got nothing", w.ID)
		return toolworkers.Outgoing{}
	}
}

// nextCall returns the next call sent to any of the workers and which
// worker got it.
func nextCall(t *testing.T, ws ...*toolworkers.Worker) (*toolworkers.Worker, *toolworkers.Call) {
	t.Helper()
	cases := make([]reflect.SelectCase, 0, len(ws)+1)
	for _, w := range ws {
		cases = append(cases, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(w.Outbox())})
	}
	cases = append(cases, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(time.After(10 * time.Second))})
	i, v, _ := reflect.Select(cases)
	if i == len(ws) {
		t.Fatalf("no worker got a call")
	}
	m := v.Interface().(toolworkers.Outgoing)
	if m.Call == nil {
		t.Fatalf("worker %s got %+v, want a call", ws[i].ID, m)
	}
	return ws[i], m.Call
}

// quiet asserts a worker gets nothing for a while.
func quiet(t *testing.T, w *toolworkers.Worker, d time.Duration) {
	t.Helper()
	select {
	case m := <-w.Outbox():
		t.Fatalf("worker %s got %+v, want nothing yet", w.ID, m)
	case <-time.After(d):
	}
}

func wait(t *testing.T, ch <-chan outcome) outcome {
	t.Helper()
	select {
	case o := <-ch:
		return o
	case <-time.After(10 * time.Second):
		t.Fatalf("Execute did not return")
		return outcome{}
	}
}

// release answers the call id on w with 1 through h and fails the test
// unless done, the caller's Execute, then returns without error.
func release(t *testing.T, h *toolworkers.Hub, w *toolworkers.Worker, id string, done <-chan outcome) {
	t.Helper()
	h.Deliver(w, id, json.RawMessage(`1`), nil)
	if o := wait(t, done); o.err != nil {
		t.Fatal(o.err)
	}
}

// answerNext checks that w's next message is the call wantID, answers it
// with out through h and checks that done, the caller's Execute, returns
// out; what names that Execute in the failures.
func answerNext(t *testing.T, h *toolworkers.Hub, w *toolworkers.Worker, wantID, out string, done <-chan outcome, what string) {
	t.Helper()
	m := next(t, w)
	if m.Call == nil || m.Call.ID != wantID {
		t.Fatalf("worker got %+v, want call %s", m, wantID)
	}
	h.Deliver(w, m.Call.ID, json.RawMessage(out), nil)
	if o := wait(t, done); o.err != nil || string(o.out) != out {
		t.Fatalf("%s = %s, %v", what, o.out, o.err)
	}
}

// checkAnswer checks that o, the outcome of a call of add named by what,
// is output, or the worker's failure when failure is set.
func checkAnswer(t *testing.T, what string, o outcome, output string, failure *toolworkers.Failure) {
	t.Helper()
	if failure == nil {
		if o.err != nil || string(o.out) != output {
			t.Fatalf("%s = %s, %v; want %s", what, o.out, o.err, output)
		}
		return
	}
	want := errs.ToolFailure("add", failure.Message, failure.Retryable, 0)
	if errs.Kind(errs.Typed(o.err)) != errs.Kind(want) || errs.Typed(o.err).Error() != want.Error() {
		t.Errorf("%s failed with %T %v, want %T %v", what, o.err, o.err, want, want)
	}
}

// wantTransient checks that err is a retryable *errs.TransientFailure and
// returns it.
func wantTransient(t *testing.T, err error) *errs.TransientFailure {
	t.Helper()
	var tr *errs.TransientFailure
	if !errors.As(err, &tr) {
		t.Fatalf("Execute = %T %v, want *errs.TransientFailure", err, err)
	}
	if _, ok := errs.IsRetryable(err); !ok {
		t.Errorf("the failure is not retryable")
	}
	return tr
}

// answers are the ways a worker answers a call of add, by subtest name:
// an output, a failure, a retryable failure.
var answers = []struct {
	name    string
	failure *toolworkers.Failure
	output  string
}{
	{"output", nil, `{"sum":3}`},
	{"failure", &toolworkers.Failure{Message: "disk full"}, ""},
	{"retryable failure", &toolworkers.Failure{Message: "busy, try again", Retryable: true}, ""},
}

func TestExecuteAnswered(t *testing.T) {
	for _, tt := range answers {
		t.Run(tt.name, func(t *testing.T) {
			h := toolworkers.New()
			other := h.Connect(tenant, "other", defs("unrelated"), 0)
			w := h.Connect(tenant, "adder", defs("add", "mul"), 0)
			done := execute(ctxT(t), h, mkCall(tenant, "call_1", "add"))
			m := next(t, w)
			if m.Call == nil {
				t.Fatalf("worker got %+v, want a call", m)
			}
			c := m.Call
			if c.ID != "run_1/call_1" || c.RunID != "run_1" || c.Name != "add" || string(c.Arguments) != `{"n":1}` {
				t.Errorf("call = %+v, want id run_1/call_1 of add with the arguments", c)
			}
			h.Deliver(w, c.ID, json.RawMessage(tt.output), tt.failure)
			checkAnswer(t, "Execute", wait(t, done), tt.output, tt.failure)
			quiet(t, other, 50*time.Millisecond)
		})
	}
	t.Run("a call without a run keeps its call id", func(t *testing.T) {
		h := toolworkers.New()
		w := h.Connect(tenant, "adder", defs("add"), 0)
		c := mkCall(tenant, "direct_9", "add")
		c.RunID = ""
		done := execute(ctxT(t), h, c)
		m := next(t, w)
		if m.Call.ID != "direct_9" {
			t.Errorf("call id = %q, want direct_9", m.Call.ID)
		}
		release(t, h, w, m.Call.ID, done)
	})
	t.Run("a late or unknown answer is dropped", func(t *testing.T) {
		h := toolworkers.New()
		w := h.Connect(tenant, "adder", defs("add"), 0)
		done := execute(ctxT(t), h, mkCall(tenant, "c1", "add"))
		m := next(t, w)
		h.Deliver(w, "no-such-call", json.RawMessage(`"wrong"`), nil)
		h.Deliver(w, m.Call.ID, json.RawMessage(`"right"`), nil)
		h.Deliver(w, m.Call.ID, json.RawMessage(`"again"`), nil)
		if o := wait(t, done); o.err != nil || string(o.out) != `"right"` {
			t.Fatalf("Execute = %s, %v; want \"right\"", o.out, o.err)
		}
	})
}

func TestExecuteWithoutWorker(t *testing.T) {
	tests := []struct {
		name    string
		connect func(h *toolworkers.Hub)
	}{
		{"no worker at all", func(*toolworkers.Hub) {}},
		{"workers serve other tools", func(h *toolworkers.Hub) { h.Connect(tenant, "w", defs("mul"), 0) }},
		{"another tenant's worker serves it", func(h *toolworkers.Hub) { h.Connect("acme", "w", defs("add"), 0) }},
		{"the worker disconnected", func(h *toolworkers.Hub) { h.Disconnect(h.Connect(tenant, "w", defs("add"), 0)) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := toolworkers.New()
			tt.connect(h)
			_, err := h.Execute(ctxT(t), mkCall(tenant, "c1", "add"))
			tr := wantTransient(t, err)
			if tr.Operation != "tool add" {
				t.Errorf("Operation = %q, want %q", tr.Operation, "tool add")
			}
		})
	}
}

func TestDisconnectMovesCall(t *testing.T) {
	t.Run("to another worker serving the tool", callMovesToAnotherWorker)
	t.Run("an answer from the gone worker is dropped", func(t *testing.T) {
		h := toolworkers.New()
		a := h.Connect(tenant, "a", defs("add"), 0)
		done := execute(ctxT(t), h, mkCall(tenant, "c1", "add"))
		m := next(t, a)
		b := h.Connect(tenant, "b", defs("add"), 0)
		h.Disconnect(a)
		moved := next(t, b)
		h.Deliver(a, m.Call.ID, json.RawMessage(`"from a"`), nil)
		h.Deliver(b, moved.Call.ID, json.RawMessage(`"from b"`), nil)
		if o := wait(t, done); o.err != nil || string(o.out) != `"from b"` {
			t.Fatalf("Execute = %s, %v; want \"from b\"", o.out, o.err)
		}
	})
	t.Run("with none left it fails transiently", func(t *testing.T) {
		h := toolworkers.New()
		a := h.Connect(tenant, "a", defs("add"), 0)
		h.Connect(tenant, "other-tool", defs("mul"), 0)
		done := execute(ctxT(t), h, mkCall(tenant, "c1", "add"))
		next(t, a)
		h.Disconnect(a)
		wantTransient(t, wait(t, done).err)
	})
	t.Run("a call moved from worker to worker gives up after a few", movedCallGivesUp)
	t.Run("the disconnected worker's other calls move too", func(t *testing.T) {
		h := toolworkers.New()
		a := h.Connect(tenant, "a", defs("add"), 2)
		d1 := execute(ctxT(t), h, mkCall(tenant, "c1", "add"))
		d2 := execute(ctxT(t), h, mkCall(tenant, "c2", "add"))
		next(t, a)
		next(t, a)
		b := h.Connect(tenant, "b", defs("add"), 2)
		h.Disconnect(a)
		for range 2 {
			m := next(t, b)
			h.Deliver(b, m.Call.ID, json.RawMessage(`"`+m.Call.ID+`"`), nil)
		}
		for _, d := range []<-chan outcome{d1, d2} {
			if o := wait(t, d); o.err != nil {
				t.Errorf("Execute = %v", o.err)
			}
		}
	})
}

// callMovesToAnotherWorker: when a worker disconnects, its Done closes and
// its open call goes to another worker serving the tool, never to one that
// does not; the answer from there is the call's result.
func callMovesToAnotherWorker(t *testing.T) {
	h := toolworkers.New()
	a := h.Connect(tenant, "a", defs("add"), 0)
	done := execute(ctxT(t), h, mkCall(tenant, "c1", "add"))
	first := next(t, a)
	other := h.Connect(tenant, "other-tool", defs("mul"), 0)
	b := h.Connect(tenant, "b", defs("add"), 0)
	h.Disconnect(a)
	select {
	case <-a.Done():
	default:
		t.Errorf("Done is not closed after Disconnect")
	}
	moved := next(t, b)
	if moved.Call == nil || moved.Call.ID != first.Call.ID {
		t.Fatalf("worker b got %+v, want call %s", moved, first.Call.ID)
	}
	h.Deliver(b, moved.Call.ID, json.RawMessage(`"from b"`), nil)
	if o := wait(t, done); o.err != nil || string(o.out) != `"from b"` {
		t.Fatalf("Execute = %s, %v; want \"from b\"", o.out, o.err)
	}
	quiet(t, other, 50*time.Millisecond)
}

// movedCallGivesUp: a call whose worker disconnects again each time it is
// moved fails transiently before it has moved ten times.
func movedCallGivesUp(t *testing.T) {
	h := toolworkers.New()
	cur := h.Connect(tenant, "w0", defs("add"), 0)
	done := execute(ctxT(t), h, mkCall(tenant, "c1", "add"))
	next(t, cur)
	for i := 1; i <= 10; i++ {
		fresh := h.Connect(tenant, fmt.Sprintf("w%d", i), defs("add"), 0)
		h.Disconnect(cur)
		select {
		case o := <-done:
			wantTransient(t, o.err)
			return
		case m := <-fresh.Outbox():
			if m.Call == nil || m.Call.ID != "run_1/c1" {
				t.Fatalf("worker %d got %+v, want the moved call", i, m)
			}
			cur = fresh
		case <-time.After(10 * time.Second):
			t.Fatalf("the call neither moved nor failed")
		}
	}
	t.Fatalf("the call moved ten times and never gave up")
}

func TestMaxConcurrency(t *testing.T) {
	h := toolworkers.New()
	w := h.Connect(tenant, "single", defs("add"), 1)
	d1 := execute(ctxT(t), h, mkCall(tenant, "c1", "add"))
	m1 := next(t, w)
	d2 := execute(ctxT(t), h, mkCall(tenant, "c2", "add"))
	quiet(t, w, 200*time.Millisecond)
	select {
	case o := <-d2:
		t.Fatalf("the second call returned %v while the first held the only slot", o.err)
	default:
	}
	release(t, h, w, m1.Call.ID, d1)
	answerNext(t, h, w, "run_1/c2", "2", d2, "second call")
}

func TestMaxConcurrencyAcrossWorkers(t *testing.T) {
	h := toolworkers.New()
	a := h.Connect(tenant, "a", defs("add"), 1)
	b := h.Connect(tenant, "b", defs("add"), 1)
	d1 := execute(ctxT(t), h, mkCall(tenant, "c1", "add"))
	w1, c1 := nextCall(t, a, b)
	d2 := execute(ctxT(t), h, mkCall(tenant, "c2", "add"))
	w2, c2 := nextCall(t, a, b)
	if w1 == w2 {
		t.Fatalf("both calls went to worker %s, whose max concurrency is 1", w1.Name)
	}
	d3 := execute(ctxT(t), h, mkCall(tenant, "c3", "add"))
	quiet(t, a, 100*time.Millisecond)
	quiet(t, b, 0)
	h.Deliver(w2, c2.ID, json.RawMessage(`2`), nil)
	w3, c3 := nextCall(t, a, b)
	if w3 != w2 {
		t.Errorf("the waiting call went to %s, want %s, the one with room", w3.Name, w2.Name)
	}
	h.Deliver(w1, c1.ID, json.RawMessage(`1`), nil)
	h.Deliver(w3, c3.ID, json.RawMessage(`3`), nil)
	for _, d := range []<-chan outcome{d1, d2, d3} {
		if o := wait(t, d); o.err != nil {
			t.Error(o.err)
		}
	}
}

func TestLeastBusyFirst(t *testing.T) {
	h := toolworkers.New()
	a := h.Connect(tenant, "a", defs("add"), 0)
	b := h.Connect(tenant, "b", defs("add"), 0)
	d1 := execute(ctxT(t), h, mkCall(tenant, "c1", "add"))
	busy, c1 := nextCall(t, a, b)
	// With one call in flight on busy, the next ones go to the idle worker
	// until it is as busy.
	d2 := execute(ctxT(t), h, mkCall(tenant, "c2", "add"))
	idle, c2 := nextCall(t, a, b)
	if idle == busy {
		t.Fatalf("the second call went to the busy worker %s", busy.Name)
	}
	h.Deliver(busy, c1.ID, json.RawMessage(`1`), nil)
	h.Deliver(idle, c2.ID, json.RawMessage(`2`), nil)
	for _, d := range []<-chan outcome{d1, d2} {
		if o := wait(t, d); o.err != nil {
			t.Error(o.err)
		}
	}
}

func TestTiesTakeTurns(t *testing.T) {
	h := toolworkers.New()
	ws := []*toolworkers.Worker{
		h.Connect(tenant, "a", defs("add"), 0),
		h.Connect(tenant, "b", defs("add"), 0),
		h.Connect(tenant, "c", defs("add"), 0),
	}
	counts := map[string]int{}
	const rounds = 6
	for i := range rounds {
		done := execute(ctxT(t), h, mkCall(tenant, fmt.Sprintf("c%d", i), "add"))
		w, c := nextCall(t, ws...)
		counts[w.Name]++
		h.Deliver(w, c.ID, json.RawMessage(`0`), nil)
		if o := wait(t, done); o.err != nil {
			t.Fatal(o.err)
		}
	}
	for _, w := range ws {
		if counts[w.Name] != rounds/len(ws) {
			t.Errorf("calls per idle worker = %v, want %d each", counts, rounds/len(ws))
			break
		}
	}
}

func TestCancel(t *testing.T) {
	t.Run("in flight: the worker is told and the caller gets the ctx error", func(t *testing.T) {
		h := toolworkers.New()
		w := h.Connect(tenant, "w", defs("add"), 1)
		ctx, cancel := context.WithCancel(ctxT(t))
		done := execute(ctx, h, mkCall(tenant, "c1", "add"))
		m := next(t, w)
		cancel()
		o := wait(t, done)
		if !errors.Is(o.err, context.Canceled) {
			t.Fatalf("Execute = %v, want context.Canceled", o.err)
		}
		c := next(t, w)
		if c.Cancel != m.Call.ID || c.Call != nil {
			t.Fatalf("worker got %+v, want a cancel of %s", c, m.Call.ID)
		}
		// The slot is free again, and a late answer is dropped.
		h.Deliver(w, m.Call.ID, json.RawMessage(`"late"`), nil)
		d2 := execute(ctxT(t), h, mkCall(tenant, "c2", "add"))
		answerNext(t, h, w, "run_1/c2", `"ok"`, d2, "Execute")
	})
	t.Run("deadline while in flight", func(t *testing.T) {
		h := toolworkers.New()
		w := h.Connect(tenant, "w", defs("add"), 0)
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		done := execute(ctx, h, mkCall(tenant, "c1", "add"))
		m := next(t, w)
		if o := wait(t, done); !errors.Is(o.err, context.DeadlineExceeded) {
			t.Fatalf("Execute = %v, want context.DeadlineExceeded", o.err)
		}
		if c := next(t, w); c.Cancel != m.Call.ID {
			t.Fatalf("worker got %+v, want a cancel of %s", c, m.Call.ID)
		}
	})
	t.Run("while waiting for capacity", func(t *testing.T) {
		h := toolworkers.New()
		w := h.Connect(tenant, "w", defs("add"), 1)
		d1 := execute(ctxT(t), h, mkCall(tenant, "c1", "add"))
		m1 := next(t, w)
		ctx, cancel := context.WithCancel(ctxT(t))
		d2 := execute(ctx, h, mkCall(tenant, "c2", "add"))
		quiet(t, w, 50*time.Millisecond)
		cancel()
		if o := wait(t, d2); !errors.Is(o.err, context.Canceled) {
			t.Fatalf("Execute = %v, want context.Canceled", o.err)
		}
		release(t, h, w, m1.Call.ID, d1)
		quiet(t, w, 50*time.Millisecond)
	})
}

func TestTenantsAreSeparate(t *testing.T) {
	h := toolworkers.New()
	acme := h.Connect("acme", "acme-worker", defs("add"), 0)
	mine := h.Connect(tenant, "my-worker", defs("add"), 0)
	for i := range 4 {
		done := execute(ctxT(t), h, mkCall(tenant, fmt.Sprintf("c%d", i), "add"))
		w, c := nextCall(t, acme, mine)
		if w != mine {
			t.Fatalf("a call of tenant %s went to tenant acme's worker", tenant)
		}
		h.Deliver(w, c.ID, json.RawMessage(`0`), nil)
		if o := wait(t, done); o.err != nil {
			t.Fatal(o.err)
		}
	}
	h.Disconnect(mine)
	_, err := h.Execute(ctxT(t), mkCall(tenant, "c9", "add"))
	var tr *errs.TransientFailure
	if !errors.As(err, &tr) {
		t.Fatalf("with only acme's worker left, Execute = %T %v, want *errs.TransientFailure", err, err)
	}
	quiet(t, acme, 50*time.Millisecond)
}

func TestToolsServesToolNames(t *testing.T) {
	h := toolworkers.New()
	w1 := h.Connect(tenant, "w1", defs("search", "add"), 0)
	h.Connect(tenant, "w2", defs("add"), 0)
	h.Connect("acme", "w3", defs("secret_tool", "add"), 0)

	tests := []struct {
		name      string
		tenant    string
		wantNames []string
		wantCount map[string]int
	}{
		{"default tenant", tenant, []string{"add", "search"}, map[string]int{"add": 2, "search": 1}},
		{"other tenant", "acme", []string{"add", "secret_tool"}, map[string]int{"add": 1, "secret_tool": 1}},
		{"unknown tenant", "nobody", nil, map[string]int{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := h.ToolNames(tt.tenant); !reflect.DeepEqual(got, tt.wantNames) {
				t.Errorf("ToolNames = %v, want %v", got, tt.wantNames)
			}
			tools := h.Tools(tt.tenant)
			if len(tools) != len(tt.wantCount) {
				t.Errorf("Tools = %+v, want %d tools", tools, len(tt.wantCount))
			}
			for _, ti := range tools {
				if ti.Workers != tt.wantCount[ti.Name] {
					t.Errorf("Tools: %s has %d workers, want %d", ti.Name, ti.Workers, tt.wantCount[ti.Name])
				}
				if ti.Description != "the "+ti.Name+" tool" || string(ti.Parameters) != `{"type":"object"}` {
					t.Errorf("Tools: %s lost its definition: %+v", ti.Name, ti.Definition)
				}
			}
			for name := range tt.wantCount {
				if !h.Serves(tt.tenant, name) {
					t.Errorf("Serves(%s, %s) = false", tt.tenant, name)
				}
			}
		})
	}
	servesTests := []struct {
		tenant, tool string
		want         bool
	}{
		{tenant, "secret_tool", false},
		{"acme", "search", false},
		{tenant, "unknown", false},
		{"nobody", "add", false},
	}
	for _, tt := range servesTests {
		t.Run(fmt.Sprintf("serves %s %s", tt.tenant, tt.tool), func(t *testing.T) {
			if got := h.Serves(tt.tenant, tt.tool); got != tt.want {
				t.Errorf("Serves = %v, want %v", got, tt.want)
			}
		})
	}
	t.Run("after a disconnect", func(t *testing.T) {
		h.Disconnect(w1)
		h.Disconnect(w1) // twice is harmless
		if h.Serves(tenant, "search") {
			t.Errorf("Serves(search) after its only worker left")
		}
		if got := h.ToolNames(tenant); !reflect.DeepEqual(got, []string{"add"}) {
			t.Errorf("ToolNames = %v, want [add]", got)
		}
	})
}
