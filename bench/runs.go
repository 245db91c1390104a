package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// runsPhase is one closed-loop measurement of StartRun -> settled.
type runsPhase struct {
	// Store is "sqlite" or "postgres <version>"; Runs settled and
	// Failed in Seconds at Concurrency; Records is their log length.
	Store       string  `json:"store"`
	Concurrency int     `json:"concurrency"`
	Runs        int     `json:"runs"`
	Failed      int     `json:"failed"`
	FirstErr    string  `json:"firstError,omitempty"`
	Seconds     float64 `json:"seconds"`
	RunsPerSec  float64 `json:"runsPerSecond"`
	Records     int64   `json:"records"`
	RecordsSec  float64 `json:"recordsPerSecond"`
	P50Ms       float64 `json:"p50Ms"`
	P99Ms       float64 `json:"p99Ms"`
	MeanMs      float64 `json:"meanMs"`
	// CPUMsPerRun is the process's user+system CPU over the phase divided
	// by the Runs it settled; the process also holds the load generator
	// and the tool worker.
	CPUMsPerRun float64 `json:"cpuMsPerRun"`
	// CPUUtil is that CPU over the wall time, in cores.
	CPUUtil float64 `json:"cpuCores"`
	// WaitEvents are PostgreSQL's client backends' wait events sampled
	// every 20ms over the phase, most frequent first.
	WaitEvents []waitEvent `json:"waitEvents,omitempty"`
	// Steps is where a Run's wall time goes, from the logs of the phase's
	// last Runs: the time from one record's stamp to the next's.
	Steps []step `json:"steps"`
}

// step is the time between two consecutive moments of a Run: StartRun
// called, each record's time (stamped just before its append commits),
// WaitRun returned.
type step struct {
	// From and To name the moments: a record kind, "StartRun called" or
	// "WaitRun returned".
	From string `json:"from"`
	To   string `json:"to"`
	// PerRun is how many times a Run takes the step.
	PerRun float64 `json:"perRun"`
	N      int     `json:"n"`
	MeanMs float64 `json:"meanMs"`
	P50Ms  float64 `json:"p50Ms"`
}

// traced is one measured Run, for its steps.
type traced struct {
	runID      string
	start, end time.Time
}

// runsResult is section 3 of the report.
type runsResult struct {
	// Phases are the SQLite phases, by concurrency.
	Phases []runsPhase `json:"phases"`
	// Postgres is the c16 phase on PostgreSQL with fsync on, and
	// PostgresNoFsync with fsync off; Skipped says why not.
	Postgres        *runsPhase `json:"postgres,omitempty"`
	PostgresNoFsync *runsPhase `json:"postgresNoFsync,omitempty"`
	Skipped         string     `json:"postgresSkipped,omitempty"`
	// Profile summarises the CPU profile of the SQLite c16 phase.
	Profile *profileSummary `json:"profile,omitempty"`
}

func runRuns(ctx context.Context, cfg config) (*runsResult, error) {
	res := &runsResult{}
	rs, err := startToolsInproc(ctx, "")
	if err != nil {
		return nil, err
	}
	defer rs.stop()
	for _, conc := range cfg.runConcurrencies {
		progress("runs (SQLite): concurrency %d", conc)
		var prof string
		if conc == 16 {
			prof = cfg.cpuProfile
		}
		ph, err := measureRuns(ctx, rs.runs, conc, cfg.runsWarm, cfg.runsMeasure, prof)
		if err != nil {
			return nil, err
		}
		ph.Store = "sqlite"
		res.Phases = append(res.Phases, ph)
		if prof != "" {
			if res.Profile, err = summarizeProfile(prof); err != nil {
				progress("profile summary: %v", err)
			}
		}
	}
	return res, nil
}

// runPostgres measures runs/s at concurrency 16 on PostgreSQL clusters
// started for the purpose: with fsync on, the fair comparison with
// SQLite's synchronous=FULL that the target judges, then with fsync off
// (as pgtest runs it) to show what durability costs there. Each samples
// the server's wait events while it runs.
func runPostgres(ctx context.Context, cfg config, res *runsResult) error {
	for _, fsync := range []bool{true, false} {
		ph, err := postgresPhase(ctx, cfg, fsync)
		var skip skipError
		if errors.As(err, &skip) {
			res.Skipped = string(skip)
			progress("runs (PostgreSQL): skipped: %s", skip)
			return nil
		}
		if err != nil {
			return err
		}
		if fsync {
			res.Postgres = ph
		} else {
			res.PostgresNoFsync = ph
		}
	}
	return nil
}

// postgresRuns starts a fresh PostgreSQL cluster and an in-process
// runsvc with a tool worker on it; stop ends both.
func postgresRuns(ctx context.Context, fsync bool) (pg *pgCluster, rs *inproc, stop func(), err error) {
	pg, err = startPostgres(fsync)
	if err != nil {
		return nil, nil, nil, err
	}
	rs, err = startToolsInproc(ctx, pg.dsn())
	if err != nil {
		pg.stop()
		return nil, nil, nil, err
	}
	return pg, rs, func() { rs.stop(); pg.stop() }, nil
}

