package main

import (
	"context"
	"fmt"
	"io"
	"time"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// threadLenResult is the cost of a Run on a long thread (issue 30): one
// thread's Runs started one after another, each timed from StartRun until
// WaitRun sees it settled, beside Runs that each start a fresh thread,
// interleaved with the long thread's last ones, on the same server
// (SQLite).
type threadLenResult struct {
	// Runs is how many Runs the long thread had in the end.
	Runs int `json:"runs"`
	// First is its Runs 1 to 10, Last its last 10, Tail the last
	// threadLenTail (Last among them).
	First dist `json:"first"`
	Last  dist `json:"last"`
	Tail  dist `json:"tail"`
	// Fresh is the first Runs of fresh threads, one before each Run of
	// the tail.
	Fresh dist `json:"fresh"`
	// TailVsFresh is Tail.P50Ms / Fresh.P50Ms (the target: 50 Runs each,
	// interleaved), LastVsFresh Last.P50Ms / Fresh.P50Ms and LastVsFirst
	// Last.P50Ms / First.P50Ms.
	TailVsFresh float64 `json:"tailVsFresh"`
	LastVsFresh float64 `json:"lastVsFresh"`
	LastVsFirst float64 `json:"lastVsFirst"`
}

const (
	// threadLenRuns is the long thread's length; threadLenTail how many
	// of its last Runs have a fresh thread's Run beside them.
	threadLenRuns = 1000
	threadLenTail = 50
	threadLenSpec = `{"name": "chat", "instructions": "Be brief.",
	 "model": {"provider": "scripted", "script": {"turns": [{"text": "Noted, and here is my short answer to that."}]}}}`
)

func runThreadLen(ctx context.Context) (*threadLenResult, error) {
	p, err := startInproc("")
	if err != nil {
		return nil, err
	}
	defer p.stop()
	if err := publish(ctx, p.specs, threadLenSpec); err != nil {
		return nil, err
	}
	progress("threadlen: %d Runs on one thread", threadLenRuns)
	long := make([]time.Duration, 0, threadLenRuns)
	var fresh []time.Duration
	for i := 1; i <= threadLenRuns && ctx.Err() == nil; i++ {
		if i > threadLenRuns-threadLenTail {
			d, err := timeThreadRun(ctx, p.runs, fmt.Sprintf("fresh-%d", i), i)
			if err != nil {
				return nil, err
			}
			fresh = append(fresh, d)
		}
		d, err := timeThreadRun(ctx, p.runs, "long", i)
		if err != nil {
			return nil, err
		}
		long = append(long, d)
		if i%250 == 0 {
			progress("threadlen: Run %d took %s", i, d.Round(10*time.Microsecond))
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res := &threadLenResult{
		Runs: len(long), First: distribution(long[:10]), Last: distribution(long[len(long)-10:]),
		Tail: distribution(long[len(long)-threadLenTail:]), Fresh: distribution(fresh),
	}
	if res.Fresh.P50Ms > 0 && res.First.P50Ms > 0 {
		res.TailVsFresh = res.Tail.P50Ms / res.Fresh.P50Ms
		res.LastVsFresh, res.LastVsFirst = res.Last.P50Ms/res.Fresh.P50Ms, res.Last.P50Ms/res.First.P50Ms
	}
	return res, nil
}

// timeThreadRun starts the n-th Run of a thread and times it until it
// settles COMPLETED.
func timeThreadRun(ctx context.Context, rc runsvcv1.RunServiceClient, thread string, n int) (time.Duration, error) {
	began := time.Now()
	resp, err := rc.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "chat", ThreadId: thread, Input: fmt.Sprintf("Question %d: what should I remember about this?", n)})
	if err != nil {
		return 0, err
	}
	run, err := waitFor(ctx, rc, resp.GetRun().GetRunId(), false)
	if err != nil {
		return 0, err
	}
	if run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED {
		return 0, fmt.Errorf("run %d of thread %s settled %v: %v", n, thread, run.GetState(), run.GetFailure())
	}
	return time.Since(began), nil
}

// printThreadLen writes the thread-length section.
func printThreadLen(w io.Writer, r *threadLenResult) {
	section(w, fmt.Sprintf("THREAD LENGTH: start->settled of %d Runs on one thread, one after another, beside fresh threads' first Runs (SQLite)", r.Runs))
	tw := tabs(w)
	fmt.Fprintln(tw, "\tRuns\tp50 ms\tp99 ms\tmax ms\t")
	for _, row := range []struct {
		name string
		d    dist
	}{
		{"long thread, Runs 1-10", r.First},
		{fmt.Sprintf("long thread, Runs %d-%d", r.Runs-threadLenTail+1, r.Runs), r.Tail},
		{fmt.Sprintf("long thread, Runs %d-%d", r.Runs-9, r.Runs), r.Last},
		{"fresh threads' first Runs, beside the tail", r.Fresh},
	} {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t\n", row.name, row.d.N, fmtMs(row.d.P50Ms), fmtMs(row.d.P99Ms), fmtMs(row.d.MaxMs))
	}
	tw.Flush()
	fmt.Fprintf(w, "  p50 of the last %d / fresh %.2fx; last 10 / fresh %.2fx; last 10 / first 10 %.2fx\n", threadLenTail, r.TailVsFresh, r.LastVsFresh, r.LastVsFirst)
}

// threadLenTarget is issue 30's: Run 1,000 of a thread costs what a fresh
// thread's first Run does, judged on the last 50 Runs, each beside a
// fresh thread's (the last 10 alone swing too much on a shared machine).
func threadLenTarget(r *threadLenResult) target {
	g := goal{name: "start->settled p50 of a thread's Runs 951-1000 / a fresh thread's", op: "<=", limit: 1.3, unit: "x"}
	if r == nil || r.TailVsFresh == 0 {
		return g.unmeasured("")
	}
	return g.at(r.TailVsFresh, "same server, interleaved (SQLite)")
}
