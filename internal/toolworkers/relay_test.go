package toolworkers_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/sqlite"
	"github.com/runsvc/runsvc/internal/toolworkers"
)

// openStore returns a SQLite store that several routed Hubs of this
// process share, as replicas share PostgreSQL.
func openStore(t testing.TB) store.Store {
	t.Helper()
	db, err := sqlite.Open(t.TempDir(), sqlite.Options{Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// startHub runs a routed Hub named replica on st until the test ends.
func startHub(t testing.TB, st store.Store, replica string) *toolworkers.Hub {
	t.Helper()
	h := toolworkers.NewRouted(toolworkers.Routing{
		Store: st, Replica: replica, Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		AdvertiseEvery: 50 * time.Millisecond, AdvertTTL: 2 * time.Second, ClaimTTL: 3 * time.Second,
		WaitPoll: 50 * time.Millisecond, RelayPoll: 100 * time.Millisecond,
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Errorf("hub %s did not stop", replica)
		}
	})
	return h
}

// waitServed waits until h sees a worker of another replica serving the
// tool, or sees none when want is false.
func waitServed(t *testing.T, h *toolworkers.Hub, tenant, name string, want bool) {
	t.Helper()
	var got bool
	var err error
	if !poll(func() bool {
		got, err = h.ServesAnywhere(ctxT(t), tenant, name)
		return err == nil && got == want
	}) {
		t.Fatalf("ServesAnywhere(%s, %s) = %v, %v; want %v", tenant, name, got, err, want)
	}
}

func TestRoutedCallAnswered(t *testing.T) {
	for _, tt := range answers {
		t.Run(tt.name, func(t *testing.T) {
			st := openStore(t)
			a, b := startHub(t, st, "replica-a"), startHub(t, st, "replica-b")
			w := a.Connect(tenant, "adder", defs("add"), 0)
			waitServed(t, b, tenant, "add", true)
			done := execute(ctxT(t), b, mkCall(tenant, "call_1", "add"))
			m := next(t, w)
			if m.Call == nil || m.Call.ID != "run_1/call_1" || m.Call.RunID != "run_1" || m.Call.Name != "add" || string(m.Call.Arguments) != `{"n":1}` {
				t.Fatalf("worker on A got %+v, want call run_1/call_1 of add with the arguments", m)
			}
			a.Deliver(w, m.Call.ID, json.RawMessage(tt.output), tt.failure)
			checkAnswer(t, "Execute on B", wait(t, done), tt.output, tt.failure)
		})
	}
}

func TestRoutedCallWithoutWorker(t *testing.T) {
	tests := []struct {
		name    string
		connect func(a *toolworkers.Hub)
	}{
		{"no worker anywhere", func(*toolworkers.Hub) {}},
		{"another replica's workers serve other tools", func(a *toolworkers.Hub) { a.Connect(tenant, "w", defs("mul"), 0) }},
		{"another tenant's worker serves it", func(a *toolworkers.Hub) { a.Connect("acme", "w", defs("add"), 0) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := openStore(t)
			a, b := startHub(t, st, "replica-a"), startHub(t, st, "replica-b")
			tt.connect(a)
			waitServed(t, b, tenant, "add", false)
			_, err := b.Execute(ctxT(t), mkCall(tenant, "c1", "add"))
			var tr *errs.TransientFailure
			if !errors.As(err, &tr) || tr.Operation != "tool add" {
				t.Fatalf("Execute = %T %v, want *errs.TransientFailure of tool add", err, err)
			}
			if _, found, _ := st.GetToolCall(ctxT(t), tenant, "run_1/c1"); found {
				t.Errorf("a call nobody serves was enqueued")
			}
		})
	}
}

func TestRoutedCallPrefersLocalWorkers(t *testing.T) {
	st := openStore(t)
	a, b := startHub(t, st, "replica-a"), startHub(t, st, "replica-b")
	remote := a.Connect(tenant, "remote", defs("add"), 0)
	local := b.Connect(tenant, "local", defs("add"), 0)
	waitServed(t, b, tenant, "add", true)
	for i := range 3 {
		c := mkCall(tenant, fmt.Sprintf("c%d", i), "add")
		done := execute(ctxT(t), b, c)
		m := next(t, local)
		b.Deliver(local, m.Call.ID, json.RawMessage(`1`), nil)
		if o := wait(t, done); o.err != nil {
			t.Fatal(o.err)
		}
		if _, found, _ := st.GetToolCall(ctxT(t), tenant, m.Call.ID); found {
			t.Errorf("a call a local worker served went through the store")
		}
	}
	quiet(t, remote, 100*time.Millisecond)
	tools, err := b.AllTools(ctxT(t), tenant)
	if err != nil || len(tools) != 1 || tools[0].Name != "add" || tools[0].Workers != 2 || tools[0].Description != "the add tool" {
		t.Errorf("AllTools on B = %+v, %v; want add with 2 workers", tools, err)
	}
}

func TestRoutedCallMovesWhenTheWorkerLeaves(t *testing.T) {
	t.Run("to a replica with a worker", func(t *testing.T) {
		st := openStore(t)
		a, b, c := startHub(t, st, "replica-a"), startHub(t, st, "replica-b"), startHub(t, st, "replica-c")
		wa := a.Connect(tenant, "wa", defs("add"), 0)
		waitServed(t, b, tenant, "add", true)
		done := execute(ctxT(t), b, mkCall(tenant, "c1", "add"))
		first := next(t, wa)
		wc := c.Connect(tenant, "wc", defs("add"), 0)
		a.Disconnect(wa)
		moved := next(t, wc)
		if moved.Call == nil || moved.Call.ID != first.Call.ID {
			t.Fatalf("worker on C got %+v, want call %s", moved, first.Call.ID)
		}
		c.Deliver(wc, moved.Call.ID, json.RawMessage(`"from c"`), nil)
		if o := wait(t, done); o.err != nil || string(o.out) != `"from c"` {
			t.Fatalf("Execute on B = %s, %v; want \"from c\"", o.out, o.err)
		}
		// A's relay may claim the call once more after giving it back, when
		// a poll that began before wa left reaches the store after the
		// release; it finds no worker and gives it back again. So C's claim
		// is the second or a later one.
		got, found, err := st.GetToolCall(ctxT(t), tenant, first.Call.ID)
		if err != nil || !found || got.Owner != "replica-c" || got.Claims < 2 || !got.Done {
			t.Errorf("the call in the store: %+v %v %v; want done by replica-c on a later claim than A's", got, found, err)
		}
	})
	t.Run("from a replica that died holding it", func(t *testing.T) {
		st := openStore(t)
		b := startHub(t, st, "replica-b")
		// A replica that dies: its advert and its claim are never renewed.
		dead := []store.ToolAdvert{{Tenant: tenant, Tool: "add", Workers: 1}}
		if err := st.AdvertiseTools(ctxT(t), "replica-dead", dead, time.Now().Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		waitServed(t, b, tenant, "add", true)
		done := execute(ctxT(t), b, mkCall(tenant, "c1", "add"))
		waitFor(t, func() bool {
			claimed, err := st.ClaimToolCalls(ctxT(t), tenant, "replica-dead", []string{"add"}, time.Now(), 500*time.Millisecond, 1)
			return err == nil && len(claimed) == 1
		})
		c := startHub(t, st, "replica-c")
		wc := c.Connect(tenant, "wc", defs("add"), 0)
		m := next(t, wc)
		if m.Call == nil || m.Call.ID != "run_1/c1" {
			t.Fatalf("worker on C got %+v, want the dead replica's call", m)
		}
		c.Deliver(wc, m.Call.ID, json.RawMessage(`"from c"`), nil)
		if o := wait(t, done); o.err != nil || string(o.out) != `"from c"` {
			t.Fatalf("Execute on B = %s, %v; want \"from c\"", o.out, o.err)
		}
		got, _, _ := st.GetToolCall(ctxT(t), tenant, "run_1/c1")
		if got.Owner != "replica-c" || got.Claims != 2 {
			t.Errorf("the call in the store: %+v; want done by replica-c on its second claim", got)
		}
	})
	t.Run("with none left it fails transiently", func(t *testing.T) {
		st := openStore(t)
		a, b := startHub(t, st, "replica-a"), startHub(t, st, "replica-b")
		wa := a.Connect(tenant, "wa", defs("add"), 0)
		waitServed(t, b, tenant, "add", true)
		done := execute(ctxT(t), b, mkCall(tenant, "c1", "add"))
		next(t, wa)
		a.Disconnect(wa)
		wantTransient(t, wait(t, done).err)
	})
}

// A retried or taken-over call finds the call it made before: the worker
// runs it once, and both waits get its result.
func TestRoutedCallIsNotDuplicated(t *testing.T) {
	st := openStore(t)
	a, b, b2 := startHub(t, st, "replica-a"), startHub(t, st, "replica-b"), startHub(t, st, "replica-b2")
	w := a.Connect(tenant, "adder", defs("add"), 0)
	waitServed(t, b, tenant, "add", true)
	waitServed(t, b2, tenant, "add", true)
	ctx, cancel := context.WithCancel(ctxT(t))
	first := execute(ctx, b, mkCall(tenant, "c1", "add"))
	m := next(t, w)
	cancel() // replica B gives up (it stops, or the Run is taken over)
	if o := wait(t, first); !errors.Is(o.err, context.Canceled) {
		t.Fatalf("Execute on B = %v, want context.Canceled", o.err)
	}
	again := execute(ctxT(t), b2, mkCall(tenant, "c1", "add"))
	quiet(t, w, 200*time.Millisecond)
	a.Deliver(w, m.Call.ID, json.RawMessage(`"once"`), nil)
	if o := wait(t, again); o.err != nil || string(o.out) != `"once"` {
		t.Fatalf("the retried call = %s, %v; want the first call's result", o.out, o.err)
	}
	// Done calls answer at once, without a worker.
	a.Disconnect(w)
	waitServed(t, b, tenant, "add", false)
	if out, err := b.Execute(ctxT(t), mkCall(tenant, "c1", "add")); err != nil || string(out) != `"once"` {
		t.Errorf("the done call = %s, %v; want its result", out, err)
	}
}

// At the call's deadline the caller stops waiting and the worker is told
// to cancel the call; the caller's retry runs it again.
func TestRoutedCallDeadline(t *testing.T) {
	st := openStore(t)
	a, b := startHub(t, st, "replica-a"), startHub(t, st, "replica-b")
	w := a.Connect(tenant, "slow", defs("add"), 0)
	waitServed(t, b, tenant, "add", true)
	c := mkCall(tenant, "c1", "add")
	c.Deadline = time.Now().Add(500 * time.Millisecond)
	done := execute(context.Background(), b, c)
	m := next(t, w)
	if !m.Call.Deadline.Equal(c.Deadline) {
		t.Errorf("the worker got deadline %v, want %v", m.Call.Deadline, c.Deadline)
	}
	if o := wait(t, done); !errors.Is(o.err, context.DeadlineExceeded) {
		t.Fatalf("Execute on B = %v, want context.DeadlineExceeded", o.err)
	}
	if cancel := next(t, w); cancel.Cancel != m.Call.ID {
		t.Fatalf("worker got %+v, want a cancel of %s", cancel, m.Call.ID)
	}
	// The engine retries the call, with a new deadline: it runs again.
	c.Deadline = time.Now().Add(time.Minute)
	retried := execute(ctxT(t), b, c)
	again := next(t, w)
	if again.Call == nil || again.Call.ID != m.Call.ID || !again.Call.Deadline.Equal(c.Deadline) {
		t.Fatalf("worker got %+v, want call %s again with the new deadline", again, m.Call.ID)
	}
	a.Deliver(w, again.Call.ID, json.RawMessage(`"late but there"`), nil)
	if o := wait(t, retried); o.err != nil || string(o.out) != `"late but there"` {
		t.Fatalf("the retried call = %s, %v", o.out, o.err)
	}
}

// startBusyPair starts replicas a and b on one store st, with a single-slot
// worker w for add on a that b already sees.
func startBusyPair(t *testing.T) (st store.Store, a, b *toolworkers.Hub, w *toolworkers.Worker) {
	t.Helper()
	st = openStore(t)
	a, b = startHub(t, st, "replica-a"), startHub(t, st, "replica-b")
	w = a.Connect(tenant, "single", defs("add"), 1)
	waitServed(t, b, tenant, "add", true)
	return st, a, b, w
}

// A call its caller stops waiting for before any replica claimed it is
// never run.
func TestRoutedCallCancelledWhilePending(t *testing.T) {
	st, a, b, w := startBusyPair(t)
	busy := execute(ctxT(t), a, mkCall(tenant, "local", "add"))
	m := next(t, w)
	ctx, cancel := context.WithCancel(ctxT(t))
	pending := execute(ctx, b, mkCall(tenant, "c1", "add"))
	waitFor(t, func() bool {
		_, found, _ := st.GetToolCall(ctxT(t), tenant, "run_1/c1")
		return found
	})
	cancel()
	if o := wait(t, pending); !errors.Is(o.err, context.Canceled) {
		t.Fatalf("Execute on B = %v, want context.Canceled", o.err)
	}
	if _, found, _ := st.GetToolCall(ctxT(t), tenant, "run_1/c1"); found {
		t.Errorf("the abandoned call is still in the store")
	}
	release(t, a, w, m.Call.ID, busy)
	quiet(t, w, 300*time.Millisecond)
}

// With its only slot taken, the worker gets the other replica's call as
// soon as the slot frees up.
func TestRoutedCallWaitsForRoom(t *testing.T) {
	_, a, b, w := startBusyPair(t)
	busy := execute(ctxT(t), a, mkCall(tenant, "local", "add"))
	m := next(t, w)
	remote := execute(ctxT(t), b, mkCall(tenant, "c1", "add"))
	quiet(t, w, 300*time.Millisecond)
	release(t, a, w, m.Call.ID, busy)
	answerNext(t, a, w, "run_1/c1", "2", remote, "Execute on B")
}

func TestRoutedToolsListed(t *testing.T) {
	st := openStore(t)
	a, b := startHub(t, st, "replica-a"), startHub(t, st, "replica-b")
	a.Connect(tenant, "w1", defs("search", "add"), 0)
	a.Connect(tenant, "w2", defs("add"), 0)
	b.Connect(tenant, "w3", defs("add"), 0)
	a.Connect("acme", "w4", defs("secret_tool"), 0)
	waitServed(t, b, tenant, "search", true)
	tests := []struct {
		name   string
		hub    *toolworkers.Hub
		tenant string
		want   map[string]int
	}{
		{"on B", b, tenant, map[string]int{"add": 3, "search": 1}},
		{"on A", a, tenant, map[string]int{"add": 3, "search": 1}},
		{"another tenant on B", b, "acme", map[string]int{"secret_tool": 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var tools []toolworkers.ToolInfo
			poll(func() bool {
				var err error
				tools, err = tt.hub.AllTools(ctxT(t), tt.tenant)
				return err == nil && workerCounts(tools) == fmt.Sprint(tt.want)
			})
			if len(tools) != len(tt.want) {
				t.Fatalf("AllTools = %+v, want %v", tools, tt.want)
			}
			for _, ti := range tools {
				if ti.Workers != tt.want[ti.Name] {
					t.Errorf("%s has %d workers, want %d", ti.Name, ti.Workers, tt.want[ti.Name])
				}
				if ti.Description != "the "+ti.Name+" tool" || string(ti.Parameters) != `{"type":"object"}` {
					t.Errorf("%s lost its definition: %+v", ti.Name, ti.Definition)
				}
			}
			names, err := tt.hub.AllToolNames(ctxT(t), tt.tenant)
			if err != nil || len(names) != len(tt.want) {
				t.Errorf("AllToolNames = %v, %v", names, err)
			}
		})
	}
}

// workerCounts formats tools like a map of their worker counts.
func workerCounts(tools []toolworkers.ToolInfo) string {
	m := map[string]int{}
	for _, ti := range tools {
		m[ti.Name] = ti.Workers
	}
	return fmt.Sprint(m)
}

// waitFor waits until cond holds, failing the test when it never does.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	if !poll(cond) {
		t.Fatal("condition never held")
	}
}

// poll calls cond every 10ms until it holds, for 20 seconds at most, and
// reports whether it held.
func poll(cond func() bool) bool {
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}
