package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// evalCommands are the commands of "runsvc spec eval".
var evalCommands = map[string]command{
	"start":  {"SPEC VERSION", "replay recorded Runs on a candidate Version and print the evaluation", (*app).evalStart},
	"get":    {"EVALUATION_ID", "show an evaluation's table: per Run outcome, score, divergences, tokens, cost, latency", (*app).evalGet},
	"list":   {"", "list evaluations, newest first", (*app).evalList},
	"check":  {"EVALUATION_ID SPEC VERSION", "the alias-move gate: fail unless the evaluation passed --min-score", (*app).evalCheck},
	"delete": {"EVALUATION_ID", "delete an evaluation and its replay Runs", (*app).evalDelete},
}

func (a *app) evals() runsvcv1.EvaluationServiceClient {
	return runsvcv1.NewEvaluationServiceClient(a.conn)
}

// specEval runs a command of "runsvc spec eval".
func (a *app) specEval(ctx context.Context, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(a.stdout, "Usage: runsvc spec eval COMMAND [flags]\n\nreplay evaluation of a candidate Version:\n")
		for _, n := range sortedKeys(evalCommands) {
			c := evalCommands[n]
			fmt.Fprintf(a.stdout, "  %-36s %s\n", strings.TrimSpace(n+" "+c.args), c.summary)
		}
		if len(args) == 0 {
			return usagef("spec eval needs a command: %s", strings.Join(sortedKeys(evalCommands), ", "))
		}
		return nil
	}
	c, ok := evalCommands[args[0]]
	if !ok {
		return usagef("spec eval has no command %q: use %s", args[0], strings.Join(sortedKeys(evalCommands), ", "))
	}
	a.cmd += " eval " + args[0]
	return c.run(a, ctx, args[1:])
}

// evalFlags are the flags of "spec eval start" besides the candidate.
type evalFlags struct {
	spec, thread, since, until, jsonPath, jsonSchema, regex, judge *string
	runs                                                           stringList
	limit                                                          *int
	exact                                                          *bool
}

func (a *app) evalStart(ctx context.Context, args []string) error {
	fs := a.flags()
	f := evalFlags{
		spec:       fs.String("spec", "", "replay the settled Runs of `SPEC` (the candidate's when empty)"),
		thread:     fs.String("thread", "", "only the Runs of thread `ID`"),
		since:      fs.String("since", "", "only Runs created at or after `TIME` (RFC 3339)"),
		until:      fs.String("until", "", "only Runs created before `TIME` (RFC 3339)"),
		limit:      fs.Int("limit", 0, "at most `N` Runs, newest first (default and maximum 500)"),
		exact:      fs.Bool("exact", false, "score exact equality of the answers"),
		regex:      fs.String("regex", "", "score whether the candidate's answer matches `RE`"),
		jsonPath:   fs.String("json-path", "", "score equality of the JSON value at `PATH` ($.a.b[0]) in both answers"),
		jsonSchema: fs.String("json-schema", "", "score whether the candidate's answer is valid against the JSON Schema in `FILE`"),
		judge:      fs.String("judge", "", "score with the LLM judge Spec `NAME`"),
	}
	fs.Var(&f.runs, "run", "replay Run `ID` (repeatable) instead of a Spec's Runs")
	pos, err := a.parse(fs, args, 2, 2)
	if err != nil {
		return err
	}
	req, err := f.request(pos[0], pos[1])
	if err != nil {
		return err
	}
	if err := a.connect(); err != nil {
		return err
	}
	resp, err := unary(ctx, a, time.Minute, a.evals().EvaluateVersion, req)
	if err != nil {
		return err
	}
	return a.showEvaluation(resp.GetEvaluation())
}

// request is the EvaluateVersion request the flags describe.
func (f evalFlags) request(spec, version string) (*runsvcv1.EvaluateVersionRequest, error) {
	sel := &runsvcv1.RunSelection{RunIds: f.runs, Spec: *f.spec, ThreadId: *f.thread, Limit: int32(*f.limit)}
	for _, t := range []struct {
		flag, value string
		into        **timestamppb.Timestamp
	}{{"--since", *f.since, &sel.StartTime}, {"--until", *f.until, &sel.EndTime}} {
		if t.value == "" {
			continue
		}
		at, err := time.Parse(time.RFC3339, t.value)
		if err != nil {
			return nil, usagef("%s %q is not an RFC 3339 time", t.flag, t.value)
		}
		*t.into = timestamppb.New(at)
	}
	req := &runsvcv1.EvaluateVersionRequest{Spec: spec, Version: version, Runs: sel}
	if *f.exact {
		req.Evaluators = append(req.Evaluators, &runsvcv1.Evaluator{Kind: &runsvcv1.Evaluator_Exact{Exact: &runsvcv1.ExactMatch{}}})
	}
	if *f.regex != "" {
		req.Evaluators = append(req.Evaluators, &runsvcv1.Evaluator{Kind: &runsvcv1.Evaluator_Regex{Regex: *f.regex}})
	}
	if *f.jsonPath != "" {
		req.Evaluators = append(req.Evaluators, &runsvcv1.Evaluator{Kind: &runsvcv1.Evaluator_JsonPath{JsonPath: *f.jsonPath}})
	}
	if *f.jsonSchema != "" {
		s, err := schemaFile(*f.jsonSchema)
		if err != nil {
			return nil, err
		}
		req.Evaluators = append(req.Evaluators, &runsvcv1.Evaluator{Kind: &runsvcv1.Evaluator_JsonSchema{JsonSchema: s}})
	}
	if *f.judge != "" {
		req.Evaluators = append(req.Evaluators, &runsvcv1.Evaluator{Name: "judge", Kind: &runsvcv1.Evaluator_LlmJudge{LlmJudge: &runsvcv1.LlmJudge{Spec: *f.judge}}})
	}
	return req, nil
}

