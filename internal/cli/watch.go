package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/durationpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errdetails"
)

// watchFlags are the options of a watch.
type watchFlags struct {
	// untilSuspended also ends the watch, successfully, when the Run
	// suspends.
	untilSuspended bool
}

func (a *app) runWatch(ctx context.Context, args []string) error {
	fs := a.flags()
	from := fs.Int64("from", 1, "the `SEQ` of the first record to show")
	var w watchFlags
	fs.BoolVar(&w.untilSuspended, "until-suspended", false, "also stop, with exit code 0, when the Run suspends")
	pos, err := a.parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if *from < 0 {
		return usagef("--from must not be negative")
	}
	if err := a.connect(); err != nil {
		return err
	}
	return a.watch(ctx, pos[0], *from, w)
}

func (a *app) getRun(ctx context.Context, runID string) (*runsvcv1.Run, error) {
	resp, err := unary(ctx, a, 0, a.runs.GetRun, &runsvcv1.GetRunRequest{RunId: runID})
	return resp.GetRun(), err
}

// hintedError is an error with a suggestion of what to do next.
type hintedError struct {
	err  error
	hint string
}

func (e *hintedError) Error() string { return e.err.Error() }
func (e *hintedError) Unwrap() error { return e.err }

// watch follows a Run from a seq until it settles (success only when it
// completed) or, with untilSuspended, until it suspends.
func (a *app) watch(ctx context.Context, runID string, from int64, w watchFlags) error {
	initial, err := a.getRun(ctx, runID)
	if err != nil {
		return err
	}
	// Records past the next one do not exist yet; a watch from there
	// could miss the one that settles the Run.
	from = max(from, 1)
	from = min(from, initial.GetLastSeq()+1)
	var v *view
	if !a.json {
		v = a.newView(runID, initial)
		defer v.close()
		if from > 1 {
			fmt.Fprintf(a.stdout, "run %s, from record %d\n", runID, from)
		}
	}
	if from > initial.GetLastSeq() {
		switch {
		case settled(initial.GetState()):
			if v != nil {
				v.settled(initial.GetState(), initial.GetAbortCause(), initial.GetAnswer(), initial.GetFailure())
			}
			return runOutcome(initial.GetState())
		case w.untilSuspended && initial.GetState() == runsvcv1.RunState_RUN_STATE_SUSPENDED:
			if v != nil {
				v.currentSuspension()
			}
			return nil
		}
	}
	next := from
	var lost time.Time // when the watch last broke without progress since
	var streamed bool  // a stream has delivered: only then does the watch reconnect
	for {
		before := next
		done, err := a.follow(ctx, runID, initial, v, w, &next, &streamed)
		if done {
			return err
		}
		if next > before {
			lost = time.Time{}
		}
		if lost.IsZero() {
			lost = time.Now()
		}
		wait, ok := reconnectDelay(err)
		if !ok || !streamed || ctx.Err() != nil || time.Since(lost) > reconnectFor {
			return a.watchEnded(ctx, runID, next, err)
		}
		fmt.Fprintf(a.stderr, "runsvc: the watch of run %s broke (%s); reconnecting from record %d in %s\n", runID, errdetails.Classify(err).Message, next, shortDuration(wait))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
}

// reconnectFor is how long `run watch` keeps reconnecting without getting
// a Record before it gives up.
const reconnectFor = time.Minute

// watchHeartbeat is the heartbeat interval `run watch` asks for, so that
// idle proxies keep its stream open.
const watchHeartbeat = 15 * time.Second

// reconnectDelay says whether a broken watch is worth reconnecting, and
// after how long: a retryable status (RetryInfo) after its delay; a
// transport failure (UNAVAILABLE without details, such as a restarting
// server) after a second.
func reconnectDelay(err error) (time.Duration, bool) {
	c := errdetails.Classify(err)
	switch {
	case c.Retryable:
		return max(c.RetryDelay, 100*time.Millisecond), true
	case c.Code == codes.Unavailable && c.Reason == "":
		return time.Second, true
	}
	return 0, false
}

// follow streams a Run's Records from *next, moving it on, until the Run
// settles (or suspends, with untilSuspended): done then. Otherwise it
// returns the error that broke the stream. It sets *streamed once a
// message arrives: a watch that never got going reports its error as is.
func (a *app) follow(ctx context.Context, runID string, initial *runsvcv1.Run, v *view, w watchFlags, next *int64, streamed *bool) (bool, error) {
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := a.runs.WatchRun(sctx, &runsvcv1.WatchRunRequest{RunId: runID, FromSeq: *next, HeartbeatInterval: durationpb.New(watchHeartbeat)})
	if err != nil {
		return false, err
	}
	for {
		resp, err := stream.Recv()
		if err != nil {
			return false, err
		}
		*streamed = true
		if resp.GetHeartbeatTime() != nil {
			continue
		}
		rec := resp.GetRecord()
		*next = rec.GetSeq() + 1
		live := rec.GetSeq() > initial.GetLastSeq()
		if v != nil {
			v.record(ctx, rec, live)
		} else if err := a.printJSON(resp); err != nil {
			return true, err
		}
		switch b := rec.GetBody().(type) {
		case *runsvcv1.Record_Settled_:
			return true, runOutcome(b.Settled.GetState())
		case *runsvcv1.Record_Suspended_:
			if w.untilSuspended && live {
				return true, nil
			}
		}
		if w.untilSuspended && rec.GetSeq() == initial.GetLastSeq() && initial.GetState() == runsvcv1.RunState_RUN_STATE_SUSPENDED {
			if v != nil {
				v.currentSuspension()
			}
			return true, nil
		}
	}
}

// watchEnded explains a watch that stopped before the Run settled, with
// the command that continues it.
func (a *app) watchEnded(ctx context.Context, runID string, next int64, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(err, io.EOF) {
		err = &clientError{code: codes.Unavailable, retryable: true,
			msg: fmt.Sprintf("the watch of run %s ended before the run settled", runID)}
	}
	if next == 1 {
		return err
	}
	return &hintedError{err: err, hint: "to continue: " + a.suggestion(fmt.Sprintf("run watch %s --from %d", shellQuote(runID), next))}
}
