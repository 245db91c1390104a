package service

import (
	"context"
	"fmt"
	"slices"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/alias"
	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/rollout"
)

type aliasServer struct {
	runsvcv1.UnimplementedAliasServiceServer
	*Service
}

// recentMoves is how many moves GetAlias returns with an alias.
const recentMoves = 10

func (s aliasServer) MoveAlias(ctx context.Context, req *runsvcv1.MoveAliasRequest) (*runsvcv1.MoveAliasResponse, error) {
	if err := aliasArgs(req.GetSpec(), req.GetAlias()); err != nil {
		return nil, err
	}
	if err := mayChange(ctx, req.GetAlias()); err != nil {
		return nil, err
	}
	a, err := s.aliases.Move(ctx, alias.MoveRequest{
		Tenant: tenantOf(ctx), Spec: req.GetSpec(), Name: req.GetAlias(), Version: req.GetVersion(),
		Canary: req.GetCanaryVersion(), CanaryPercent: int(req.GetCanaryPercent()), Subject: subjectOf(ctx),
		IfEvaluation: req.GetIfEvaluation(), MinScore: req.GetMinScore(),
	})
	if err != nil {
		return nil, err
	}
	return &runsvcv1.MoveAliasResponse{Alias: aliasToProto(a)}, nil
}

func (s aliasServer) GetAlias(ctx context.Context, req *runsvcv1.GetAliasRequest) (*runsvcv1.GetAliasResponse, error) {
	if err := aliasArgs(req.GetSpec(), req.GetAlias()); err != nil {
		return nil, err
	}
	a, err := s.aliases.Get(ctx, tenantOf(ctx), req.GetSpec(), req.GetAlias())
	if err != nil {
		return nil, err
	}
	moves, err := s.aliases.History(ctx, tenantOf(ctx), req.GetSpec(), req.GetAlias(), recentMoves)
	if err != nil {
		return nil, err
	}
	return &runsvcv1.GetAliasResponse{Alias: aliasToProto(a), RecentMoves: movesToProto(moves)}, nil
}

func (s aliasServer) ListAliases(ctx context.Context, req *runsvcv1.ListAliasesRequest) (*runsvcv1.ListAliasesResponse, error) {
	as, err := s.aliases.List(ctx, tenantOf(ctx), req.GetSpec())
	if err != nil {
		return nil, err
	}
	out := &runsvcv1.ListAliasesResponse{}
	for _, a := range as {
		out.Aliases = append(out.Aliases, aliasToProto(a))
	}
	return out, nil
}

func (s aliasServer) DeleteAlias(ctx context.Context, req *runsvcv1.DeleteAliasRequest) (*runsvcv1.DeleteAliasResponse, error) {
	if err := aliasArgs(req.GetSpec(), req.GetAlias()); err != nil {
		return nil, err
	}
	if err := mayChange(ctx, req.GetAlias()); err != nil {
		return nil, err
	}
	if err := s.aliases.Delete(ctx, tenantOf(ctx), req.GetSpec(), req.GetAlias(), subjectOf(ctx)); err != nil {
		return nil, err
	}
	return &runsvcv1.DeleteAliasResponse{}, nil
}

func (s aliasServer) ListAliasHistory(ctx context.Context, req *runsvcv1.ListAliasHistoryRequest) (*runsvcv1.ListAliasHistoryResponse, error) {
	if err := aliasArgs(req.GetSpec(), req.GetAlias()); err != nil {
		return nil, err
	}
	if req.GetLimit() < 0 {
		return nil, errs.BadField("limit", "must not be negative")
	}
	moves, err := s.aliases.History(ctx, tenantOf(ctx), req.GetSpec(), req.GetAlias(), int(req.GetLimit()))
	if err != nil {
		return nil, err
	}
	return &runsvcv1.ListAliasHistoryResponse{Moves: movesToProto(moves)}, nil
}

