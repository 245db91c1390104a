package cli

import (
	"context"
	"fmt"

	"google.golang.org/protobuf/types/known/durationpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// runFork starts a Run from another Run's state at a turn boundary.
func (a *app) runFork(ctx context.Context, args []string) error {
	fs := a.flags()
	turn := fs.Int("turn", 0, "fork before turn `N` (from 1): the fork makes that turn again")
	atSeq := fs.Int64("at-seq", 0, "fork before the turn_started record at `SEQ`")
	input := fs.String("input", "", "a new user message `TEXT` after the source's state")
	version := fs.String("version", "", "the Spec `VERSION` to run, the source's or a newer one; the source's when empty")
	requestID := fs.String("request-id", "", "idempotency key `ID`: forking again with the same key and flags returns the same Run")
	deadline := fs.Duration("deadline", 0, "a deadline shorter than the Spec's, a `DURATION` such as 5m")
	var w watchFlags
	watch := fs.Bool("watch", false, "then follow the fork like \"run watch\"")
	pos, err := a.parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if (*turn > 0) == (*atSeq > 0) || *turn < 0 || *atSeq < 0 {
		return usagef("give one of --turn or --at-seq, positive")
	}
	if *deadline < 0 {
		return usagef("--deadline must not be negative")
	}
	req := &runsvcv1.ForkRunRequest{RunId: pos[0], Input: *input, Version: *version, RequestId: *requestID}
	if *turn > 0 {
		req.At = &runsvcv1.ForkRunRequest_Turn{Turn: int32(*turn)}
	} else {
		req.At = &runsvcv1.ForkRunRequest_AtSeq{AtSeq: *atSeq}
	}
	if *deadline > 0 {
		req.Deadline = durationpb.New(*deadline)
	}
	if err := a.connect(); err != nil {
		return err
	}
	resp, err := unary(ctx, a, 0, a.runs.ForkRun, req)
	if err != nil {
		return err
	}
	if a.json {
		if err := a.printJSON(resp); err != nil {
			return err
		}
	} else {
		fmt.Fprintln(a.stdout, resp.GetRun().GetRunId())
	}
	if !*watch {
		return nil
	}
	return a.watch(ctx, resp.GetRun().GetRunId(), 1, w)
}
