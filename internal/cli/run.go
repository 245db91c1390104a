package cli

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

func (a *app) runStart(ctx context.Context, args []string) error {
	fs := a.flags()
	input := fs.String("input", "", "the Run's input, a `TEXT`; - reads it from stdin")
	inputFile := fs.String("input-file", "", "read the input from a `FILE`; - for stdin")
	version := fs.String("version", "", "the Spec `VERSION` to run; the newest when empty")
	requestID := fs.String("request-id", "", "idempotency key `ID`: starting again with the same key and input returns the same Run")
	deadline := fs.Duration("deadline", 0, "a deadline shorter than the Spec's, a `DURATION` such as 5m")
	thread := fs.String("thread", "", "continue the thread `THREAD_ID` (created on first use): the Run starts from its last settled Run")
	strategyName := fs.String("strategy", "", "with --thread, when the thread has an active Run: `STRATEGY` reject, enqueue, interrupt or steer (default: the Spec's, else reject)")
	priority := fs.Int("priority", 0, "the Run's `PRIORITY`, 1 (lowest) to 5 (highest): workers claim a waiting Run of a higher priority first (default 3)")
	fairnessKey := fs.String("fairness-key", "", "share the workers by this `KEY` instead of the tenant: within a priority, each key's waiting Runs are claimed in turn")
	concurrencyKey := fs.String("concurrency-key", "", "hold a slot of this concurrency `KEY` (instead of the Spec's expression): over its limit the Run waits QUEUED")
	concurrencyLimit := fs.Int("concurrency-limit", 0, "the concurrency key's `LIMIT` (0: the Spec's, or 1)")
	followAlias := fs.Bool("follow-alias", false, "with SPEC@ALIAS and --thread: run the alias's Version even when the thread's Run ran another")
	stickyKey := fs.String("sticky-key", "", "with SPEC@ALIAS during a canary: Runs started with the same `KEY` take the same side")
	var w watchFlags
	watch := fs.Bool("watch", false, "then follow the Run like \"run watch\"")
	fs.BoolVar(&w.untilSuspended, "until-suspended", false, "with --watch: stop when the Run suspends too")
	pos, err := a.parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if *input != "" && *inputFile != "" {
		return usagef("give --input or --input-file, not both")
	}
	if w.untilSuspended && !*watch {
		return usagef("--until-suspended needs --watch")
	}
	if *deadline < 0 {
		return usagef("--deadline must not be negative")
	}
	if *priority < 0 || *priority > 5 {
		return usagef("--priority must be between 1 and 5")
	}
	strategy, err := parseStrategy(*strategyName)
	if err != nil {
		return err
	}
	if *strategyName != "" && *thread == "" {
		return usagef("--strategy needs --thread")
	}
	text, err := a.startInput(*input, *inputFile)
	if err != nil {
		return err
	}
	req := &runsvcv1.StartRunRequest{Spec: pos[0], Version: *version, Input: text, RequestId: *requestID, ThreadId: *thread, ThreadStrategy: strategy,
		Priority: int32(*priority), FairnessKey: *fairnessKey, ConcurrencyKey: *concurrencyKey, ConcurrencyLimit: int32(*concurrencyLimit),
		FollowAlias: *followAlias, StickyKey: *stickyKey}
	if *deadline > 0 {
		req.Deadline = durationpb.New(*deadline)
	}
	if err := a.connect(); err != nil {
		return err
	}
	resp, err := unary(ctx, a, 0, a.runs.StartRun, req)
	if err != nil {
		return err
	}
	if a.json {
		if err := a.printJSON(resp); err != nil {
			return err
		}
	} else {
		fmt.Fprintln(a.stdout, resp.GetRun().GetRunId())
		if resp.GetSteered() {
			fmt.Fprintf(a.stderr, "the thread's active run %s took the input as a steer; no new run started\n", resp.GetRun().GetRunId())
		}
	}
	if !*watch {
		return nil
	}
	return a.watch(ctx, resp.GetRun().GetRunId(), 1, w)
}

// startInput is a start's input: --input's text, or what --input-file
// (or --input -) reads.
func (a *app) startInput(input, inputFile string) (string, error) {
	if input == "-" {
		inputFile = "-"
	}
	if inputFile == "" {
		return input, nil
	}
	b, err := a.readInput(inputFile)
	return string(b), err
}

func (a *app) runGet(ctx context.Context, args []string) error {
	id, err := a.connectForID(args)
	if err != nil {
		return err
	}
	resp, err := unary(ctx, a, 0, a.runs.GetRun, &runsvcv1.GetRunRequest{RunId: id})
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp)
	}
	a.printRun(a.stdout, resp.GetRun())
	return nil
}

// connectForID parses args, which take no flags and name exactly one ID,
// connects and returns the ID.
func (a *app) connectForID(args []string) (string, error) {
	pos, err := a.parse(a.flags(), args, 1, 1)
	if err != nil {
		return "", err
	}
	if err := a.connect(); err != nil {
		return "", err
	}
	return pos[0], nil
}

