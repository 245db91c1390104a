package alias

import (
	"context"
	"errors"
	"fmt"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/store"
)

// Versions finds the Versions an alias may name: versions.Registry's Get,
// which is *errs.SpecNotFound for a Spec or Version that does not exist.
type Versions interface {
	Get(ctx context.Context, tenant, name, version string) (*spec.Version, error)
}

// Gate decides whether an alias may move to a Version: the replay
// evaluation's verdict.
type Gate interface {
	// Check returns nil when evaluation evaluationID of tenant evaluated the Version
	// (spec name, version id) and its score is at least minScore; otherwise a typed error.
	Check(ctx context.Context, tenant, evaluationID, spec, version string, minScore float64) error
}

// MaxHistory bounds the moves History returns.
const MaxHistory = 500

// maxWriteRetries bounds how often Move and Delete read an alias again
// after another writer moved it between their read and their write.
const maxWriteRetries = 8

// Registry keeps a tenant's aliases and moves them.
type Registry struct {
	store    store.Aliases
	versions Versions
	gate     Gate
	clock    clock.Clock
}

// New returns a Registry. gate may be nil: a move that asks for an
// evaluation then fails *errs.DependencyMissing.
func New(s store.Aliases, versions Versions, gate Gate, clk clock.Clock) *Registry {
	if clk == nil {
		clk = clock.Real{}
	}
	return &Registry{store: s, versions: versions, gate: gate, clock: clk}
}

// MoveRequest sets an alias, creating it when it does not exist.
type MoveRequest struct {
	Tenant string
	Spec   string
	Name   string
	// Version is where the alias points; empty is the Spec's newest.
	Version string
	// Canary, when set, takes CanaryPercent (1-99) of new Runs.
	Canary        string
	CanaryPercent int
	// Subject is who moves it, for the audit.
	Subject string
	// IfEvaluation, when set, moves the alias only if that evaluation
	// scored each Version the move names at least MinScore (Gate).
	IfEvaluation string
	MinScore     float64
}

// Move points an alias at the request's Versions and records the move.
// It returns *errs.AliasInvalid for a bad name, weight or Version,
// *errs.SpecNotFound for a Spec that does not exist, the Gate's error when
// the evaluation refuses it, and *errs.DependencyMissing when it names an
// evaluation and there is no Gate.
func (r *Registry) Move(ctx context.Context, req MoveRequest) (Alias, error) {
	to, err := r.target(ctx, req)
	if err != nil {
		return Alias{}, err
	}
	if err := r.check(ctx, req, to); err != nil {
		return Alias{}, err
	}
	for range maxWriteRetries {
		a, err := r.write(ctx, req, to)
		if !errors.Is(err, store.ErrConditionFailed) {
			return a, err
		}
	}
	return Alias{}, &errs.TransientFailure{Operation: "move alias " + req.Name, Message: "the alias kept changing under the move"}
}

// target checks a move's name and weight and finds its Versions.
func (r *Registry) target(ctx context.Context, req MoveRequest) (Target, error) {
	if err := checkName(req.Spec, req.Name); err != nil {
		return Target{}, err
	}
	var bad []errs.FieldViolation
	if req.Canary == "" && req.CanaryPercent != 0 {
		bad = append(bad, errs.FieldViolation{Field: "canary_percent", Description: "is set without a canary version"})
	}
	if req.Canary != "" && (req.CanaryPercent < 1 || req.CanaryPercent > 99) {
		bad = append(bad, errs.FieldViolation{Field: "canary_percent", Description: fmt.Sprintf("is %d; a canary takes 1 to 99 percent of new Runs", req.CanaryPercent)})
	}
	if req.IfEvaluation == "" && req.MinScore != 0 {
		bad = append(bad, errs.FieldViolation{Field: "min_score", Description: "is set without if_evaluation"})
	}
	primary, err := r.version(ctx, req, "version", req.Version, &bad)
	if err != nil {
		return Target{}, err
	}
	to := Target{Version: primary}
	if req.Canary != "" {
		if to.Canary, err = r.version(ctx, req, "canary", req.Canary, &bad); err != nil {
			return Target{}, err
		}
		to.CanaryPercent = req.CanaryPercent
		if to.Canary == to.Version && to.Canary != "" {
			bad = append(bad, errs.FieldViolation{Field: "canary", Description: "is the alias's version: a canary splits Runs between two Versions"})
		}
	}
	if len(bad) > 0 {
		return Target{}, &errs.AliasInvalid{Spec: req.Spec, Alias: req.Name, Violations: bad}
	}
	return to, nil
}

// version resolves one Version a move names (empty: the newest); a
// Version the Spec does not have is a violation of field.
func (r *Registry) version(ctx context.Context, req MoveRequest, field, v string, bad *[]errs.FieldViolation) (string, error) {
	sv, err := r.versions.Get(ctx, req.Tenant, req.Spec, v)
	var nf *errs.SpecNotFound
	switch {
	case errors.As(err, &nf) && v != "":
		if _, err := r.versions.Get(ctx, req.Tenant, req.Spec, ""); err != nil {
			return "", err
		}
		*bad = append(*bad, errs.FieldViolation{Field: field, Description: fmt.Sprintf("spec '%s' has no version %s", req.Spec, v)})
		return "", nil
	case err != nil:
		return "", err
	}
	return sv.Version, nil
}

