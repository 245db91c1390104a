package cli

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// aliasActions are the actions of "spec alias".
var aliasActions = map[string]func(a *app, ctx context.Context, args []string) error{
	"set":     (*app).aliasSet,
	"move":    (*app).aliasSet,
	"get":     (*app).aliasGet,
	"list":    (*app).aliasList,
	"delete":  (*app).aliasDelete,
	"history": (*app).aliasHistory,
}

// specAlias runs "spec alias ACTION ...".
func (a *app) specAlias(ctx context.Context, args []string) error {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
		fs := a.flags()
		moveFlags(fs)
		_, err := a.parse(fs, []string{"-h"}, 0, 0)
		return err
	}
	if len(args) == 0 {
		return usagef("spec alias needs an action: %s", strings.Join(sortedKeys(aliasActions), ", "))
	}
	act, ok := aliasActions[args[0]]
	if !ok {
		return usagef("spec alias has no action %q; it has %s", args[0], strings.Join(sortedKeys(aliasActions), ", "))
	}
	a.cmd += " " + args[0]
	return act(a, ctx, args[1:])
}

// moveFlags are the flags of "spec alias set|move", filling the request
// once parsed.
func moveFlags(fs *flag.FlagSet) *runsvcv1.MoveAliasRequest {
	req := &runsvcv1.MoveAliasRequest{}
	fs.StringVar(&req.Version, "version", "", "the `VERSION` the alias names; the Spec's newest when empty")
	fs.StringVar(&req.CanaryVersion, "canary", "", "a canary `VERSION` taking --percent of new Runs")
	fs.Func("percent", "the canary's share of new Runs, a `PERCENT` from 1 to 99", func(v string) error {
		n, err := strconv.ParseInt(v, 10, 32)
		req.CanaryPercent = int32(n)
		return err
	})
	fs.StringVar(&req.IfEvaluation, "if-eval", "", "move only if evaluation `EVAL` scored each Version at least --min-score")
	fs.Float64Var(&req.MinScore, "min-score", 0, "with --if-eval: the least `SCORE` the evaluation must give")
	return req
}

// aliasSet is "spec alias set|move SPEC ALIAS": both create or move the
// alias; move is the name to use with --if-eval.
func (a *app) aliasSet(ctx context.Context, args []string) error {
	fs := a.flags()
	req := moveFlags(fs)
	pos, err := a.parse(fs, args, 2, 2)
	if err != nil {
		return err
	}
	if err := a.connect(); err != nil {
		return err
	}
	req.Spec, req.Alias = pos[0], pos[1]
	resp, err := unary(ctx, a, 0, runsvcv1.NewAliasServiceClient(a.conn).MoveAlias, req)
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp)
	}
	fmt.Fprintf(a.stdout, "%s@%s -> %s\n", pos[0], pos[1], aliasTarget(resp.GetAlias().GetVersion(), resp.GetAlias().GetCanaryVersion(), resp.GetAlias().GetCanaryPercent()))
	return nil
}

func (a *app) aliasGet(ctx context.Context, args []string) error {
	pos, err := a.parse(a.flags(), args, 2, 2)
	if err != nil {
		return err
	}
	if err := a.connect(); err != nil {
		return err
	}
	resp, err := unary(ctx, a, 0, runsvcv1.NewAliasServiceClient(a.conn).GetAlias, &runsvcv1.GetAliasRequest{Spec: pos[0], Alias: pos[1]})
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp)
	}
	al := resp.GetAlias()
	fmt.Fprintf(a.stdout, "%s@%s -> %s\nrevision %d, moved %s by %s\n", al.GetSpec(), al.GetAlias(),
		aliasTarget(al.GetVersion(), al.GetCanaryVersion(), al.GetCanaryPercent()), al.GetRevision(),
		al.GetUpdateTime().AsTime().Format(time.RFC3339), orDash(al.GetUpdatedBy()))
	return a.printMoves(resp.GetRecentMoves())
}

func (a *app) aliasList(ctx context.Context, args []string) error {
	pos, err := a.parse(a.flags(), args, 0, 1)
	if err != nil {
		return err
	}
	if err := a.connect(); err != nil {
		return err
	}
	req := &runsvcv1.ListAliasesRequest{}
	if len(pos) == 1 {
		req.Spec = pos[0]
	}
	resp, err := unary(ctx, a, 0, runsvcv1.NewAliasServiceClient(a.conn).ListAliases, req)
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp)
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SPEC\tALIAS\tTARGET\tMOVED\tBY")
	for _, al := range resp.GetAliases() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", al.GetSpec(), al.GetAlias(), aliasTarget(al.GetVersion(), al.GetCanaryVersion(), al.GetCanaryPercent()),
			al.GetUpdateTime().AsTime().Format(time.RFC3339), orDash(al.GetUpdatedBy()))
	}
	return tw.Flush()
}

