package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"sync"
	"time"

	"google.golang.org/protobuf/types/known/structpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// longlivedTurns is how many turns the long-lived Runs take (issue 30:
// "client-tool turn p50 at turn 2,000 ≤ 1.3× turns 2–11").
const longlivedTurns = 2000

// longlivedWindow is how many turns each p50 is taken over: turns 2–11
// early, the last ten late.
const longlivedWindow = 10

// longlivedResult is the long-lived work phase (issue 30): one Run
// driven through longlivedTurns client-tool turns over gRPC, each a
// ResumeRun until the Run suspends again, and one of as many worker-tool
// turns, each timed between two calls the worker gets.
type longlivedResult struct {
	Turns  int          `json:"turns"`
	Client turnsProfile `json:"clientTool"`
	Worker turnsProfile `json:"workerTool"`
	// Profile is the CPU profile of the client-tool Run's second half.
	Profile *profileSummary `json:"profile,omitempty"`
}

// turnsProfile is how long a Run's turns took, early and late.
type turnsProfile struct {
	// EarlyP50Ms is the p50 of turns 2–11, LateP50Ms of the last ten,
	// Ratio late over early; MidP50Ms is turns around the middle.
	EarlyP50Ms float64 `json:"earlyP50Ms"`
	MidP50Ms   float64 `json:"midP50Ms"`
	LateP50Ms  float64 `json:"lateP50Ms"`
	Ratio      float64 `json:"ratio"`
	Seconds    float64 `json:"seconds"`
}

// profileTurns summarises per-turn durations, turn 1 first.
func profileTurns(turns []time.Duration, took time.Duration) turnsProfile {
	n := len(turns)
	window := func(from int) float64 { return distribution(turns[from : from+longlivedWindow]).P50Ms }
	p := turnsProfile{
		EarlyP50Ms: window(1),
		MidP50Ms:   window(n/2 - longlivedWindow/2),
		LateP50Ms:  window(n - longlivedWindow),
		Seconds:    took.Seconds(),
	}
	if p.EarlyP50Ms > 0 {
		p.Ratio = p.LateP50Ms / p.EarlyP50Ms
	}
	return p
}