func postgresPhase(ctx context.Context, cfg config, fsync bool) (*runsPhase, error) {
	pg, rs, stop, err := postgresRuns(ctx, fsync)
	if err != nil {
		return nil, err
	}
	defer stop()
	mode := "fsync=on"
	if !fsync {
		mode = "fsync=off"
	}
	progress("runs (PostgreSQL %s, %s): concurrency 16", pg.version, mode)
	sampler, err := sampleWaits(ctx, pg.dsn())
	if err != nil {
		return nil, err
	}
	ph, err := measureRuns(ctx, rs.runs, 16, cfg.runsWarm, cfg.runsMeasure, "")
	ph.WaitEvents = sampler.stop()
	if err != nil {
		return nil, err
	}
	ph.Store = "postgres " + pg.version + " " + mode
	return &ph, nil
}

// measureRuns runs conc clients that each start a Run of bench-tools and
// wait for it to settle, then start the next, for d after a warm-up. With
// profile set, it writes a CPU profile of the measured part there.
func measureRuns(ctx context.Context, runs runsvcv1.RunServiceClient, conc int, warm, d time.Duration, profile string) (runsPhase, error) {
	return measureSpec(ctx, runs, "bench-tools", conc, warm, d, profile)
}

// measureSpec is measureRuns with Runs of the published Spec spec.
func measureSpec(ctx context.Context, runs runsvcv1.RunServiceClient, spec string, conc int, warm, d time.Duration, profile string) (runsPhase, error) {
	var (
		records atomic.Int64
		mu      sync.Mutex
		last    []traced
	)
	do := func(ctx context.Context) error {
		t0 := time.Now()
		run, err := startAndSettle(ctx, runs, spec)
		if err == nil {
			records.Add(run.GetLastSeq())
			mu.Lock()
			last = append(last, traced{runID: run.GetRunId(), start: t0, end: time.Now()})
			if len(last) > 2*tracedRuns {
				last = append(last[:0], last[len(last)-tracedRuns:]...)
			}
			mu.Unlock()
		}
		return err
	}
	warmup := closedLoop(ctx, do, conc, warm)
	if warmup.errs > 0 {
		return runsPhase{}, fmt.Errorf("runs at concurrency %d: %d of %d failed in the warm-up: %v", conc, warmup.errs, warmup.calls, warmup.firstErr)
	}
	records.Store(0)
	mu.Lock()
	last = nil
	mu.Unlock()
	if profile != "" {
		f, err := os.Create(profile)
		if err != nil {
			return runsPhase{}, err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return runsPhase{}, err
		}
	}
	cpu0 := cpuTime()
	s := closedLoop(ctx, do, conc, d)
	cpu := cpuTime() - cpu0
	if profile != "" {
		pprof.StopCPUProfile()
	}
	st := s.stat()
	ph := runsPhase{
		Concurrency: conc, Runs: s.calls - s.errs, Failed: s.errs, FirstErr: st.FirstErr,
		Seconds: st.Seconds, RunsPerSec: float64(s.calls-s.errs) / st.Seconds,
		Records: records.Load(), RecordsSec: float64(records.Load()) / st.Seconds,
		P50Ms: st.P50Ms, P99Ms: st.P99Ms, MeanMs: st.MeanMs,
		CPUUtil: cpu.Seconds() / st.Seconds,
	}
	if ph.Runs > 0 {
		ph.CPUMsPerRun = float64(cpu) / float64(time.Millisecond) / float64(ph.Runs)
	}
	if len(last) > tracedRuns {
		last = last[len(last)-tracedRuns:]
	}
	steps, err := runSteps(ctx, runs, last)
	if err != nil {
		return ph, err
	}
	ph.Steps = steps
	return ph, nil
}

// tracedRuns is how many of a phase's last Runs its steps are read from.
const tracedRuns = 50

// runSteps reads the logs of settled Runs and returns the time between
// consecutive moments, in log order, aggregated over the Runs.
func runSteps(ctx context.Context, runs runsvcv1.RunServiceClient, ts []traced) ([]step, error) {
	type key struct{ from, to string }
	var order []key
	byKey := map[key][]time.Duration{}
	for _, t := range ts {
		stream, err := runs.WatchRun(ctx, &runsvcv1.WatchRunRequest{RunId: t.runID})
		if err != nil {
			return nil, err
		}
		prevName, prevTime := "StartRun called", t.start
		add := func(name string, at time.Time) {
			k := key{prevName, name}
			if _, seen := byKey[k]; !seen {
				order = append(order, k)
			}
			byKey[k] = append(byKey[k], at.Sub(prevTime))
			prevName, prevTime = name, at
		}
		for {
			resp, err := stream.Recv()
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, err
			}
			add(recordKind(resp.GetRecord()), resp.GetRecord().GetTime().AsTime())
		}
		add("WaitRun returned", t.end)
	}
	out := make([]step, 0, len(order))
	for _, k := range order {
		d := distribution(byKey[k])
		out = append(out, step{From: k.from, To: k.to, PerRun: float64(d.N) / float64(len(ts)), N: d.N, MeanMs: d.MeanMs, P50Ms: d.P50Ms})
	}
	return out, nil
}

// recordKind names a record by its body: "ToolCallStarted".
func recordKind(r *runsvcv1.Record) string {
	name := fmt.Sprintf("%T", r.GetBody())
	name = strings.TrimPrefix(name, "*runsvcv1.Record_")
	return strings.TrimSuffix(name, "_")
}

// cpuTime returns the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
