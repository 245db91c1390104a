// Package alias names Spec Versions: an alias (`prod`, `canary`, any
// name) points new Runs of `spec@alias` at a Version, or splits them by
// weight between two Versions during a canary. Moving an alias is one
// audited write (who, when, from, to), optionally gated on an evaluation
// of the Version it moves to; it changes which Version new Runs take,
// never the Version of a Run that started.
package alias

import (
	"fmt"
	"hash/fnv"
	"regexp"
	"strings"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
)

// Prod is the alias production traffic follows: moving or deleting it
// needs the publisher or admin role (Protected).
const Prod = "prod"

// namePattern is what an alias name may be: a Spec name's rules.
var namePattern = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,62}$`)

// Side is which of an alias's Versions a Run took.
type Side string

// The sides a Run may take.
const (
	// Primary is the alias's Version.
	Primary Side = "PRIMARY"
	// Canary is the canary Version, taken by CanaryPercent of new Runs.
	Canary Side = "CANARY"
	// Thread is a Version the Run kept from its thread's earlier Run,
	// which the alias no longer names.
	Thread Side = "THREAD"
)

// Alias is a Spec's named pointer at a Version, and during a canary at a
// second Version taking CanaryPercent of new Runs.
type Alias struct {
	Spec          string
	Name          string
	Version       string
	Canary        string
	CanaryPercent int
	Revision      int64
	UpdateTime    time.Time
	UpdatedBy     string
}

// Move is one audited change of an alias. A creation has no From
// Version, a deletion no To Version.
type Move struct {
	Time    time.Time
	Subject string
	From    Target
	To      Target
}

// Target is where an alias points: a Version and an optional canary.
type Target struct {
	Version       string
	Canary        string
	CanaryPercent int
}

// Protected reports whether moving or deleting alias name needs the
// publisher or admin role: only prod does; any role that may call
// MoveAlias may move the others.
func Protected(name string) bool { return name == Prod }

// Ref splits a start's `spec@alias` reference; alias is empty when ref
// names none. A reference naming an alias badly is *errs.AliasInvalid.
func Ref(ref string) (spec, alias string, err error) {
	spec, alias, found := strings.Cut(ref, "@")
	if !found {
		return ref, "", nil
	}
	if err := checkName(spec, alias); err != nil {
		return "", "", err
	}
	return spec, alias, nil
}

func checkName(spec, name string) error {
	if !namePattern.MatchString(name) {
		return &errs.AliasInvalid{Spec: spec, Alias: name, Violations: []errs.FieldViolation{{Field: "alias",
			Description: fmt.Sprintf("%q is not an alias name: lower case letters, digits, '-' and '_', starting with a letter, at most 63", name)}}}
	}
	return nil
}

// Pick is the Version a new Run of the alias takes and its side. key
// keeps a caller's Runs on one side (a thread id or a sticky key): the
// side is a hash of it, so the same key takes the same side for as long
// as the split stays, with no state kept.
func (a Alias) Pick(key string) (string, Side) {
	if a.Canary == "" || a.CanaryPercent <= 0 {
		return a.Version, Primary
	}
	if Bucket(a.Spec, a.Name, key) < a.CanaryPercent {
		return a.Canary, Canary
	}
	return a.Version, Primary
}

// SideOf is the side Version v is on: Primary, Canary, or Thread when the
// alias names it no more.
func (a Alias) SideOf(v string) Side {
	switch v {
	case a.Version:
		return Primary
	case a.Canary:
		return Canary
	}
	return Thread
}

// Bucket is key's place, 0 to 99, in a split of spec's alias: FNV-1a of
// the three, so that it is the same on every replica and release.
func Bucket(spec, alias, key string) int {
	h := fnv.New64a()
	h.Write([]byte(spec + "\x00" + alias + "\x00" + key))
	return int(h.Sum64() % 100)
}

func fromStore(a store.Alias) Alias {
	return Alias{Spec: a.Spec, Name: a.Name, Version: a.Version, Canary: a.Canary, CanaryPercent: a.CanaryPercent,
		Revision: a.Revision, UpdateTime: a.UpdateTime, UpdatedBy: a.UpdatedBy}
}

func moveFromStore(m store.AliasMove) Move {
	return Move{Time: m.Time, Subject: m.Subject,
		From: Target{Version: m.FromVersion, Canary: m.FromCanary, CanaryPercent: m.FromPercent},
		To:   Target{Version: m.ToVersion, Canary: m.ToCanary, CanaryPercent: m.ToPercent}}
}
