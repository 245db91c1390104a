// Package versions publishes and reads Spec Versions: validation at publish,
// content-addressed storage, and a cache of Versions, which never change.
package versions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/lru"
	"github.com/runsvc/runsvc/internal/netpolicy"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/store"
)

// Store is what a Registry keeps Specs in: store.Specs, and the channels
// a bus-enabled Spec declares when it is published.
type Store interface {
	store.Specs
	// DeclareChannels is store.Bus's.
	DeclareChannels(ctx context.Context, tenant, owner string, channels []string) error
}

// Registry publishes and finds Specs.
type Registry struct {
	store Store
	clock clock.Clock
	// cache holds Versions by tenant and name\x00version: a Version never
	// changes once published.
	cache *lru.Cache[*spec.Version]
	// newest remembers each Spec's newest Version by tenant and name, nil
	// unless Options.RememberNewest is set.
	newest *lru.Cache[string]
	// network refuses tool URLs naming an address it does not allow.
	network *netpolicy.Policy
	// importer lists the tools of the MCP servers Specs import.
	importer Importer
	// buildable, when set, is what this runsvc can run: Publish refuses
	// a Spec needing anything else.
	buildable *Buildable
}

// Options are what Publish checks a Spec against besides its validity.
// Every one is optional.
type Options struct {
	// Network is the outbound network policy Publish checks the tools'
	// URLs against; nil is the default policy (see netpolicy).
	Network *netpolicy.Policy
	// Importer lists the tools of the MCP servers Specs import; without
	// one, a Spec with mcp_servers fails to publish.
	Importer Importer
	// Buildable, when set, makes Publish refuse, with
	// *errs.SpecUnbuildable, a Spec whose model provider this runsvc does
	// not have; without it every valid Spec is accepted.
	Buildable *Buildable
	// RememberNewest makes Newest remember each Spec's newest Version
	// between reads. It is for a store that other processes write too
	// (replicas sharing PostgreSQL): there reading the newest is a round
	// trip per StartRun, and only the store can tell that another replica
	// published since, so a Run started on a remembered Version is created
	// conditional on it (store.NewRun.IfNoNewerVersion) and read again when
	// that fails. A store one process writes reads its newest exactly and
	// cheaply: there Newest reads every time.
	RememberNewest bool
}

// Buildable is what this runsvc can build a Run from: its model
// providers. Tool kinds are not checked here: a call of a kind no executor
// runs is *errs.DependencyMissing when it is made, since InvokeTool and
// other replicas may run it.
type Buildable struct {
	Providers map[string]bool
}

// checkBuildable lists what s needs that this runsvc lacks.
func (r *Registry) checkBuildable(s spec.Spec) error {
	if r.buildable == nil {
		return nil
	}
	var vs []errs.FieldViolation
	if !r.buildable.Providers[s.Model.Provider] {
		vs = append(vs, errs.FieldViolation{Field: "model.provider", Description: fmt.Sprintf("this runsvc has no model provider %q", s.Model.Provider)})
	}
	if len(vs) > 0 {
		return &errs.SpecUnbuildable{Spec: s.Name, Violations: vs}
	}
	return nil
}

// checkNetwork refuses a tool whose URL names a literal address the
// outbound network policy does not allow: nothing would ever reach it.
func (r *Registry) checkNetwork(s spec.Spec) error {
	for _, t := range s.Tools {
		raw := ""
		switch {
		case t.HTTP != nil:
			raw = t.HTTP.URL
		case t.MCP != nil:
			raw = t.MCP.URL
		case t.A2A != nil:
			raw = t.A2A.CardURL + t.A2A.URL // validation keeps exactly one
		}
		if err := r.network.CheckURL("tool "+t.Name, raw); err != nil {
			return err
		}
	}
	for _, m := range s.MCPServers {
		if err := r.network.CheckURL("MCP server "+m.Name, m.URL); err != nil {
			return err
		}
	}
	return nil
}

