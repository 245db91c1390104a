package cli

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

var threadCommands = map[string]command{
	"list": {"", "list threads, newest first", (*app).threadList},
	"show": {"THREAD_ID", "show a thread and its Runs in order", (*app).threadShow},
}

// strategies are the --strategy values of "run start".
var strategies = map[string]runsvcv1.ThreadStrategy{
	"reject":    runsvcv1.ThreadStrategy_THREAD_STRATEGY_REJECT,
	"enqueue":   runsvcv1.ThreadStrategy_THREAD_STRATEGY_ENQUEUE,
	"interrupt": runsvcv1.ThreadStrategy_THREAD_STRATEGY_INTERRUPT,
	"steer":     runsvcv1.ThreadStrategy_THREAD_STRATEGY_STEER,
}

// parseStrategy reads --strategy, suggesting the nearest value when it is
// not one.
func parseStrategy(s string) (runsvcv1.ThreadStrategy, error) {
	if s == "" {
		return runsvcv1.ThreadStrategy_THREAD_STRATEGY_UNSPECIFIED, nil
	}
	if st, ok := strategies[strings.ToLower(s)]; ok {
		return st, nil
	}
	names := sortedKeys(strategies)
	if near, ok := nearest(strings.ToLower(s), names); ok {
		return 0, usagef("--strategy %q is not a strategy; did you mean %s?", s, near)
	}
	return 0, usagef("--strategy %q is not a strategy: use %s", s, strings.Join(names, ", "))
}

func (a *app) threadList(ctx context.Context, args []string) error {
	fs := a.flags()
	limit := fs.Int("limit", 50, "list at most `N` threads; 0 means all")
	if _, err := a.parse(fs, args, 0, 0); err != nil {
		return err
	}
	if *limit < 0 {
		return usagef("--limit must not be negative")
	}
	if err := a.connect(); err != nil {
		return err
	}
	threads, next, err := collect(*limit, func(size int32, token string) ([]*runsvcv1.Thread, string, error) {
		resp, err := unary(ctx, a, 0, a.runs.ListThreads, &runsvcv1.ListThreadsRequest{PageSize: size, PageToken: token})
		return resp.GetThreads(), resp.GetNextPageToken(), err
	})
	if err != nil {
		return err
	}
	all := &runsvcv1.ListThreadsResponse{Threads: threads, NextPageToken: next}
	if a.json {
		return a.printJSON(all)
	}
	if len(threads) == 0 {
		fmt.Fprintln(a.stdout, "no threads")
		return nil
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "THREAD ID\tRUNS\tACTIVE RUN\tLAST SETTLED RUN\tUPDATED")
	for _, th := range threads {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\n", th.GetThreadId(), th.GetRunCount(), orNone(th.GetActiveRunId()), orNone(th.GetLastRunId()),
			th.GetUpdateTime().AsTime().Local().Format("2006-01-02 15:04:05"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if next != "" {
		fmt.Fprintf(a.stdout, "(more: raise --limit to see them)\n")
	}
	return nil
}

func (a *app) threadShow(ctx context.Context, args []string) error {
	id, err := a.connectForID(args)
	if err != nil {
		return err
	}
	resp, err := unary(ctx, a, 0, a.runs.GetThread, &runsvcv1.GetThreadRequest{ThreadId: id})
	if err != nil {
		return err
	}
	runs, _, err := collect(0, func(size int32, token string) ([]*runsvcv1.Run, string, error) {
		resp, err := unary(ctx, a, 0, a.runs.ListRuns, &runsvcv1.ListRunsRequest{ThreadId: id, PageSize: size, PageToken: token})
		return resp.GetRuns(), resp.GetNextPageToken(), err
	})
	if err != nil {
		return err
	}
	if a.json {
		if err := a.printJSON(resp); err != nil {
			return err
		}
		return a.printJSON(&runsvcv1.ListRunsResponse{Runs: runs})
	}
	th := resp.GetThread()
	fmt.Fprintf(a.stdout, "%s  %s\n", th.GetThreadId(), plural(int(th.GetRunCount()), "run", "runs"))
	fmt.Fprintf(a.stdout, "  active    %s\n  last      %s\n  created   %s\n", orNone(th.GetActiveRunId()), orNone(th.GetLastRunId()), when(th.GetCreateTime()))
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tRUN ID\tSTATE\tINPUT\tOUTCOME")
	for i, r := range runs {
		state := stateName(r.GetState())
		if r.GetWaiting() {
			state = "waiting"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", i+1, r.GetRunId(), state, clip(oneLine(r.GetInput()), 40), outcome(r))
	}
	return tw.Flush()
}

// oneLine joins a text's lines for a table cell.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
