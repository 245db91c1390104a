package main

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// temporalSpec is the Temporal-shaped Run (issue 18): three sequential
// turns of one worker-tool call each, then the answer, the common
// "workflow of three activities" in runsvc's terms.
const temporalSpec = `{"name": "bench-temporal", "instructions": "Use the tool once per turn, three turns, then answer.",
 "model": {"provider": "scripted", "script": {"turns": [
   {"toolCalls": [{"name": "step", "arguments": {"i": 1}}], "usage": {"inputTokens": 40, "outputTokens": 4}},
   {"toolCalls": [{"name": "step", "arguments": {"i": 2}}], "usage": {"inputTokens": 50, "outputTokens": 4}},
   {"toolCalls": [{"name": "step", "arguments": {"i": 3}}], "usage": {"inputTokens": 60, "outputTokens": 4}},
   {"text": "Done after three steps.", "usage": {"inputTokens": 70, "outputTokens": 6}}]}},
 "tools": [{"name": "step", "kind": "TOOL_KIND_WORKER", "description": "One step."}]}`

// temporalConcurrencies are the SQLite concurrencies of the temporal
// phase; PostgreSQL is measured at temporalPGConcurrency.
var temporalConcurrencies = []int{1, 16}

const temporalPGConcurrency = 16

// temporalResult is section 3b of the report: Runs of temporalSpec.
type temporalResult struct {
	// Phases are SQLite's by concurrency, then PostgreSQL's with fsync on.
	Phases []runsPhase `json:"phases"`
	// Skipped says why PostgreSQL was not measured.
	Skipped string `json:"postgresSkipped,omitempty"`
}

// runTemporal measures StartRun -> settled of the Temporal-shaped Run on
// SQLite at each of temporalConcurrencies, then on a PostgreSQL cluster
// with fsync on at temporalPGConcurrency, each as the Runs phase measures
// its one-turn Run.
func runTemporal(ctx context.Context, cfg config) (*temporalResult, error) {
	res := &temporalResult{}
	rs, err := startToolsInproc(ctx, "")
	if err != nil {
		return nil, err
	}
	if err := publish(ctx, rs.specs, temporalSpec); err != nil {
		rs.stop()
		return nil, err
	}
	for _, conc := range temporalConcurrencies {
		progress("temporal (SQLite): concurrency %d", conc)
		ph, err := measureSpec(ctx, rs.runs, "bench-temporal", conc, cfg.runsWarm, cfg.runsMeasure, "")
		if err != nil {
			rs.stop()
			return nil, err
		}
		ph.Store = "sqlite"
		res.Phases = append(res.Phases, ph)
	}
	rs.stop()
	ph, err := temporalPostgres(ctx, cfg)
	var skip skipError
	if errors.As(err, &skip) {
		res.Skipped = string(skip)
		progress("temporal (PostgreSQL): skipped: %s", skip)
		return res, nil
	}
	if err != nil {
		return res, err
	}
	res.Phases = append(res.Phases, *ph)
	return res, nil
}

// temporalPostgres measures the Temporal-shaped Run on a fresh PostgreSQL
// cluster with fsync on.
func temporalPostgres(ctx context.Context, cfg config) (*runsPhase, error) {
	pg, rs, stop, err := postgresRuns(ctx, true)
	if err != nil {
		return nil, err
	}
	defer stop()
	if err := publish(ctx, rs.specs, temporalSpec); err != nil {
		return nil, err
	}
	progress("temporal (PostgreSQL %s, fsync=on): concurrency %d", pg.version, temporalPGConcurrency)
	ph, err := measureSpec(ctx, rs.runs, "bench-temporal", temporalPGConcurrency, cfg.runsWarm, cfg.runsMeasure, "")
	if err != nil {
		return nil, err
	}
	ph.Store = "postgres " + pg.version + " fsync=on"
	return &ph, nil
}

// printTemporal writes section 3b: the Temporal-shaped Run's rows, in the
// Runs phase's columns, and where its wall time goes.
func printTemporal(w io.Writer, t *temporalResult) {
	section(w, "3b. TEMPORAL-SHAPED RUNS: StartRun -> settled, scripted, 3 sequential turns of 1 worker-tool call each + answer (a workflow of three activities); closed loop")
	tw := tabs(w)
	fmt.Fprintln(tw, "store\tconc\truns\truns/s\trecords/Run\tp50 ms\tp99 ms\tCPU ms/Run\tCPU cores\t")
	for _, ph := range t.Phases {
		perRun := 0.0
		if ph.Runs > 0 {
			perRun = float64(ph.Records) / float64(ph.Runs)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.0f\t%.1f\t%s\t%s\t%.2f\t%.2f\t%s\n", ph.Store, ph.Concurrency, ph.Runs, ph.RunsPerSec, perRun, fmtMs(ph.P50Ms), fmtMs(ph.P99Ms), ph.CPUMsPerRun, ph.CPUUtil, errNote(ph.Failed, ph.FirstErr))
	}
	tw.Flush()
	if t.Skipped != "" {
		fmt.Fprintf(w, "  PostgreSQL: skipped: %s\n", t.Skipped)
	}
	fmt.Fprintln(w, "  Each Run: 4 model calls and 3 worker-tool calls, one after another; CPU as in section 3. No Temporal figure is printed:")
	fmt.Fprintln(w, "  no public measurement of a three-activity workflow on comparable hardware was found to cite.")
	printSteps(w, t.Phases)
}
