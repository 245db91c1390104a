package runs

import (
	"context"
	"errors"

	"github.com/runsvc/runsvc/internal/alias"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/ids"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/store"
)

// Aliases finds the aliases `spec@alias` starts name: alias.Registry's
// Get, *errs.AliasNotFound for one the Spec does not have.
type Aliases interface {
	Get(ctx context.Context, tenant, specName, name string) (alias.Alias, error)
}

// MaxStickyKeyBytes bounds StartRequest.StickyKey.
const MaxStickyKeyBytes = 128

// splitAlias moves the alias a start's `spec@alias` names into
// req.Alias, and refuses a start naming both an alias and a Version.
func splitAlias(req *StartRequest) error {
	if len(req.StickyKey) > MaxStickyKeyBytes {
		return errs.BadField("sticky_key", "is %d bytes; at most %d are allowed", len(req.StickyKey), MaxStickyKeyBytes)
	}
	if req.Alias == "" {
		name, a, err := alias.Ref(req.Spec)
		if err != nil {
			return err
		}
		req.Spec, req.Alias = name, a
	}
	if req.Alias != "" && req.Version != "" {
		return errs.BadField("version", "names a Version while spec names alias %q: name one or the other", req.Alias)
	}
	return nil
}

// aliasVersion is the Version a start of spec@alias takes: the alias's,
// or its canary's for the keys the split sends there (the sticky key, else
// for a delegated child its parent's key (parentKey), else the thread,
// else the Run); on a thread, the Version of the thread's Run unless the
// start follows the alias. It sets req.aliasSide.
func (m *Manager) aliasVersion(ctx context.Context, req *StartRequest) (*spec.Version, error) {
	if m.aliases == nil {
		return nil, &errs.DependencyMissing{Dependency: "aliases", Description: "this runsvc keeps no Spec aliases"}
	}
	a, err := m.aliases.Get(ctx, req.Tenant, req.Spec, req.Alias)
	if err != nil {
		return nil, err
	}
	if req.RunID == "" {
		req.RunID = ids.New("run", m.clock.Now())
	}
	key := req.StickyKey
	if key == "" && req.Parent != nil && req.Parent.RunID != "" {
		parent, err := m.parentOf(ctx, req)
		if err != nil {
			return nil, err
		}
		key = parentKey(parent)
	}
	if key == "" {
		key = req.ThreadID
	}
	if key == "" {
		key = req.RunID
	}
	version, side := a.Pick(key)
	if req.ThreadID != "" && !req.FollowAlias {
		kept, err := m.threadVersion(ctx, req.Tenant, req.ThreadID, req.Spec)
		if err != nil {
			return nil, err
		}
		if kept != "" {
			version, side = kept, a.SideOf(kept)
		}
	}
	req.aliasSide = side
	return m.specs.Get(ctx, req.Tenant, req.Spec, version)
}

// threadVersion is the Version of the thread's active Run, else its last
// settled one, when that Run is of specName; empty otherwise.
func (m *Manager) threadVersion(ctx context.Context, tenant, threadID, specName string) (string, error) {
	th, found, err := m.store.GetThread(ctx, tenant, threadID)
	if err != nil || !found {
		return "", err
	}
	id := th.ActiveRunID
	if id == "" {
		id = th.LastRunID
	}
	if id == "" {
		return "", nil
	}
	row, err := m.store.GetRun(ctx, tenant, id)
	var nf *errs.RunNotFound
	switch {
	case errors.As(err, &nf):
		return "", nil
	case err != nil:
		return "", err
	case row.Spec != specName:
		return "", nil
	}
	return row.Version, nil
}

// startedChild is the delegated child Run a start of an alias names when
// it exists already: the engine starts a parent's children again when it
// takes the parent over, and a child keeps the Version it started on,
// whatever the alias names now (or whether it still exists), so the
// alias is not read again. ok is false when there is no such Run.
func (m *Manager) startedChild(ctx context.Context, req StartRequest) (Run, bool, error) {
	if req.Parent == nil || req.RunID == "" || req.RequestID == "" {
		return Run{}, false, nil
	}
	row, err := m.store.GetRun(ctx, req.Tenant, req.RunID)
	var nf *errs.RunNotFound
	switch {
	case errors.As(err, &nf):
		return Run{}, false, nil
	case err != nil:
		return Run{}, false, err
	case row.RequestID != req.RequestID:
		return Run{}, false, nil
	case row.RequestHash != requestHash(req):
		return Run{}, false, &errs.RequestIDReused{RequestID: req.RequestID, RunID: row.RunID}
	}
	run, err := fromStoreRun(row)
	return run, err == nil, err
}

// parentKey is the canary split's key of a delegated child: its parent's
// thread, else its parent's Run id, the key the parent itself was split
// by when started without a sticky key. Every child one parent Run (and
// one conversation) starts of an alias so takes one side of its canary.
func parentKey(parent store.Run) string {
	if parent.ThreadID != "" {
		return parent.ThreadID
	}
	return parent.RunID
}

// parentOf is the row of req's parent Run, read from the store once per
// start.
func (m *Manager) parentOf(ctx context.Context, req *StartRequest) (store.Run, error) {
	if req.parentRow == nil {
		row, err := m.store.GetRun(ctx, req.Tenant, req.Parent.RunID)
		if err != nil {
			return store.Run{}, err
		}
		req.parentRow = &row
	}
	return *req.parentRow, nil
}
