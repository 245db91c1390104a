package memory_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/memory"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/sqlite"
)

const tenant = store.DefaultTenant

func open(t *testing.T) (*memory.Service, store.Store) {
	t.Helper()
	db, err := sqlite.Open(t.TempDir(), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return memory.New(db, clock.Real{}), db
}

func ctxT(t *testing.T) context.Context {
	t.Helper()
	c, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return c
}

func createRun(t *testing.T, s store.Store, tenant, id, parent, root string) {
	t.Helper()
	now := time.Now().UTC()
	_, created, err := s.CreateRun(ctxT(t), store.NewRun{
		Run: store.Run{
			Tenant: tenant, RunID: id, Spec: "s", Version: "v1", ParentRunID: parent, RootRunID: root, CreateTime: now,
			Index: store.Index{State: "QUEUED"},
		},
		Records: []store.Record{{Seq: 1, Time: now, Kind: "admitted", Body: []byte(`{}`)}},
	})
	if err != nil || !created {
		t.Fatalf("CreateRun(%s) = %v, %v", id, created, err)
	}
}

func assertBadField(t *testing.T, err error, field string) {
	t.Helper()
	var ir *errs.InvalidRequest
	if !errors.As(err, &ir) {
		t.Fatalf("error = %T %v, want *errs.InvalidRequest", err, err)
	}
	if len(ir.Violations) != 1 || ir.Violations[0].Field != field {
		t.Fatalf("violations = %+v, want one of %s", ir.Violations, field)
	}
}

func TestResolve(t *testing.T) {
	m, s := open(t)
	createRun(t, s, tenant, "run_root", "", "run_root")
	createRun(t, s, tenant, "run_child", "run_root", "run_root")
	createRun(t, s, tenant, "run_grandchild", "run_child", "run_root")
	createRun(t, s, "acme", "run_acme", "", "run_acme")

	tests := []struct {
		name     string
		tenant   string
		scope    memory.Scope
		want     string
		badField string // an *errs.InvalidRequest on this field
		notFound string // an *errs.RunNotFound for this run
	}{
		{name: "root run is its family", tenant: tenant, scope: memory.Scope{RunID: "run_root"}, want: "family/run_root"},
		{name: "child run shares the root's family", tenant: tenant, scope: memory.Scope{RunID: "run_child"}, want: "family/run_root"},
		{name: "grandchild shares the root's family", tenant: tenant, scope: memory.Scope{RunID: "run_grandchild"}, want: "family/run_root"},
		{name: "unknown run", tenant: tenant, scope: memory.Scope{RunID: "run_nope"}, notFound: "run_nope"},
		{name: "another tenant's run", tenant: tenant, scope: memory.Scope{RunID: "run_acme"}, notFound: "run_acme"},
		{name: "own tenant's run", tenant: "acme", scope: memory.Scope{RunID: "run_acme"}, want: "family/run_acme"},
		{name: "namespace", tenant: tenant, scope: memory.Scope{Namespace: "team.notes"}, want: "ns/team.notes"},
		{name: "namespace with every allowed character", tenant: tenant, scope: memory.Scope{Namespace: "A9_b.c:d-e"}, want: "ns/A9_b.c:d-e"},
		{name: "namespace of 128 characters", tenant: tenant, scope: memory.Scope{Namespace: strings.Repeat("n", 128)}, want: "ns/" + strings.Repeat("n", 128)},
		{name: "namespace of 129 characters", tenant: tenant, scope: memory.Scope{Namespace: strings.Repeat("n", 129)}, badField: "scope.namespace"},
		{name: "namespace starting with punctuation", tenant: tenant, scope: memory.Scope{Namespace: "_notes"}, badField: "scope.namespace"},
		{name: "namespace with a slash", tenant: tenant, scope: memory.Scope{Namespace: "a/b"}, badField: "scope.namespace"},
		{name: "namespace with a space", tenant: tenant, scope: memory.Scope{Namespace: "a b"}, badField: "scope.namespace"},
		{name: "both", tenant: tenant, scope: memory.Scope{RunID: "run_root", Namespace: "notes"}, badField: "scope"},
		{name: "neither", tenant: tenant, scope: memory.Scope{}, badField: "scope"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := m.Resolve(ctxT(t), tt.tenant, tt.scope)
			switch {
			case tt.badField != "":
				assertBadField(t, err, tt.badField)
			case tt.notFound != "":
				var nf *errs.RunNotFound
				if !errors.As(err, &nf) || nf.RunID != tt.notFound {
					t.Fatalf("Resolve = %q, %T %v; want *errs.RunNotFound for %s", got, err, err, tt.notFound)
				}
			default:
				if err != nil || got != tt.want {
					t.Fatalf("Resolve = %q, %v; want %q", got, err, tt.want)
				}
			}
		})
	}
	t.Run("family namespace", func(t *testing.T) {
		if got := m.FamilyNamespace("run_x"); got != "family/run_x" {
			t.Errorf("FamilyNamespace = %q", got)
		}
	})
}

