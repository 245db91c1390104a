package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// topGroups are the command groups in the order the top usage lists them.
var topGroups = []string{"spec", "run", "tool", "delegate", "memory", "bus", "thread", "schedule", "webhook"}

func (a *app) runSend(ctx context.Context, args []string) error {
	fs := a.flags()
	mode := fs.String("mode", "steer", "`MODE` steer (the model sees it at its next call) or follow-up (after the Run's current answer, which then does not settle it)")
	pos, err := a.parse(fs, args, 2, 2)
	if err != nil {
		return err
	}
	req := &runsvcv1.SendMessageRequest{RunId: pos[0], Text: pos[1]}
	switch strings.ReplaceAll(strings.ToLower(*mode), "_", "-") {
	case "steer":
		req.Mode = runsvcv1.MessageMode_MESSAGE_MODE_STEER
	case "follow-up", "followup":
		req.Mode = runsvcv1.MessageMode_MESSAGE_MODE_FOLLOW_UP
	default:
		return usagef("--mode %q is not a message mode: use steer or follow-up", *mode)
	}
	if err := a.connect(); err != nil {
		return err
	}
	resp, err := unary(ctx, a, 0, a.runs.SendMessage, req)
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp)
	}
	fmt.Fprintf(a.stdout, "queued for run %s as record %d\n", req.GetRunId(), resp.GetSeq())
	return nil
}

func (a *app) runReport(ctx context.Context, args []string) error {
	fs := a.flags()
	depth := fs.Int("children", 0, "include delegated children to `DEPTH` levels")
	pos, err := a.parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if *depth < 0 {
		return usagef("--children must not be negative")
	}
	if err := a.connect(); err != nil {
		return err
	}
	resp, err := unary(ctx, a, 0, a.runs.GetReport, &runsvcv1.GetReportRequest{RunId: pos[0], ChildDepth: int32(*depth)})
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp)
	}
	printReport(a.stdout, resp.GetReport(), "")
	return nil
}

// printReport writes a Report for a person, its children indented under
// it.
func printReport(w io.Writer, r *runsvcv1.Report, pad string) {
	run := r.GetRun()
	fmt.Fprintf(w, "%s%s  %s  %s\n", pad, run.GetRunId(), stateName(run.GetState()), outcomeWord(r))
	field := func(label, value string) {
		fmt.Fprintf(w, "%s  %-10s %s\n", pad, label, indent(value, pad+"             "))
	}
	field("spec", fmt.Sprintf("%s (version %s)", run.GetSpec(), run.GetVersion()))
	field("took", fmt.Sprintf("%s, %s, %s", elapsed(r.GetDuration().AsDuration()),
		plural(int(run.GetTurn()), "turn", "turns"), plural(int(r.GetRecords()), "record", "records")))
	switch {
	case run.GetState() == runsvcv1.RunState_RUN_STATE_COMPLETED:
		field("answer", run.GetAnswer())
	case run.GetState() == runsvcv1.RunState_RUN_STATE_ABORTED:
		field("aborted", abortText(run.GetAbortCause()))
	case !settled(run.GetState()):
		field("now", outcome(run))
	}
	if f := run.GetFailure(); f != nil {
		field("failure", f.GetMessage()+" "+statusTag(f))
	}
	calls := r.GetToolCalls()
	field("tool calls", fmt.Sprintf("%d", len(calls)))
	for _, c := range calls {
		call := c.GetCall()
		res := "returned " + clip(compactJSON(c.GetOutput()), outputClip)
		if e := c.GetError(); e != nil {
			res = "failed: " + e.GetMessage() + " " + statusTag(e)
		} else if c.GetOutput() == nil {
			res = "no result yet"
		}
		fmt.Fprintf(w, "%s    turn %d  %s [%s] %s\n%s      %s\n", pad, c.GetTurn(), call.GetName(), call.GetCallId(),
			clip(compactJSON(call.GetArguments()), outputClip), pad, res)
	}
	for _, child := range r.GetChildren() {
		fmt.Fprintf(w, "%s  child:\n", pad)
		printReport(w, child, pad+"    ")
	}
}

// outcomeWord says in one word whether the Run finished with an answer.
func outcomeWord(r *runsvcv1.Report) string {
	switch {
	case r.GetFinished():
		return "finished"
	case settled(r.GetRun().GetState()):
		return "did not finish"
	}
	return "in progress"
}
