package storetest

import (
	"context"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/store"
)

// ObservedOpener returns a fresh, empty store that the test owns, whose
// adapter reports each operation to observe (its Options.Observe).
type ObservedOpener func(t *testing.T, observe store.Observer) store.Store

// notOperations are the store.Store methods that touch no data and so are
// not timed.
var notOperations = map[string]bool{"Notifier": true, "Close": true}

// RunObserved checks that every store.Store operation, called once,
// reports itself to the adapter's Observe hook exactly once, by its method
// name, with the error it returned: the store latency metric
// (runsvc_store_operation_duration_seconds) is labelled by these names.
// The operations are found on the port by reflection, so one added to it
// later is checked without a change here.
func RunObserved(t *testing.T, open ObservedOpener) {
	var rec observations
	s := open(t, rec.observe)
	v := reflect.ValueOf(s)
	port := reflect.TypeFor[store.Store]()
	for i := range port.NumMethod() {
		name := port.Method(i).Name
		if notOperations[name] {
			continue
		}
		t.Run(name, func(t *testing.T) {
			rec.reset()
			out := v.MethodByName(name).Call(zeroArgs(ctx(t), port.Method(i).Type))
			var returned error
			if last := out[len(out)-1]; !last.IsNil() {
				returned = last.Interface().(error)
			}
			got := rec.reset()
			if len(got) != 1 || got[0].op != name {
				t.Fatalf("%s reported %v, want itself once", name, got)
			}
			if got[0].err != returned {
				t.Errorf("%s reported the error %v, returned %v", name, got[0].err, returned)
			}
		})
	}
}

// zeroArgs are arguments for a method of type m: ctx, then each
// parameter's zero value, pointers pointing at one.
func zeroArgs(ctx context.Context, m reflect.Type) []reflect.Value {
	args := make([]reflect.Value, m.NumIn())
	for i := range args {
		switch in := m.In(i); {
		case in == reflect.TypeFor[context.Context]():
			args[i] = reflect.ValueOf(ctx)
		case in.Kind() == reflect.Pointer:
			args[i] = reflect.New(in.Elem())
		default:
			args[i] = reflect.Zero(in)
		}
	}
	return args
}

// observation is one report to the Observe hook.
type observation struct {
	op  string
	err error
}

// observations records what the Observe hook hears.
type observations struct {
	mu  sync.Mutex
	all []observation
}

// observe is the Observe hook.
func (o *observations) observe(op string, _ time.Duration, err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.all = append(o.all, observation{op: op, err: err})
}

// reset returns what was heard since the last reset and forgets it.
func (o *observations) reset() []observation {
	o.mu.Lock()
	defer o.mu.Unlock()
	all := slices.Clone(o.all)
	o.all = nil
	return all
}
