package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

var delegateCommands = map[string]command{
	"start": {"SPEC TASK", "start a child Run of SPEC with TASK as its input and wait for it (--async: print its id at once)", (*app).delegateStart},
	"get":   {"DELEGATION_ID", "show a delegation", (*app).delegateGet},
	"await": {"DELEGATION_ID", "wait until a delegation's child Run settles, then show it", (*app).delegateAwait},
}

func (a *app) delegateStart(ctx context.Context, args []string) error {
	fs := a.flags()
	parent := fs.String("parent", "", "the parent `RUN_ID`, when the child works for a Run")
	async := fs.Bool("async", false, "print the delegation's id without waiting for the child")
	wait := fs.Duration("wait", 0, "the longest to wait for the child, a `DURATION`; the server's default when 0")
	requestID := fs.String("request-id", "", "idempotency key `ID`: delegating again with the same key returns the same delegation")
	pos, err := a.parse(fs, args, 2, 2)
	if err != nil {
		return err
	}
	if *wait < 0 {
		return usagef("--wait must not be negative")
	}
	req := &runsvcv1.DelegateRequest{ParentRunId: *parent, Spec: pos[0], Task: pos[1], Async: *async, RequestId: *requestID}
	if *wait > 0 {
		req.Timeout = durationpb.New(*wait)
	}
	if err := a.connect(); err != nil {
		return err
	}
	extra := *wait
	if !*async && extra == 0 {
		extra = 10 * time.Minute // the server bounds it
	}
	resp, err := unary(ctx, a, extra, runsvcv1.NewDelegationServiceClient(a.conn).Delegate, req)
	if err != nil {
		return err
	}
	return a.showDelegation(resp, resp.GetDelegation(), *async)
}

func (a *app) delegateGet(ctx context.Context, args []string) error {
	id, err := a.connectForID(args)
	if err != nil {
		return err
	}
	resp, err := unary(ctx, a, 0, runsvcv1.NewDelegationServiceClient(a.conn).GetDelegation, &runsvcv1.GetDelegationRequest{DelegationId: id})
	if err != nil {
		return err
	}
	return a.showDelegation(resp, resp.GetDelegation(), false)
}

func (a *app) delegateAwait(ctx context.Context, args []string) error {
	fs := a.flags()
	wait := fs.Duration("wait", 0, "the longest to wait, a `DURATION`; past it the command fails DELEGATION_TIMEOUT; the server's default when 0")
	pos, err := a.parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if *wait < 0 {
		return usagef("--wait must not be negative")
	}
	req := &runsvcv1.AwaitDelegationRequest{DelegationId: pos[0]}
	extra := 10 * time.Minute
	if *wait > 0 {
		req.Timeout, extra = durationpb.New(*wait), *wait
	}
	if err := a.connect(); err != nil {
		return err
	}
	resp, err := unary(ctx, a, extra, runsvcv1.NewDelegationServiceClient(a.conn).AwaitDelegation, req)
	if err != nil {
		return err
	}
	return a.showDelegation(resp, resp.GetDelegation(), false)
}

// showDelegation prints a delegation (just its id when idOnly), and
// fails like "run wait" when its child settled without completing.
func (a *app) showDelegation(resp proto.Message, d *runsvcv1.Delegation, idOnly bool) error {
	var err error
	switch {
	case a.json:
		err = a.printJSON(resp)
	case idOnly:
		_, err = fmt.Fprintln(a.stdout, d.GetDelegationId())
	default:
		printDelegation(a.stdout, d)
	}
	if err != nil {
		return err
	}
	return runOutcome(d.GetState())
}

func printDelegation(w io.Writer, d *runsvcv1.Delegation) {
	fmt.Fprintf(w, "%s  %s\n", d.GetDelegationId(), stateName(d.GetState()))
	field := func(label, value string) {
		fmt.Fprintf(w, "  %-9s %s\n", label, indent(value, "            "))
	}
	field("child", fmt.Sprintf("run %s of spec %s", d.GetChildRunId(), d.GetSpec()))
	if d.GetParentRunId() != "" {
		field("parent", d.GetParentRunId())
	}
	field("task", orNone(clip(d.GetTask(), 2000)))
	field("created", when(d.GetCreateTime()))
	if d.GetSettleTime() != nil {
		field("settled", when(d.GetSettleTime()))
	}
	if d.GetState() == runsvcv1.RunState_RUN_STATE_COMPLETED {
		field("answer", d.GetAnswer())
	}
	if f := d.GetFailure(); f != nil {
		field("failure", f.GetMessage()+" "+statusTag(f))
	}
}