func (a *app) runWait(ctx context.Context, args []string) error {
	fs := a.flags()
	wait := fs.Duration("wait", 30*time.Second, "the longest to wait, a `DURATION` of at most 10m")
	pos, err := a.parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if *wait <= 0 {
		return usagef("--wait must be positive")
	}
	if err := a.connect(); err != nil {
		return err
	}
	resp, err := unary(ctx, a, *wait, a.runs.WaitRun, &runsvcv1.WaitRunRequest{RunId: pos[0], Wait: durationpb.New(*wait)})
	if err != nil {
		return err
	}
	if a.json {
		err = a.printJSON(resp)
	} else {
		a.printRun(a.stdout, resp.GetRun())
	}
	if err != nil {
		return err
	}
	return runOutcome(resp.GetRun().GetState())
}

// runOutcome is the exit of commands that wait for a Run: success unless
// it settled without completing.
func runOutcome(s runsvcv1.RunState) error {
	if settled(s) && s != runsvcv1.RunState_RUN_STATE_COMPLETED {
		return exitCode(ExitFailure)
	}
	return nil
}

func (a *app) runInterrupt(ctx context.Context, args []string) error {
	fs := a.flags()
	reason := fs.String("reason", "", "a `TEXT` saying why, for the Run's log")
	pos, err := a.parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if err := a.connect(); err != nil {
		return err
	}
	resp, err := unary(ctx, a, 0, a.runs.InterruptRun, &runsvcv1.InterruptRunRequest{RunId: pos[0], Reason: *reason})
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp)
	}
	r := resp.GetRun()
	if settled(r.GetState()) && r.GetState() != runsvcv1.RunState_RUN_STATE_ABORTED {
		fmt.Fprintf(a.stdout, "run %s had already settled: it is %s\n", r.GetRunId(), stateName(r.GetState()))
	} else {
		fmt.Fprintf(a.stdout, "interrupted run %s: it is %s\n", r.GetRunId(), stateName(r.GetState()))
	}
	return nil
}

func (a *app) runList(ctx context.Context, args []string) error {
	fs := a.flags()
	var states stringList
	fs.Var(&states, "state", "only Runs in this `STATE` (queued, running, suspended, completed, failed, aborted, abandoned); repeat or separate with commas")
	spec := fs.String("spec", "", "only Runs of this `SPEC`")
	parent := fs.String("parent", "", "only children of this `RUN_ID`")
	thread := fs.String("thread", "", "only the Runs of this `THREAD_ID`, in the order they started")
	schedule := fs.String("schedule", "", "only the Runs this `SCHEDULE_ID` started")
	limit := fs.Int("limit", 50, "list at most `N` Runs; 0 means all")
	if _, err := a.parse(fs, args, 0, 0); err != nil {
		return err
	}
	if *limit < 0 {
		return usagef("--limit must not be negative")
	}
	req := &runsvcv1.ListRunsRequest{Spec: *spec, ParentRunId: *parent, ThreadId: *thread, ScheduleId: *schedule}
	for _, s := range states {
		st, ok := parseState(s)
		if !ok {
			return usagef("--state %q is not a run state: use queued, running, suspended, completed, failed, aborted or abandoned", s)
		}
		req.States = append(req.States, st)
	}
	if err := a.connect(); err != nil {
		return err
	}
	runs, next, err := collect(*limit, func(size int32, token string) ([]*runsvcv1.Run, string, error) {
		req.PageSize, req.PageToken = size, token
		resp, err := unary(ctx, a, 0, a.runs.ListRuns, req)
		return resp.GetRuns(), resp.GetNextPageToken(), err
	})
	if err != nil {
		return err
	}
	all := &runsvcv1.ListRunsResponse{Runs: runs, NextPageToken: next}
	if a.json {
		return a.printJSON(all)
	}
	if len(all.Runs) == 0 {
		fmt.Fprintln(a.stdout, "no runs")
		return nil
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN ID\tSPEC\tSTATE\tTURN\tCREATED\tOUTCOME")
	for _, r := range all.Runs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\n", r.GetRunId(), r.GetSpec(), stateName(r.GetState()), r.GetTurn(),
			r.GetCreateTime().AsTime().Local().Format("2006-01-02 15:04:05"), outcome(r))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if all.NextPageToken != "" {
		fmt.Fprintf(a.stdout, "(more: raise --limit to see them)\n")
	}
	return nil
}

// parseState reads a state as `running`, `RUNNING` or `RUN_STATE_RUNNING`.
func parseState(s string) (runsvcv1.RunState, bool) {
	name := strings.ToUpper(s)
	if !strings.HasPrefix(name, "RUN_STATE_") {
		name = "RUN_STATE_" + name
	}
	v, ok := runsvcv1.RunState_value[name]
	if !ok || v == 0 {
		return 0, false
	}
	return runsvcv1.RunState(v), true
}

// outcome is one short line about how a Run ended or what it waits for.
func outcome(r *runsvcv1.Run) string {
	switch r.GetState() {
	case runsvcv1.RunState_RUN_STATE_COMPLETED:
		return clip(strings.Join(strings.Fields(r.GetAnswer()), " "), 60)
	case runsvcv1.RunState_RUN_STATE_ABORTED:
		return abortText(r.GetAbortCause())
	case runsvcv1.RunState_RUN_STATE_SUSPENDED:
		return "waiting for " + suspensionOfRun(r.GetSuspension()).headline()
	}
	if f := r.GetFailure(); f != nil {
		return statusTag(f)
	}
	return "-"
}