func (a *app) aliasDelete(ctx context.Context, args []string) error {
	pos, err := a.parse(a.flags(), args, 2, 2)
	if err != nil {
		return err
	}
	if err := a.connect(); err != nil {
		return err
	}
	if _, err := unary(ctx, a, 0, runsvcv1.NewAliasServiceClient(a.conn).DeleteAlias, &runsvcv1.DeleteAliasRequest{Spec: pos[0], Alias: pos[1]}); err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "deleted %s@%s\n", pos[0], pos[1])
	return nil
}

func (a *app) aliasHistory(ctx context.Context, args []string) error {
	fs := a.flags()
	limit := fs.Int("limit", 0, "the most `MOVES` to show, newest first (default and at most 500)")
	pos, err := a.parse(fs, args, 2, 2)
	if err != nil {
		return err
	}
	if err := a.connect(); err != nil {
		return err
	}
	resp, err := unary(ctx, a, 0, runsvcv1.NewAliasServiceClient(a.conn).ListAliasHistory, &runsvcv1.ListAliasHistoryRequest{Spec: pos[0], Alias: pos[1], Limit: int32(*limit)})
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp)
	}
	return a.printMoves(resp.GetMoves())
}

// printMoves prints an alias's moves: when, who, from, to.
func (a *app) printMoves(moves []*runsvcv1.AliasMove) error {
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TIME\tBY\tFROM\tTO")
	for _, m := range moves {
		f, t := m.GetFrom(), m.GetTo()
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", m.GetTime().AsTime().Format(time.RFC3339), orDash(m.GetSubject()),
			aliasTarget(f.GetVersion(), f.GetCanaryVersion(), f.GetCanaryPercent()), aliasTarget(t.GetVersion(), t.GetCanaryVersion(), t.GetCanaryPercent()))
	}
	return tw.Flush()
}

// aliasTarget reads "VERSION", "VERSION 95% + CANARY 5%", or "-" for none.
func aliasTarget(version, canary string, percent int32) string {
	switch {
	case version == "":
		return "-"
	case canary == "":
		return version
	}
	return fmt.Sprintf("%s %d%% + %s %d%%", version, 100-percent, canary, percent)
}

// specRollout is "spec rollout SPEC@ALIAS": the alias's sides compared.
func (a *app) specRollout(ctx context.Context, args []string) error {
	fs := a.flags()
	maxRuns := fs.Int("max-runs", 0, "read at most `N` of the Spec's newest Runs (default 1,000, at most 10,000)")
	pos, err := a.parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	specName, aliasName, ok := strings.Cut(pos[0], "@")
	if !ok {
		return usagef("spec rollout needs SPEC@ALIAS, not %q", pos[0])
	}
	if err := a.connect(); err != nil {
		return err
	}
	resp, err := unary(ctx, a, 0, runsvcv1.NewAliasServiceClient(a.conn).GetRollout, &runsvcv1.GetRolloutRequest{Spec: specName, Alias: aliasName, MaxRuns: int32(*maxRuns)})
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp)
	}
	al := resp.GetAlias()
	fmt.Fprintf(a.stdout, "%s@%s -> %s (from the newest %d Runs of %s)\n", specName, aliasName,
		aliasTarget(al.GetVersion(), al.GetCanaryVersion(), al.GetCanaryPercent()), resp.GetRunsRead(), specName)
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SIDE\tVERSION\tRUNS\tCOMPLETED\tFAILED\tREASONS\tTOKENS IN/OUT\tCOST\tP50\tP95")
	for _, s := range resp.GetSides() {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\t%d/%d\t$%.4f\t%dms\t%dms\n", sideName(s.GetSide()), s.GetVersion(), s.GetRuns(), s.GetCompleted(), s.GetFailed(),
			reasonCounts(s.GetReasons()), s.GetInputTokens(), s.GetOutputTokens(), s.GetCost(), s.GetLatencyP50Ms(), s.GetLatencyP95Ms())
	}
	return tw.Flush()
}

func sideName(s runsvcv1.AliasSide) string {
	if s == runsvcv1.AliasSide_ALIAS_SIDE_UNSPECIFIED {
		return "other"
	}
	return strings.ToLower(strings.TrimPrefix(s.String(), "ALIAS_SIDE_"))
}

// reasonCounts reads "TOOL_FAILED 3, OUTPUT_INVALID 1", "-" for none.
func reasonCounts(m map[string]int32) string {
	if len(m) == 0 {
		return "-"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}
