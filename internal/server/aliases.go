package server

import (
	"context"

	"github.com/runsvc/runsvc/internal/alias"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/spec/versions"
	"github.com/runsvc/runsvc/internal/store"
)

// aliases is the registry of Spec aliases, nil when the store keeps
// none. Its Gate is the replay evaluation service.
func (s *Server) aliases(reg *versions.Registry) *alias.Registry {
	st, ok := s.store.(store.Aliases)
	if !ok {
		return nil
	}
	return alias.New(st, reg, evaluationGate{s}, s.cfg.Clock)
}

// evaluationGate is the alias registry's Gate: the evaluation service,
// which is made after the Manager that the registry is given to, so it is
// looked up at each move. A store that keeps no evaluations refuses gated
// moves DEPENDENCY_MISSING.
type evaluationGate struct{ s *Server }

// Check implements alias.Gate.
func (g evaluationGate) Check(ctx context.Context, tenant, evaluationID, spec, version string, minScore float64) error {
	if g.s.evals == nil {
		return &errs.DependencyMissing{Dependency: "evaluations", Description: "evaluations are not available: this runsvc's store keeps none, so it cannot gate an alias move on one (if_evaluation)"}
	}
	return g.s.evals.Check(ctx, tenant, evaluationID, spec, version, minScore)
}

// aliasResolver is the Manager's view of reg: nil (no aliases) when reg
// is nil, not a nil *alias.Registry in an interface.
func aliasResolver(reg *alias.Registry) runs.Aliases {
	if reg == nil {
		return nil
	}
	return reg
}