func TestSet(t *testing.T) {
	m, _ := open(t)
	largest := json.RawMessage(`"` + strings.Repeat("x", memory.MaxValueBytes-2) + `"`)
	tests := []struct {
		name        string
		key         string
		value       json.RawMessage
		notPortable bool
		badField    string
	}{
		{name: "object", key: "k", value: json.RawMessage(`{"a":1}`)},
		{name: "string", key: "s", value: json.RawMessage(`"hello"`)},
		{name: "null", key: "n", value: json.RawMessage(`null`)},
		{name: "exactly the largest value", key: "big", value: largest},
		{name: "key of the longest length", key: strings.Repeat("k", memory.MaxKeyBytes), value: json.RawMessage(`1`)},
		{name: "empty value", key: "k", value: nil, notPortable: true},
		{name: "empty but not nil value", key: "k", value: json.RawMessage{}, notPortable: true},
		{name: "not JSON", key: "k", value: json.RawMessage(`{not json`), notPortable: true},
		{name: "two JSON values", key: "k", value: json.RawMessage(`1 2`), notPortable: true},
		{name: "too large", key: "k", value: json.RawMessage(`"` + strings.Repeat("x", memory.MaxValueBytes-1) + `"`), notPortable: true},
		{name: "empty key", key: "", value: json.RawMessage(`1`), badField: "key"},
		{name: "key too long", key: strings.Repeat("k", memory.MaxKeyBytes+1), value: json.RawMessage(`1`), badField: "key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := m.Set(ctxT(t), tenant, "ns/test", tt.key, tt.value)
			switch {
			case tt.badField != "":
				assertBadField(t, err, tt.badField)
			case tt.notPortable:
				var vp *errs.ValueNotPortable
				if !errors.As(err, &vp) {
					t.Fatalf("Set = %T %v, want *errs.ValueNotPortable", err, err)
				}
				if vp.Path != "value" || vp.Reason == "" {
					t.Errorf("ValueNotPortable = %+v, want path value and a reason", vp)
				}
			default:
				if err != nil {
					t.Fatalf("Set = %v", err)
				}
				if e.Key != tt.key || string(e.Value) != string(tt.value) || e.Version <= 0 {
					t.Errorf("entry = %+v", e)
				}
				got, err := m.Get(ctxT(t), tenant, "ns/test", []string{tt.key}, 0)
				if err != nil || len(got) != 1 || string(got[0].Value) != string(tt.value) {
					t.Errorf("reading it back = %d entries, %v", len(got), err)
				}
			}
		})
	}
	t.Run("versions increase", func(t *testing.T) {
		var last int64
		for i := range 3 {
			e, err := m.Set(ctxT(t), tenant, "ns/versions", "k", json.RawMessage(fmt.Sprint(i)))
			if err != nil {
				t.Fatal(err)
			}
			if e.Version <= last {
				t.Fatalf("version %d after %d", e.Version, last)
			}
			last = e.Version
		}
	})
}