// longlivedSpec is a Spec whose scripted model asks for the tool once a
// turn for turns turns, then answers.
func longlivedSpec(name, tool, kind string, turns int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"name": %q, "instructions": "Call the tool every turn.", "model": {"provider": "scripted", "script": {"turns": [`, name)
	for i := range turns {
		fmt.Fprintf(&b, `{"text": "Turn %d.", "toolCalls": [{"name": %q, "arguments": {"i": %d}}], "usage": {"inputTokens": 40, "outputTokens": 8}},`, i+1, tool, i+1)
	}
	fmt.Fprintf(&b, `{"text": "Done."}]}}, "tools": [{"name": %q, "kind": %q, "description": "One step."}],`, tool, kind)
	fmt.Fprintf(&b, ` "limits": {"maxTurns": %d, "maxToolRounds": %d, "deadline": "3600s"}}`, turns+1, turns+1)
	return b.String()
}

func runLonglived(ctx context.Context, cfg config) (*longlivedResult, error) {
	// Default flags: Attempts count crashes, not turns (issue 30 item 1).
	p, err := startInproc("")
	if err != nil {
		return nil, err
	}
	defer p.stop()
	turns := longlivedTurns
	for _, s := range []string{
		longlivedSpec("bench-longlived-client", "lookup", "TOOL_KIND_CLIENT", turns),
		longlivedSpec("bench-longlived-worker", "tick", "TOOL_KIND_WORKER", turns),
	} {
		if err := publish(ctx, p.specs, s); err != nil {
			return nil, err
		}
	}
	res := &longlivedResult{Turns: turns}
	progress("long-lived: one Run of %d client-tool turns", turns)
	// A first Run of a few turns warms the server up, so that turns 2-11
	// of the measured one are not its first.
	if _, _, err := clientToolTurns(ctx, p.runs, longlivedWarmTurns, ""); err != nil {
		return nil, fmt.Errorf("client-tool warm-up: %w", err)
	}
	prof := filepath.Join(os.TempDir(), "runsvc-bench-longlived.pprof")
	client, took, err := clientToolTurns(ctx, p.runs, turns, prof)
	if err != nil {
		return nil, fmt.Errorf("client-tool turns: %w", err)
	}
	res.Client = profileTurns(client, took)
	if res.Profile, err = summarizeProfile(prof); err != nil {
		progress("profile summary: %v", err)
	}
	progress("long-lived: one Run of %d worker-tool turns", turns)
	worker, took, err := workerToolTurns(ctx, p, turns)
	if err != nil {
		return nil, fmt.Errorf("worker-tool turns: %w", err)
	}
	res.Worker = profileTurns(worker, took)
	return res, nil
}

// longlivedWarmTurns is how many turns the warm-up Run takes before it
// is interrupted.
const longlivedWarmTurns = 30

// clientToolTurns starts a Run of bench-longlived-client and answers its
// calls one by one; a turn is from ResumeRun until WaitRun finds the Run
// suspended on the next call (or settled). The second half is profiled
// into profile when set. A Run given fewer turns than its script is
// interrupted after them.
func clientToolTurns(ctx context.Context, runs runsvcv1.RunServiceClient, turns int, profile string) ([]time.Duration, time.Duration, error) {
	resp, err := runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "bench-longlived-client", Input: "go"})
	if err != nil {
		return nil, 0, err
	}
	runID := resp.GetRun().GetRunId()
	run, err := waitFor(ctx, runs, runID, true)
	if err != nil {
		return nil, 0, err
	}
	output := structpb.NewStringValue("ok")
	out := make([]time.Duration, 0, turns)
	start := time.Now()
	for i := range turns {
		if i == turns/2 && profile != "" {
			stop, err := startProfile(profile)
			if err != nil {
				return nil, 0, err
			}
			defer stop()
		}
		calls := run.GetSuspension().GetToolCalls()
		if run.GetState() != runsvcv1.RunState_RUN_STATE_SUSPENDED || len(calls) != 1 {
			return nil, 0, fmt.Errorf("turn %d: run %s is %v with %d calls, want SUSPENDED on one", i+1, runID, run.GetState(), len(calls))
		}
		t0 := time.Now()
		if _, err := runs.ResumeRun(ctx, &runsvcv1.ResumeRunRequest{RunId: runID, ToolResults: []*runsvcv1.ToolResult{{CallId: calls[0].GetCallId(), Output: output}}}); err != nil {
			return nil, 0, fmt.Errorf("turn %d: %w", i+1, err)
		}
		if run, err = waitFor(ctx, runs, runID, true); err != nil {
			return nil, 0, fmt.Errorf("turn %d: %w", i+1, err)
		}
		out = append(out, time.Since(t0))
	}
	took := time.Since(start)
	if turns < longlivedTurns {
		_, err := runs.InterruptRun(ctx, &runsvcv1.InterruptRunRequest{RunId: runID, Reason: "warm-up over"})
		return out, took, err
	}
	if run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED {
		return nil, 0, fmt.Errorf("run %s ended %v after %d turns: %v", runID, run.GetState(), turns, run.GetFailure())
	}
	return out, took, nil
}

// startProfile starts a CPU profile into file; stop ends it.
func startProfile(file string) (stop func(), err error) {
	f, err := os.Create(file)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		_ = f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); _ = f.Close() }, nil
}

// workerToolTurns runs a Run of bench-longlived-worker against a tool
// worker that notes when each call arrives; turn k is the time from its
// call to the next one's, the model's turn and the tool's round trip.
func workerToolTurns(ctx context.Context, p *inproc, turns int) ([]time.Duration, time.Duration, error) {
	arrivals, stop, err := timedWorker(p.tools, "tick", turns+1)
	if err != nil {
		return nil, 0, err
	}
	defer stop()
	start := time.Now()
	if _, err := startAndSettle(ctx, p.runs, "bench-longlived-worker"); err != nil {
		return nil, 0, err
	}
	took := time.Since(start)
	at := arrivals()
	if len(at) != turns {
		return nil, 0, fmt.Errorf("the worker got %d calls, want %d", len(at), turns)
	}
	out := make([]time.Duration, 0, turns)
	for i := 1; i < len(at); i++ {
		out = append(out, at[i].Sub(at[i-1]))
	}
	return out, took, nil
}

// timedWorker serves tool on ServeTools, answering at once, and returns
// the times its calls arrived (up to max of them).
func timedWorker(client runsvcv1.ToolServiceClient, tool string, max int) (arrivals func() []time.Time, stop func(), err error) {
	ctx, cancel := context.WithCancel(context.Background())
	stream, err := client.ServeTools(ctx)
	if err != nil {
		cancel()
		return nil, nil, err
	}
	reg := &runsvcv1.ServeToolsRequest_Register{WorkerName: "bench-longlived", MaxConcurrency: 4, Tools: []*runsvcv1.ToolDefinition{{Name: tool}}}
	if err := testserver.Register(stream, reg); err != nil {
		cancel()
		return nil, nil, err
	}
	var mu sync.Mutex
	at := make([]time.Time, 0, max)
	done := make(chan struct{})
	output := structpb.NewStringValue("ok")
	go func() {
		defer close(done)
		testserver.ServeCalls(stream, func(c *runsvcv1.ServeToolsResponse_Call) bool {
			mu.Lock()
			if len(at) < max {
				at = append(at, time.Now())
			}
			mu.Unlock()
			res := &runsvcv1.ServeToolsRequest_Result{CallId: c.GetCallId(), Output: output}
			return stream.Send(&runsvcv1.ServeToolsRequest{Message: &runsvcv1.ServeToolsRequest_Result_{Result: res}}) == nil
		})
	}()
	arrivals = func() []time.Time {
		mu.Lock()
		defer mu.Unlock()
		return append([]time.Time(nil), at...)
	}
	return arrivals, func() { cancel(); <-done }, nil
}

// printLonglived writes the long-lived work section.
func printLonglived(w io.Writer, r *longlivedResult) {
	section(w, fmt.Sprintf("LONG-LIVED WORK (issue 30): one Run of %d client-tool turns (ResumeRun until suspended again), one of %d worker-tool turns (call to call), SQLite", r.Turns, r.Turns))
	tw := tabs(w)
	fmt.Fprintln(tw, "turns\tp50 ms turns 2-11\tp50 ms middle\tp50 ms last 10\tlast/early\tRun took s\t")
	for _, row := range []struct {
		name string
		p    turnsProfile
	}{{"client tool", r.Client}, {"worker tool", r.Worker}} {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.2fx\t%.1f\t\n", row.name, fmtMs(row.p.EarlyP50Ms), fmtMs(row.p.MidP50Ms), fmtMs(row.p.LateP50Ms), row.p.Ratio, row.p.Seconds)
	}
	tw.Flush()
	if pr := r.Profile; pr != nil {
		fmt.Fprintf(w, "CPU profile of the client-tool Run's second half: %s\n", pr.File)
		for _, e := range pr.Runsvc[:min(8, len(pr.Runsvc))] {
			fmt.Fprintf(w, "  %5.1f%% cum  %s\n", e.CumPct, e.Func)
		}
	}
}

// longlivedTargets are issue 30's ratios of late to early turns.
func longlivedTargets(r *longlivedResult) []target {
	client := goal{name: "client-tool turn p50 at turn 2,000 / turns 2-11", op: "<=", limit: 1.3, unit: "x"}
	worker := goal{name: "worker-tool turn p50 at turn 2,000 / turns 2-11", op: "<=", limit: 1.3, unit: "x"}
	if r == nil || r.Client.Ratio == 0 || r.Worker.Ratio == 0 {
		return []target{client.unmeasured(""), worker.unmeasured("")}
	}
	return []target{client.at(r.Client.Ratio, "one Run, SQLite"), worker.at(r.Worker.Ratio, "one Run, SQLite")}
}
