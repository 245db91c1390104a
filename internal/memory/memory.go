// Package memory is the durable key-value memory Runs share: one per Run
// family (a root Run and its descendants) or per named namespace. Values
// are JSON; reads can wait for keys that are not written yet.
package memory

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"time"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
)

// Limits.
const (
	MaxValueBytes = 256 << 10
	MaxKeyBytes   = 256
	MaxKeys       = 100
	MaxWait       = 10 * time.Minute
)

var namespacePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$`)

// Store is what a Service keeps memories in.
type Store interface {
	store.Memory
	// GetRun finds a Run's family, whose memory a Scope may name.
	GetRun(ctx context.Context, tenant, runID string) (store.Run, error)
	// Notifier wakes the reads waiting for a key and the watches.
	Notifier() store.Notifier
}

// Service reads and writes memories.
type Service struct {
	store Store
	clock clock.Clock
}

// New returns a Service.
func New(s Store, clk clock.Clock) *Service { return &Service{store: s, clock: clk} }

// Scope names a memory: a Run's family, or an explicit namespace.
type Scope struct {
	RunID     string
	Namespace string
}

// FamilyNamespace is the memory of the Run family rooted at rootRunID.
func (s *Service) FamilyNamespace(rootRunID string) string { return "family/" + rootRunID }

// Resolve returns the namespace a scope names. A Run scope is its family's
// memory; an unknown Run is *errs.RunNotFound.
func (s *Service) Resolve(ctx context.Context, tenant string, sc Scope) (string, error) {
	switch {
	case sc.RunID != "" && sc.Namespace != "":
		return "", errs.BadField("scope", "name a run_id or a namespace, not both")
	case sc.RunID != "":
		run, err := s.store.GetRun(ctx, tenant, sc.RunID)
		if err != nil {
			return "", err
		}
		return s.FamilyNamespace(run.RootRunID), nil
	case sc.Namespace != "":
		if !namespacePattern.MatchString(sc.Namespace) {
			return "", errs.BadField("scope.namespace", "%q must be 1 to 128 letters, digits, '_', '.', ':' or '-', starting with a letter or digit", sc.Namespace)
		}
		return "ns/" + sc.Namespace, nil
	}
	return "", errs.BadField("scope", "is required: a run_id or a namespace")
}

// Set writes a key. A value that is not JSON or is over MaxValueBytes is
// *errs.ValueNotPortable.
func (s *Service) Set(ctx context.Context, tenant, namespace, key string, value json.RawMessage) (store.Entry, error) {
	if err := checkKey("key", key); err != nil {
		return store.Entry{}, err
	}
	switch {
	case len(value) == 0:
		return store.Entry{}, &errs.ValueNotPortable{Path: "value", Reason: "a value is required"}
	case len(value) > MaxValueBytes:
		return store.Entry{}, &errs.ValueNotPortable{Path: "value", Reason: fmt.Sprintf("it is %d bytes; at most %d cross the process boundary", len(value), MaxValueBytes)}
	case !json.Valid(value):
		return store.Entry{}, &errs.ValueNotPortable{Path: "value", Reason: "it is not representable as JSON"}
	}
	return s.store.SetValue(ctx, tenant, namespace, key, value, s.clock.Now())
}

func checkKey(field, key string) error {
	if key == "" || len(key) > MaxKeyBytes {
		return errs.BadField(field, "must be 1 to %d bytes", MaxKeyBytes)
	}
	return nil
}

// Get reads keys and returns the entries found, in the order asked. With
// a wait, it waits up to wait for each missing key in turn, so n missing
// keys can block up to n times wait, and then fails *errs.AwaitTimeout
// naming the first key that never came.
func (s *Service) Get(ctx context.Context, tenant, namespace string, keys []string, wait time.Duration) ([]store.Entry, error) {
	if len(keys) == 0 || len(keys) > MaxKeys {
		return nil, errs.BadField("keys", "name 1 to %d keys", MaxKeys)
	}
	for i, k := range keys {
		if err := checkKey(fmt.Sprintf("keys[%d]", i), k); err != nil {
			return nil, err
		}
	}
	if wait < 0 || wait > MaxWait {
		return nil, errs.BadField("wait", "must be between 0 and %s", MaxWait)
	}
	if wait == 0 {
		found, err := s.read(ctx, tenant, namespace, keys)
		return ordered(keys, found), err
	}
	// Subscribe before the first read, so that no write after it is missed.
	sub := s.store.Notifier().Subscribe(store.MemoryTopic(tenant, namespace))
	defer sub.Close()
	found, err := s.read(ctx, tenant, namespace, keys)
	if err != nil {
		return nil, err
	}
	for _, k := range keys {
		if _, ok := found[k]; ok {
			continue
		}
		if found, err = s.waitFor(ctx, sub, tenant, namespace, keys, k, wait); err != nil {
			return nil, err
		}
	}
	var missing []string
	for _, k := range keys {
		if _, ok := found[k]; !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return nil, &errs.AwaitTimeout{Key: missing[0], Namespace: namespace, Wait: wait, MissingKeys: missing}
	}
	return ordered(keys, found), nil
}

// waitFor waits up to wait for key to be written and returns the keys
// found by the last read.
func (s *Service) waitFor(ctx context.Context, sub store.Subscription, tenant, namespace string, keys []string, key string, wait time.Duration) (map[string]store.Entry, error) {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		select {
		case <-sub.C():
		case <-timer.C:
			return s.read(ctx, tenant, namespace, keys)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		found, err := s.read(ctx, tenant, namespace, keys)
		if err != nil {
			return nil, err
		}
		if _, ok := found[key]; ok {
			return found, nil
		}
	}
}

func (s *Service) read(ctx context.Context, tenant, namespace string, keys []string) (map[string]store.Entry, error) {
	entries, err := s.store.GetValues(ctx, tenant, namespace, keys)
	if err != nil {
		return nil, err
	}
	found := make(map[string]store.Entry, len(entries))
	for _, e := range entries {
		found[e.Key] = e
	}
	return found, nil
}

func ordered(keys []string, found map[string]store.Entry) []store.Entry {
	var out []store.Entry
	for _, k := range keys {
		if e, ok := found[k]; ok {
			out = append(out, e)
		}
	}
	return out
}

// Watch sends every write to keys matching patterns (path.Match globs;
// none means all), first the current entries when includeExisting, until
// ctx ends.
func (s *Service) Watch(ctx context.Context, tenant, namespace string, patterns []string, includeExisting bool, send func(store.Entry) error) error {
	for i, p := range patterns {
		if _, err := path.Match(p, ""); err != nil {
			return errs.BadField(fmt.Sprintf("patterns[%d]", i), "%q is not a glob pattern: %v", p, err)
		}
	}
	match := func(key string) bool {
		if len(patterns) == 0 {
			return true
		}
		for _, p := range patterns {
			if ok, _ := path.Match(p, key); ok {
				return true
			}
		}
		return false
	}
	sub := s.store.Notifier().Subscribe(store.MemoryTopic(tenant, namespace))
	defer sub.Close()
	var after int64
	if !includeExisting {
		existing, err := s.store.Changes(ctx, tenant, namespace, 0)
		if err != nil {
			return err
		}
		for _, e := range existing {
			after = max(after, e.Version)
		}
	}
	for {
		changes, err := s.store.Changes(ctx, tenant, namespace, after)
		if err != nil {
			return err
		}
		for _, e := range changes {
			after = max(after, e.Version)
			if match(e.Key) {
				if err := send(e); err != nil {
					return err
				}
			}
		}
		select {
		case <-sub.C():
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