func TestGetWithoutWait(t *testing.T) {
	m, _ := open(t)
	for k, v := range map[string]string{"a": `"A"`, "c": `{"c":3}`, "z": `26`} {
		if _, err := m.Set(ctxT(t), tenant, "ns/get", k, json.RawMessage(v)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := m.Set(ctxT(t), tenant, "ns/other", "b", json.RawMessage(`"other namespace"`)); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Set(ctxT(t), "acme", "ns/get", "b", json.RawMessage(`"other tenant"`)); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		keys []string
		want []string // keys of the returned entries, in order
	}{
		{"in the order asked", []string{"z", "a", "c"}, []string{"z", "a", "c"}},
		{"missing keys are left out", []string{"c", "b", "a"}, []string{"c", "a"}},
		{"all missing", []string{"b", "y"}, nil},
		{"one key", []string{"a"}, []string{"a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := m.Get(ctxT(t), tenant, "ns/get", tt.keys, 0)
			if err != nil {
				t.Fatalf("Get = %v", err)
			}
			var keys []string
			for _, e := range got {
				keys = append(keys, e.Key)
			}
			if strings.Join(keys, ",") != strings.Join(tt.want, ",") {
				t.Errorf("Get(%v) keys = %v, want %v", tt.keys, keys, tt.want)
			}
		})
	}
	t.Run("values", func(t *testing.T) {
		got, err := m.Get(ctxT(t), tenant, "ns/get", []string{"c"}, 0)
		if err != nil || len(got) != 1 || string(got[0].Value) != `{"c":3}` {
			t.Fatalf("Get = %+v, %v", got, err)
		}
	})

	badTests := []struct {
		name  string
		keys  []string
		wait  time.Duration
		field string
	}{
		{"no keys", nil, 0, "keys"},
		{"too many keys", make([]string, memory.MaxKeys+1), 0, "keys"},
		{"empty key", []string{"a", ""}, 0, "keys[1]"},
		{"key too long", []string{strings.Repeat("k", memory.MaxKeyBytes+1)}, 0, "keys[0]"},
		{"negative wait", []string{"a"}, -time.Second, "wait"},
		{"wait too long", []string{"a"}, memory.MaxWait + time.Second, "wait"},
	}
	for _, tt := range badTests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := m.Get(ctxT(t), tenant, "ns/get", tt.keys, tt.wait)
			assertBadField(t, err, tt.field)
		})
	}
}

type getResult struct {
	entries []store.Entry
	err     error
	elapsed time.Duration
}

func getAsync(ctx context.Context, m *memory.Service, namespace string, keys []string, wait time.Duration) <-chan getResult {
	ch := make(chan getResult, 1)
	go func() {
		start := time.Now()
		e, err := m.Get(ctx, tenant, namespace, keys, wait)
		ch <- getResult{e, err, time.Since(start)}
	}()
	return ch
}

