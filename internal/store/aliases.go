package store

import (
	"context"
	"time"
)

// Alias is a stored Spec alias: the Version it names and, during a
// canary, a second Version that takes CanaryPercent of new Runs.
type Alias struct {
	Tenant  string
	Spec    string
	Name    string
	Version string
	// Canary is the canary Version; empty for none.
	Canary        string
	CanaryPercent int
	// Revision counts the alias's writes, from 1: a write names the
	// revision it read (AliasWrite.IfRevision).
	Revision   int64
	UpdateTime time.Time
	// UpdatedBy names who wrote it last.
	UpdatedBy string
}

// AliasMove is one audited change of an alias: who, when, from what to
// what. A deletion has To's Version empty; a creation From's.
type AliasMove struct {
	Tenant string
	Spec   string
	Name   string
	// Revision is the alias's revision the move wrote.
	Revision int64
	Time     time.Time
	Subject  string
	// From and To are the alias's targets before and after: Version,
	// Canary and CanaryPercent.
	FromVersion, FromCanary string
	FromPercent             int
	ToVersion, ToCanary     string
	ToPercent               int
}

// AliasWrite writes an alias and its audit row in one transaction.
type AliasWrite struct {
	// Alias is the new state; Delete drops the alias instead.
	Alias  Alias
	Delete bool
	// IfRevision is the revision the writer read: 0 when the alias did
	// not exist. Another is ErrConditionFailed, having written nothing.
	IfRevision int64
	Move       AliasMove
}

// Aliases keeps Spec aliases and their history. It is a port of its own,
// not part of Store: only the alias package uses it.
type Aliases interface {
	// WriteAlias applies w, or returns ErrConditionFailed when the
	// alias's revision is not w.IfRevision.
	WriteAlias(ctx context.Context, w AliasWrite) error
	// GetAlias returns an alias or *errs.AliasNotFound.
	GetAlias(ctx context.Context, tenant, spec, name string) (Alias, error)
	// ListAliases lists a Spec's aliases by name; spec empty lists every
	// alias of the tenant by Spec, then name.
	ListAliases(ctx context.Context, tenant, spec string) ([]Alias, error)
	// ListAliasMoves lists an alias's moves, newest first, at most limit.
	ListAliasMoves(ctx context.Context, tenant, spec, name string, limit int) ([]AliasMove, error)
}