func (s aliasServer) GetRollout(ctx context.Context, req *runsvcv1.GetRolloutRequest) (*runsvcv1.GetRolloutResponse, error) {
	if err := aliasArgs(req.GetSpec(), req.GetAlias()); err != nil {
		return nil, err
	}
	if req.GetMaxRuns() < 0 || req.GetMaxRuns() > rollout.MaxRuns {
		return nil, errs.BadField("max_runs", "must be between 0 and %d", rollout.MaxRuns)
	}
	a, err := s.aliases.Get(ctx, tenantOf(ctx), req.GetSpec(), req.GetAlias())
	if err != nil {
		return nil, err
	}
	rep, err := rollout.Compare(ctx, s.runs, tenantOf(ctx), a, int(req.GetMaxRuns()))
	if err != nil {
		return nil, err
	}
	out := &runsvcv1.GetRolloutResponse{Alias: aliasToProto(rep.Alias), RunsRead: int32(rep.RunsRead)}
	for _, sd := range rep.Sides {
		out.Sides = append(out.Sides, rolloutSideToProto(sd))
	}
	return out, nil
}

// aliasArgs refuses a request naming no Spec or no alias.
func aliasArgs(specName, name string) error {
	var bad []errs.FieldViolation
	if specName == "" {
		bad = append(bad, errs.FieldViolation{Field: "spec", Description: "is required: the name of a published Spec"})
	}
	if name == "" {
		bad = append(bad, errs.FieldViolation{Field: "alias", Description: "is required: the alias's name"})
	}
	if len(bad) > 0 {
		return &errs.InvalidRequest{Violations: bad}
	}
	return nil
}

// mayChange refuses a caller without the publisher or admin role a move
// or deletion of a protected alias (prod). Without authentication every
// caller may.
func mayChange(ctx context.Context, name string) error {
	id, ok := auth.FromContext(ctx)
	if !ok || !alias.Protected(name) || slices.Contains(id.Roles, auth.RoleAdmin) || slices.Contains(id.Roles, auth.RolePublisher) {
		return nil
	}
	return &errs.AccessDenied{Subject: "alias " + name,
		Reason: fmt.Sprintf("moving or deleting alias %s needs the publisher or admin role; %s has %v", name, id.Name, id.Roles)}
}

// subjectOf names the caller for an alias's audit: its key's name, empty
// without authentication.
func subjectOf(ctx context.Context) string {
	id, _ := auth.FromContext(ctx)
	return id.Name
}

var sideToProto = map[alias.Side]runsvcv1.AliasSide{
	alias.Primary: runsvcv1.AliasSide_ALIAS_SIDE_PRIMARY,
	alias.Canary:  runsvcv1.AliasSide_ALIAS_SIDE_CANARY,
	alias.Thread:  runsvcv1.AliasSide_ALIAS_SIDE_THREAD,
}

func aliasToProto(a alias.Alias) *runsvcv1.Alias {
	return &runsvcv1.Alias{Spec: a.Spec, Alias: a.Name, Version: a.Version, CanaryVersion: a.Canary, CanaryPercent: int32(a.CanaryPercent),
		Revision: a.Revision, UpdateTime: ts(a.UpdateTime), UpdatedBy: a.UpdatedBy}
}

func targetToProto(t alias.Target) *runsvcv1.AliasTarget {
	return &runsvcv1.AliasTarget{Version: t.Version, CanaryVersion: t.Canary, CanaryPercent: int32(t.CanaryPercent)}
}

func movesToProto(ms []alias.Move) []*runsvcv1.AliasMove {
	out := make([]*runsvcv1.AliasMove, 0, len(ms))
	for _, m := range ms {
		out = append(out, &runsvcv1.AliasMove{Time: ts(m.Time), Subject: m.Subject, From: targetToProto(m.From), To: targetToProto(m.To)})
	}
	return out
}

func rolloutSideToProto(s rollout.Side) *runsvcv1.RolloutSide {
	p := &runsvcv1.RolloutSide{Version: s.Version, Side: sideToProto[s.Side], Runs: int32(s.Runs), Settled: int32(s.Settled),
		Completed: int32(s.Completed), Failed: int32(s.Failed), InputTokens: s.InputTokens, OutputTokens: s.OutputTokens, Cost: s.Cost,
		LatencyP50Ms: s.LatencyP50.Milliseconds(), LatencyP95Ms: s.LatencyP95.Milliseconds()}
	if len(s.Reasons) > 0 {
		p.Reasons = map[string]int32{}
		for r, n := range s.Reasons {
			p.Reasons[r] = int32(n)
		}
	}
	return p
}