func TestGetWithWait(t *testing.T) {
	t.Run("woken by a concurrent Set", func(t *testing.T) {
		m, _ := open(t)
		res := getAsync(ctxT(t), m, "ns/w", []string{"answer"}, time.Minute)
		time.Sleep(100 * time.Millisecond)
		if _, err := m.Set(ctxT(t), tenant, "ns/w", "answer", json.RawMessage(`42`)); err != nil {
			t.Fatal(err)
		}
		r := <-res
		if r.err != nil || len(r.entries) != 1 || string(r.entries[0].Value) != "42" {
			t.Fatalf("Get = %+v, %v; want answer=42", r.entries, r.err)
		}
	})
	t.Run("a write elsewhere does not satisfy it", func(t *testing.T) {
		m, _ := open(t)
		const wait = 300 * time.Millisecond
		res := getAsync(ctxT(t), m, "ns/w", []string{"answer"}, wait)
		time.Sleep(50 * time.Millisecond)
		if _, err := m.Set(ctxT(t), tenant, "ns/elsewhere", "answer", json.RawMessage(`1`)); err != nil {
			t.Fatal(err)
		}
		if _, err := m.Set(ctxT(t), tenant, "ns/w", "other", json.RawMessage(`1`)); err != nil {
			t.Fatal(err)
		}
		r := <-res
		var at *errs.AwaitTimeout
		if !errors.As(r.err, &at) || at.Key != "answer" {
			t.Fatalf("Get = %+v, %v; want *errs.AwaitTimeout for answer", r.entries, r.err)
		}
		if r.elapsed < wait {
			t.Errorf("gave up after %v, before the %v wait", r.elapsed, wait)
		}
	})
	t.Run("keys arriving in another order come back in the order asked", getReturnsKeysInAskedOrder)
	t.Run("each missing key is waited for in turn", getWaitsForEachMissingKey)
	t.Run("only the keys still missing are named", func(t *testing.T) {
		m, _ := open(t)
		if _, err := m.Set(ctxT(t), tenant, "ns/w", "have", json.RawMessage(`1`)); err != nil {
			t.Fatal(err)
		}
		const wait = 150 * time.Millisecond
		r := <-getAsync(ctxT(t), m, "ns/w", []string{"have", "gone"}, wait)
		var at *errs.AwaitTimeout
		if !errors.As(r.err, &at) || at.Key != "gone" || strings.Join(at.MissingKeys, ",") != "gone" {
			t.Fatalf("Get = %v (%+v), want AwaitTimeout for gone only", r.err, at)
		}
		if r.elapsed < wait {
			t.Errorf("gave up after %v, before the %v wait", r.elapsed, wait)
		}
	})
	t.Run("the caller's cancellation ends the wait", func(t *testing.T) {
		m, _ := open(t)
		ctx, cancel := context.WithCancel(ctxT(t))
		res := getAsync(ctx, m, "ns/w", []string{"never"}, time.Minute)
		time.Sleep(50 * time.Millisecond)
		cancel()
		if r := <-res; !errors.Is(r.err, context.Canceled) {
			t.Fatalf("Get = %v, want context.Canceled", r.err)
		}
	})
}

// getReturnsKeysInAskedOrder: keys set while Get waits, in another order
// than asked, come back in the order asked.
func getReturnsKeysInAskedOrder(t *testing.T) {
	m, _ := open(t)
	if _, err := m.Set(ctxT(t), tenant, "ns/w", "have", json.RawMessage(`"h"`)); err != nil {
		t.Fatal(err)
	}
	res := getAsync(ctxT(t), m, "ns/w", []string{"later", "have", "last"}, time.Minute)
	time.Sleep(50 * time.Millisecond)
	for _, k := range []string{"last", "later"} {
		time.Sleep(50 * time.Millisecond)
		if _, err := m.Set(ctxT(t), tenant, "ns/w", k, json.RawMessage(`"`+k+`"`)); err != nil {
			t.Fatal(err)
		}
	}
	r := <-res
	if r.err != nil {
		t.Fatal(r.err)
	}
	var keys []string
	for _, e := range r.entries {
		keys = append(keys, e.Key)
	}
	if strings.Join(keys, ",") != "later,have,last" {
		t.Errorf("keys = %v, want later,have,last", keys)
	}
}

// getWaitsForEachMissingKey: with two keys missing Get waits the full wait
// for each and then names the first and both missing keys.
func getWaitsForEachMissingKey(t *testing.T) {
	m, _ := open(t)
	const wait = 200 * time.Millisecond
	r := <-getAsync(ctxT(t), m, "ns/w", []string{"first", "second"}, wait)
	var at *errs.AwaitTimeout
	if !errors.As(r.err, &at) {
		t.Fatalf("Get = %+v, %T %v; want *errs.AwaitTimeout", r.entries, r.err, r.err)
	}
	if at.Key != "first" {
		t.Errorf("Key = %q, want first, the first missing key", at.Key)
	}
	if strings.Join(at.MissingKeys, ",") != "first,second" {
		t.Errorf("MissingKeys = %v, want [first second]", at.MissingKeys)
	}
	if at.Wait != wait {
		t.Errorf("Wait = %v, want %v", at.Wait, wait)
	}
	if want := "Timeout waiting for :first in ns/w after 0.2 seconds"; at.Error() != want {
		t.Errorf("Error() = %q, want %q", at.Error(), want)
	}
	if r.elapsed < 2*wait {
		t.Errorf("gave up after %v; with two missing keys it waits %v for each", r.elapsed, wait)
	}
}

