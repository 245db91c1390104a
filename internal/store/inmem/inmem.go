// Package inmem is a store adapter that keeps everything in memory: for
// tests of the engine and the Run manager that need no database and no
// gRPC server, and for trying runsvc out. It passes the same conformance
// suite (internal/store/storetest) as sqlite and postgres; it keeps
// nothing across restarts and is one process's only.
//
// One mutex guards everything, which makes every method one transaction;
// signals go out after the change, as the other adapters publish after
// commit.
package inmem

import (
	"context"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/notify"
	"github.com/runsvc/runsvc/internal/store/pagetoken"
)

// DB is an in-memory store.
type DB struct {
	hub *notify.Hub

	mu        sync.Mutex
	specs     map[string][]specRow // tenant + name -> versions in publish order
	specOrd   map[string]int64     // tenant -> last ord
	runs      map[runKey]*runRow
	memory    map[string]map[string]store.Entry // tenant + namespace -> key -> entry
	channels  map[string]map[string]bool        // tenant + channel -> owners
	messages  []*busRow
	adverts   map[advertKey]advertRow
	toolCalls map[runKey]*callRow
	threads   map[runKey]*store.Thread     // tenant + thread id
	history   map[runKey]store.HistoryPart // tenant + run id
	ord       int64
}

var _ store.Store = (*DB)(nil)

// New returns an empty store.
func New() *DB {
	return &DB{
		hub: notify.NewHub(), specs: map[string][]specRow{}, specOrd: map[string]int64{}, runs: map[runKey]*runRow{},
		memory: map[string]map[string]store.Entry{}, channels: map[string]map[string]bool{},
		adverts: map[advertKey]advertRow{}, toolCalls: map[runKey]*callRow{}, threads: map[runKey]*store.Thread{},
		history: map[runKey]store.HistoryPart{},
	}
}

// Notifier implements store.Store.
func (db *DB) Notifier() store.Notifier { return db.hub }

// Close implements store.Store; the data goes with the DB.
func (db *DB) Close() error { return nil }

// lock takes the store's mutex unless ctx has ended.
func (db *DB) lock(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	db.mu.Lock()
	return nil
}

// publish signals topics; call it after unlocking.
func (db *DB) publish(topics ...string) {
	for _, t := range topics {
		db.hub.Publish(t)
	}
}

// stamp is a time as the other adapters give it back: to the nanosecond,
// in UTC, zero for zero.
func stamp(t time.Time) time.Time { return store.FromNanos(store.Nanos(t)) }

// clone copies a byte slice, so callers never share the store's bytes.
func clone(b []byte) []byte {
	if b == nil {
		return nil
	}
	return slices.Clone(b)
}

type specRow struct {
	spec store.Spec
	ord  int64
}

// PutSpec implements store.Specs.
func (db *DB) PutSpec(ctx context.Context, s store.Spec) (store.Spec, bool, error) {
	if err := db.lock(ctx); err != nil {
		return store.Spec{}, false, err
	}
	defer db.mu.Unlock()
	key := s.Tenant + "\x00" + s.Name
	for _, r := range db.specs[key] {
		if r.spec.Version == s.Version {
			return copySpec(r.spec), false, nil
		}
	}
	db.specOrd[s.Tenant]++
	s.Body, s.CreateTime = clone(s.Body), stamp(s.CreateTime)
	db.specs[key] = append(db.specs[key], specRow{spec: s, ord: db.specOrd[s.Tenant]})
	return copySpec(s), true, nil
}

func copySpec(s store.Spec) store.Spec {
	s.Body = clone(s.Body)
	return s
}

// GetSpec implements store.Specs.
func (db *DB) GetSpec(ctx context.Context, tenant, name, version string) (store.Spec, error) {
	if err := db.lock(ctx); err != nil {
		return store.Spec{}, err
	}
	defer db.mu.Unlock()
	rows := db.specs[tenant+"\x00"+name]
	for i := len(rows) - 1; i >= 0; i-- {
		if version == "" || rows[i].spec.Version == version {
			return copySpec(rows[i].spec), nil
		}
	}
	return store.Spec{}, &errs.SpecNotFound{Name: name, Version: version}
}

// ListSpecs implements store.Specs.
func (db *DB) ListSpecs(ctx context.Context, tenant string, q store.SpecQuery) ([]store.Spec, string, error) {
	size := pagetoken.Size(q.PageSize)
	var after pagetoken.SpecPosition
	if err := pagetoken.Decode(q.PageToken, &after); err != nil {
		return nil, "", err
	}
	if err := db.lock(ctx); err != nil {
		return nil, "", err
	}
	defer db.mu.Unlock()
	var picked []specRow
	if q.Name != "" {
		for _, r := range db.specs[tenant+"\x00"+q.Name] {
			if r.ord > after.Ord {
				picked = append(picked, r)
			}
		}
	} else {
		for _, rows := range db.specs {
			newest := rows[len(rows)-1]
			if newest.spec.Tenant == tenant && newest.spec.Name > after.Name {
				picked = append(picked, newest)
			}
		}
		sort.Slice(picked, func(i, j int) bool { return picked[i].spec.Name < picked[j].spec.Name })
	}
	next := ""
	if len(picked) > size {
		picked = picked[:size]
		after.Name, after.Ord = picked[size-1].spec.Name, picked[size-1].ord
		next = pagetoken.Encode(after)
	}
	out := make([]store.Spec, len(picked))
	for i, r := range picked {
		out[i] = copySpec(r.spec)
	}
	return out, next, nil
}

// SetValue implements store.Memory.
func (db *DB) SetValue(ctx context.Context, tenant, namespace, key string, value []byte, now time.Time) (store.Entry, error) {
	if err := db.lock(ctx); err != nil {
		return store.Entry{}, err
	}
	mem := db.memory[tenant+"\x00"+namespace]
	if mem == nil {
		mem = map[string]store.Entry{}
		db.memory[tenant+"\x00"+namespace] = mem
	}
	var last int64
	for _, e := range mem {
		last = max(last, e.Version)
	}
	e := store.Entry{Key: key, Value: clone(value), Version: last + 1, UpdateTime: stamp(now)}
	mem[key] = e
	db.mu.Unlock()
	db.publish(store.MemoryTopic(tenant, namespace))
	e.Value = clone(e.Value)
	return e, nil
}

// GetValues implements store.Memory.
func (db *DB) GetValues(ctx context.Context, tenant, namespace string, keys []string) ([]store.Entry, error) {
	if err := db.lock(ctx); err != nil {
		return nil, err
	}
	defer db.mu.Unlock()
	var out []store.Entry
	mem := db.memory[tenant+"\x00"+namespace]
	for _, k := range keys {
		if e, ok := mem[k]; ok {
			e.Value = clone(e.Value)
			out = append(out, e)
		}
	}
	return out, nil
}

// Changes implements store.Memory.
func (db *DB) Changes(ctx context.Context, tenant, namespace string, after int64) ([]store.Entry, error) {
	if err := db.lock(ctx); err != nil {
		return nil, err
	}
	defer db.mu.Unlock()
	var out []store.Entry
	for _, e := range db.memory[tenant+"\x00"+namespace] {
		if e.Version > after {
			e.Value = clone(e.Value)
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	return out, nil
}

// ChecksNewestVersion is false: the store lives in this process, and
// GetSpec's newest is exact.
func (db *DB) ChecksNewestVersion() bool { return false }