// versionCacheSize bounds the Versions a Registry keeps decoded.
const versionCacheSize = 4096

// New returns a Registry over a store.
func New(s Store, clk clock.Clock, o Options) *Registry {
	r := &Registry{store: s, clock: clk, cache: lru.New[*spec.Version](versionCacheSize), network: o.Network, importer: o.Importer, buildable: o.Buildable}
	if o.RememberNewest {
		r.newest = lru.New[string](versionCacheSize)
	}
	return r
}

// nameKey is the newest cache's key of a Spec name.
func nameKey(tenant, name string) lru.Key { return lru.Key{Tenant: tenant, ID: name} }

func versionKey(tenant, name, version string) lru.Key {
	return lru.Key{Tenant: tenant, ID: name + "\x00" + version}
}

// Publish validates s and stores it as a Version. It returns
// *errs.SpecInvalid listing every problem, including the unreadable fields
// the caller found while decoding it; created is false when an identical
// Version already existed.
func (r *Registry) Publish(ctx context.Context, tenant string, s spec.Spec, unreadable ...errs.FieldViolation) (*spec.Version, bool, error) {
	s = spec.Canonical(withoutImported(s))
	// Validation looks delegates up more than once (directly and along
	// every delegation chain); each is read from the store once.
	var lookupErr error
	found := map[string]*spec.Spec{}
	lookup := func(name string) (*spec.Spec, bool) {
		if known, ok := found[name]; ok {
			return known, known != nil
		}
		v, err := r.Get(ctx, tenant, name, "")
		if err != nil {
			var nf *errs.SpecNotFound
			if !errors.As(err, &nf) && lookupErr == nil {
				lookupErr = err
			}
			found[name] = nil
			return nil, false
		}
		found[name] = &v.Spec
		return &v.Spec, true
	}
	invalid := spec.Validate(s, lookup)
	if lookupErr != nil {
		return nil, false, lookupErr
	}
	if len(unreadable) > 0 {
		all := append([]errs.FieldViolation{}, unreadable...)
		var si *errs.SpecInvalid
		if errors.As(invalid, &si) {
			all = append(all, si.Violations...)
		}
		return nil, false, &errs.SpecInvalid{Spec: s.Name, Violations: all}
	}
	if invalid != nil {
		return nil, false, invalid
	}
	if err := r.checkNetwork(s); err != nil {
		return nil, false, err
	}
	if err := r.checkCommands(s); err != nil {
		return nil, false, err
	}
	if err := r.checkBuildable(s); err != nil {
		return nil, false, err
	}
	s, err := r.imported(ctx, tenant, s, lookup)
	if err != nil {
		return nil, false, err
	}
	body, err := json.Marshal(s)
	if err != nil {
		return nil, false, fmt.Errorf("encoding spec: %w", err)
	}
	stored, created, err := r.store.PutSpec(ctx, store.Spec{
		Tenant: tenant, Name: s.Name, Version: spec.Hash(s), Body: body, CreateTime: r.clock.Now().UTC(),
	})
	if err != nil {
		return nil, false, err
	}
	if created {
		r.Forget(tenant, s.Name)
	}
	if s.Bus.Enabled {
		if err := r.store.DeclareChannels(ctx, tenant, s.Name, append([]string{s.Name}, s.Bus.Channels...)); err != nil {
			return nil, false, err
		}
	}
	v, err := decode(stored)
	return v, created, err
}