func schemaFile(path string) (*structpb.Struct, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, usagef("--json-schema: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, usagef("--json-schema %s is not a JSON object: %v", path, err)
	}
	s, err := structpb.NewStruct(m)
	if err != nil {
		return nil, usagef("--json-schema %s: %v", path, err)
	}
	return s, nil
}

func (a *app) evalGet(ctx context.Context, args []string) error {
	id, err := a.connectForID(args)
	if err != nil {
		return err
	}
	resp, err := unary(ctx, a, 0, a.evals().GetEvaluation, &runsvcv1.GetEvaluationRequest{EvaluationId: id})
	if err != nil {
		return err
	}
	return a.showEvaluation(resp.GetEvaluation())
}

func (a *app) evalList(ctx context.Context, args []string) error {
	if _, err := a.parse(a.flags(), args, 0, 0); err != nil {
		return err
	}
	if err := a.connect(); err != nil {
		return err
	}
	list, _, err := collect(0, func(size int32, token string) ([]*runsvcv1.Evaluation, string, error) {
		resp, err := unary(ctx, a, 0, a.evals().ListEvaluations, &runsvcv1.ListEvaluationsRequest{PageSize: min(size, 100), PageToken: token})
		return resp.GetEvaluations(), resp.GetNextPageToken(), err
	})
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(&runsvcv1.ListEvaluationsResponse{Evaluations: list})
	}
	if len(list) == 0 {
		fmt.Fprintln(a.stdout, "no evaluations")
		return nil
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "EVALUATION ID\tSPEC\tVERSION\tCREATED")
	for _, ev := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", ev.GetEvaluationId(), ev.GetSpec(), ev.GetVersion(), when(ev.GetCreateTime()))
	}
	return tw.Flush()
}

func (a *app) evalCheck(ctx context.Context, args []string) error {
	fs := a.flags()
	minScore := fs.Float64("min-score", 1, "the `SCORE` (0 to 1) the evaluation must reach")
	pos, err := a.parse(fs, args, 3, 3)
	if err != nil {
		return err
	}
	if err := a.connect(); err != nil {
		return err
	}
	resp, err := unary(ctx, a, 0, a.evals().CheckEvaluation, &runsvcv1.CheckEvaluationRequest{EvaluationId: pos[0], Spec: pos[1], Version: pos[2], MinScore: *minScore})
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp)
	}
	fmt.Fprintf(a.stdout, "passed: score %.3f is at least %.3f\n", resp.GetScore(), *minScore)
	return nil
}

func (a *app) evalDelete(ctx context.Context, args []string) error {
	id, err := a.connectForID(args)
	if err != nil {
		return err
	}
	if _, err := unary(ctx, a, time.Minute, a.evals().DeleteEvaluation, &runsvcv1.DeleteEvaluationRequest{EvaluationId: id}); err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "deleted %s\n", id)
	return nil
}

// showEvaluation prints an evaluation's sum and its table, one row a Run.
func (a *app) showEvaluation(ev *runsvcv1.Evaluation) error {
	if a.json {
		return a.printJSON(ev)
	}
	sum := ev.GetSummary()
	state := "running"
	if ev.GetDone() {
		state = "done"
	}
	fmt.Fprintf(a.stdout, "%s  %s@%s  %s  score %.3f\n", ev.GetEvaluationId(), ev.GetSpec(), ev.GetVersion(), state, sum.GetScore())
	fmt.Fprintf(a.stdout, "  runs %d  settled %d  equal %d  diverged %d  fenced calls %d  needs a person %d  outcome changed %d\n",
		sum.GetRuns(), sum.GetSettled(), sum.GetEqual(), sum.GetDiverged(), sum.GetFencedCalls(), sum.GetNeedsPerson(), sum.GetOutcomeChanged())
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RECORDED RUN\tREPLAY RUN\tRECORDED\tREPLAYED\tSCORE\tDIVERGENCES\tFIRST\tTOKENS\tCOST\tLATENCY")
	for _, r := range ev.GetRuns() {
		ru, pu := r.GetRecordedUsage(), r.GetReplayedUsage()
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.3f\t%d (%d fenced)\t%s\t%d → %d\t%.4f → %.4f\t%s → %s\n",
			r.GetSourceRunId(), r.GetReplayRunId(), outcomeText(r.GetRecorded()), outcomeText(r.GetReplayed()), r.GetScore(),
			r.GetDivergences(), r.GetFencedCalls(), orNone(stepText(r.GetFirstDivergence())),
			ru.GetInputTokens()+ru.GetOutputTokens(), pu.GetInputTokens()+pu.GetOutputTokens(), ru.GetCost(), pu.GetCost(),
			ru.GetLatency().AsDuration().Round(time.Millisecond), pu.GetLatency().AsDuration().Round(time.Millisecond))
	}
	return tw.Flush()
}

func outcomeText(o *runsvcv1.EvaluationOutcome) string {
	if o.GetReason() != "" {
		return o.GetState() + " " + o.GetReason()
	}
	return o.GetState()
}

func stepText(step int32) string {
	if step == 0 {
		return ""
	}
	return fmt.Sprintf("step %d", step)
}