// check asks the Gate about every Version the move names.
func (r *Registry) check(ctx context.Context, req MoveRequest, to Target) error {
	if req.IfEvaluation == "" {
		return nil
	}
	if r.gate == nil {
		return &errs.DependencyMissing{Dependency: "evaluations", Description: "evaluations are not available: this runsvc cannot gate an alias move on one (if_evaluation)"}
	}
	for _, v := range []string{to.Version, to.Canary} {
		if v == "" {
			continue
		}
		if err := r.gate.Check(ctx, req.Tenant, req.IfEvaluation, req.Spec, v, req.MinScore); err != nil {
			return err
		}
	}
	return nil
}

// write reads the alias and writes the move conditional on what it read.
func (r *Registry) write(ctx context.Context, req MoveRequest, to Target) (Alias, error) {
	cur, err := r.store.GetAlias(ctx, req.Tenant, req.Spec, req.Name)
	var nf *errs.AliasNotFound
	if err != nil && !errors.As(err, &nf) {
		return Alias{}, err
	}
	now := r.clock.Now().UTC()
	next := store.Alias{Tenant: req.Tenant, Spec: req.Spec, Name: req.Name, Version: to.Version, Canary: to.Canary,
		CanaryPercent: to.CanaryPercent, Revision: cur.Revision + 1, UpdateTime: now, UpdatedBy: req.Subject}
	w := store.AliasWrite{Alias: next, IfRevision: cur.Revision, Move: store.AliasMove{
		Tenant: req.Tenant, Spec: req.Spec, Name: req.Name, Revision: next.Revision, Time: now, Subject: req.Subject,
		FromVersion: cur.Version, FromCanary: cur.Canary, FromPercent: cur.CanaryPercent,
		ToVersion: to.Version, ToCanary: to.Canary, ToPercent: to.CanaryPercent,
	}}
	if err := r.store.WriteAlias(ctx, w); err != nil {
		return Alias{}, err
	}
	return fromStore(next), nil
}

// Get returns an alias or *errs.AliasNotFound.
func (r *Registry) Get(ctx context.Context, tenant, specName, name string) (Alias, error) {
	a, err := r.store.GetAlias(ctx, tenant, specName, name)
	if err != nil {
		return Alias{}, err
	}
	return fromStore(a), nil
}

// List lists a Spec's aliases by name, or every alias of the tenant when
// specName is empty.
func (r *Registry) List(ctx context.Context, tenant, specName string) ([]Alias, error) {
	as, err := r.store.ListAliases(ctx, tenant, specName)
	if err != nil {
		return nil, err
	}
	out := make([]Alias, 0, len(as))
	for _, a := range as {
		out = append(out, fromStore(a))
	}
	return out, nil
}

// Delete drops an alias, recording who did, or returns
// *errs.AliasNotFound. Runs started on it keep their Versions.
func (r *Registry) Delete(ctx context.Context, tenant, specName, name, subject string) error {
	for range maxWriteRetries {
		cur, err := r.store.GetAlias(ctx, tenant, specName, name)
		if err != nil {
			return err
		}
		err = r.store.WriteAlias(ctx, store.AliasWrite{Alias: cur, Delete: true, IfRevision: cur.Revision, Move: store.AliasMove{
			Tenant: tenant, Spec: specName, Name: name, Revision: cur.Revision + 1, Time: r.clock.Now().UTC(), Subject: subject,
			FromVersion: cur.Version, FromCanary: cur.Canary, FromPercent: cur.CanaryPercent,
		}})
		if !errors.Is(err, store.ErrConditionFailed) {
			return err
		}
	}
	return &errs.TransientFailure{Operation: "delete alias " + name, Message: "the alias kept changing under the deletion"}
}

// History lists an alias's moves, newest first, at most limit (0 or more
// than MaxHistory: MaxHistory), including those before a deletion.
func (r *Registry) History(ctx context.Context, tenant, specName, name string, limit int) ([]Move, error) {
	if limit <= 0 || limit > MaxHistory {
		limit = MaxHistory
	}
	ms, err := r.store.ListAliasMoves(ctx, tenant, specName, name, limit)
	if err != nil {
		return nil, err
	}
	out := make([]Move, 0, len(ms))
	for _, m := range ms {
		out = append(out, moveFromStore(m))
	}
	return out, nil
}

// Resolve is the Version a new Run of spec@name takes, keyed by key (see
// Alias.Pick), or *errs.AliasNotFound.
func (r *Registry) Resolve(ctx context.Context, tenant, specName, name, key string) (Alias, string, Side, error) {
	a, err := r.Get(ctx, tenant, specName, name)
	if err != nil {
		return Alias{}, "", "", err
	}
	v, side := a.Pick(key)
	return a, v, side, nil
}