// Get returns a Version, the newest when version is empty, or
// *errs.SpecNotFound.
func (r *Registry) Get(ctx context.Context, tenant, name, version string) (*spec.Version, error) {
	if version != "" {
		if v, ok := r.cache.Get(versionKey(tenant, name, version)); ok {
			return v, nil
		}
	}
	stored, err := r.store.GetSpec(ctx, tenant, name, version)
	if err != nil {
		return nil, err
	}
	// The newest Version is read from the store every time (another
	// replica may have published one), but decoded only once: decoding it
	// for every StartRun was 5% of the bench's CPU.
	if v, ok := r.cache.Get(versionKey(tenant, name, stored.Version)); ok {
		return v, nil
	}
	v, err := decode(stored)
	if err != nil {
		return nil, err
	}
	r.cache.Add(versionKey(tenant, name, v.Version), v)
	return v, nil
}

// Newest returns a Spec's newest Version or *errs.SpecNotFound.
// remembered is true when the Version came from this Registry's memory,
// not the store, which happens only with Options.RememberNewest: create the Run
// with store.NewRun.IfNoNewerVersion, and on store.ErrConditionFailed
// take ReadNewest's instead.
func (r *Registry) Newest(ctx context.Context, tenant, name string) (v *spec.Version, remembered bool, err error) {
	if r.newest != nil {
		if version, ok := r.newest.Get(nameKey(tenant, name)); ok {
			if v, ok := r.cache.Get(versionKey(tenant, name, version)); ok {
				return v, true, nil
			}
		}
	}
	v, err = r.ReadNewest(ctx, tenant, name)
	return v, false, err
}

// ReadNewest reads a Spec's newest Version from the store and remembers
// it in place of what Newest remembered, or is *errs.SpecNotFound.
func (r *Registry) ReadNewest(ctx context.Context, tenant, name string) (*spec.Version, error) {
	r.Forget(tenant, name)
	v, err := r.Get(ctx, tenant, name, "")
	if err != nil {
		return nil, err
	}
	if r.newest != nil {
		r.newest.Add(nameKey(tenant, name), v.Version)
	}
	return v, nil
}

// Forget drops the newest Version remembered for a Spec name.
func (r *Registry) Forget(tenant, name string) {
	if r.newest != nil {
		r.newest.Remove(nameKey(tenant, name))
	}
}

// List lists Specs: the newest Version of each, or every Version of one.
func (r *Registry) List(ctx context.Context, tenant string, q store.SpecQuery) ([]*spec.Version, string, error) {
	page, next, err := r.store.ListSpecs(ctx, tenant, q)
	if err != nil {
		return nil, "", err
	}
	out := make([]*spec.Version, 0, len(page))
	for _, p := range page {
		v, err := decode(p)
		if err != nil {
			return nil, "", err
		}
		out = append(out, v)
	}
	return out, next, nil
}

func decode(s store.Spec) (*spec.Version, error) {
	v := &spec.Version{Version: s.Version, CreateTime: s.CreateTime}
	if err := json.Unmarshal(s.Body, &v.Spec); err != nil {
		return nil, fmt.Errorf("stored spec %s/%s does not decode: %w", s.Name, s.Version, err)
	}
	return v, nil
}

// Import stores a Version another server published, as it was there (its
// body, version and publish time), after checking that the body decodes
// and hashes to its version and passes this server's network policy. A
// Version that exists already is left as it is. A body that does not fit
// is *errs.InvalidRequest on field.
func (r *Registry) Import(ctx context.Context, field string, s store.Spec) (*spec.Version, error) {
	v, err := decode(s)
	if err != nil {
		return nil, errs.BadField(field, "does not decode: %v", err)
	}
	if v.Name != s.Name || spec.Hash(v.Spec) != s.Version {
		return nil, errs.BadField(field, "the Spec's content does not hash to its version %s", s.Version)
	}
	if err := r.checkNetwork(v.Spec); err != nil {
		return nil, err
	}
	stored, _, err := r.store.PutSpec(ctx, s)
	if err != nil {
		return nil, err
	}
	if v.Bus.Enabled {
		if err := r.store.DeclareChannels(ctx, s.Tenant, s.Name, append([]string{s.Name}, v.Bus.Channels...)); err != nil {
			return nil, err
		}
	}
	return decode(stored)
}