// watchTest is one Watch of ns/watch and the key=value entries it must
// send.
type watchTest struct {
	name            string
	patterns        []string
	includeExisting bool
	wantExisting    []string // key=value sent before the new writes
	wantNew         []string // key=value sent for the new writes
}

// watchTests are TestWatch's cases. Before the watch: x=0, user.a=1.
// During it: user.b=2, x2=3, user.a=4.
var watchTests = []watchTest{
	{"all new writes", nil, false, nil, []string{"user.b=2", "x2=3", "user.a=4"}},
	{"existing first, then new", nil, true, []string{"x=0", "user.a=1"}, []string{"user.b=2", "x2=3", "user.a=4"}},
	{"one pattern", []string{"user.*"}, false, nil, []string{"user.b=2", "user.a=4"}},
	{"pattern with existing", []string{"user.*"}, true, []string{"user.a=1"}, []string{"user.b=2", "user.a=4"}},
	{"several patterns", []string{"x?", "user.a"}, true, []string{"user.a=1"}, []string{"x2=3", "user.a=4"}},
	{"no match", []string{"nothing*"}, true, nil, nil},
}

func TestWatch(t *testing.T) {
	for _, tt := range watchTests {
		t.Run(tt.name, func(t *testing.T) {
			m, _ := open(t)
			set := func(ns, k, v string) {
				t.Helper()
				if _, err := m.Set(ctxT(t), tenant, ns, k, json.RawMessage(v)); err != nil {
					t.Fatal(err)
				}
			}
			set("ns/watch", "x", "0")
			set("ns/watch", "user.a", "1")

			ctx, cancel := context.WithCancel(ctxT(t))
			got := make(chan string, 100)
			done := make(chan error, 1)
			go func() {
				done <- m.Watch(ctx, tenant, "ns/watch", tt.patterns, tt.includeExisting, func(e store.Entry) error {
					got <- e.Key + "=" + string(e.Value)
					return nil
				})
			}()
			for _, w := range tt.wantExisting {
				if g := recv(t, got); g != w {
					t.Fatalf("got %s, want %s", g, w)
				}
			}
			// Let the watch settle on what exists before writing more.
			time.Sleep(100 * time.Millisecond)
			set("ns/elsewhere", "user.z", "9")
			set("ns/watch", "user.b", "2")
			set("ns/watch", "x2", "3")
			set("ns/watch", "user.a", "4")
			for _, w := range tt.wantNew {
				if g := recv(t, got); g != w {
					t.Fatalf("got %s, want %s", g, w)
				}
			}
			// Give anything that should not come a chance to.
			time.Sleep(100 * time.Millisecond)
			cancel()
			if err := <-done; !errors.Is(err, context.Canceled) {
				t.Errorf("Watch = %v, want context.Canceled", err)
			}
			close(got)
			for g := range got {
				t.Errorf("unexpected entry %s", g)
			}
		})
	}
	t.Run("send's error ends the watch", func(t *testing.T) {
		m, _ := open(t)
		if _, err := m.Set(ctxT(t), tenant, "ns/watch", "k", json.RawMessage(`1`)); err != nil {
			t.Fatal(err)
		}
		stop := errors.New("client went away")
		err := m.Watch(ctxT(t), tenant, "ns/watch", nil, true, func(store.Entry) error { return stop })
		if !errors.Is(err, stop) {
			t.Fatalf("Watch = %v, want send's error", err)
		}
	})
	t.Run("bad pattern", func(t *testing.T) {
		m, _ := open(t)
		err := m.Watch(ctxT(t), tenant, "ns/watch", []string{"ok*", "[bad"}, true, func(store.Entry) error { return nil })
		assertBadField(t, err, "patterns[1]")
	})
}

func recv(t *testing.T, ch <-chan string) string {
	t.Helper()
	select {
	case s := <-ch:
		return s
	case <-time.After(10 * time.Second):
		t.Fatalf("watch sent nothing")
		return ""
	}
}
