package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
)

// timerSpec is started asleep (start_at); woken, it sleeps one second
// with the sleep tool and then answers.
const timerSpec = `{"name": "bench-timer", "instructions": "Nap.",
  "model": {"provider": "scripted", "script": {"turns": [
    {"toolCalls": [{"name": "sleep", "arguments": {"duration": "1s"}}]}, {"text": "woke"}]}},
  "tools": [{"name": "sleep", "kind": "TOOL_KIND_BUILTIN"}]}`

// timersResult is section 5b of the report.
type timersResult struct {
	// Runs were started asleep, their start_at spread evenly over
	// WindowSeconds beginning LeadSeconds after the first StartRun.
	Runs          int     `json:"runs"`
	WindowSeconds float64 `json:"windowSeconds"`
	LeadSeconds   float64 `json:"leadSeconds"`
	// StartSeconds is how long starting them all took; IdleRSSMB is the
	// fresh server's RSS, RSSMB and HWMMB with every Run asleep.
	StartSeconds float64 `json:"startSeconds"`
	IdleRSSMB    float64 `json:"idleRssMB"`
	RSSMB        float64 `json:"rssMB"`
	HWMMB        float64 `json:"hwmMB"`
	// RestartSeconds is from starting the killed server's successor until
	// SERVING; DueBeforeRestart counts Runs whose start_at came before it
	// served (they wake late by design).
	RestartSeconds   float64 `json:"restartSeconds"`
	DueBeforeRestart int     `json:"dueBeforeRestart"`
	// StartAtLateness is, per Run due after the restart, the time of the
	// Record that woke it minus its start_at; SleepLateness the same for
	// the sleep tool's one-second timer after that.
	StartAtLateness dist `json:"startAtLatenessMs"`
	SleepLateness   dist `json:"sleepLatenessMs"`
	// Woke counts the Runs whose start_at timer woke them; Completed those
	// that then completed.
	Woke      int `json:"woke"`
	Completed int `json:"completed"`
	// AfterHWMMB is the restarted server's peak RSS.
	AfterHWMMB float64 `json:"afterHwmMB"`
}

// runTimers measures section 5b: cfg.timerRuns Runs asleep on a fresh
// `runsvc serve` (SQLite), SIGKILL, a successor on the same data, and how
// late each timer wakes its Run there.
func runTimers(ctx context.Context, cfg config) (*timersResult, error) {
	dir, err := os.MkdirTemp("", "runsvc-bench-timers-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	bin, err := buildServe(ctx, cfg.moduleRoot, dir)
	if err != nil {
		return nil, err
	}
	port, err := pgtest.FreePort()
	if err != nil {
		return nil, err
	}
	addr, data := "127.0.0.1:"+strconv.Itoa(port), filepath.Join(dir, "data")
	res := &timersResult{Runs: cfg.timerRuns, WindowSeconds: cfg.timerWindow.Seconds(), LeadSeconds: cfg.timerLead.Seconds()}
	p, err := startServe(ctx, bin, addr, data, filepath.Join(dir, "serve-1.log"))
	if err != nil {
		return nil, err
	}
	killed := false
	defer func() {
		if !killed {
			p.kill()
		}
	}()
	if err := publish(ctx, runsvcv1.NewSpecServiceClient(p.conn), timerSpec); err != nil {
		return nil, err
	}
	res.IdleRSSMB, _ = rssMB(p.cmd.Process.Pid)

	progress("timers: starting %d Runs asleep, due over %s from %s on", cfg.timerRuns, cfg.timerWindow, cfg.timerLead)
	t0 := time.Now()
	wakes, runIDs, err := startAsleep(ctx, p, cfg, t0.Add(cfg.timerLead))
	if err != nil {
		return nil, fmt.Errorf("starting Runs asleep: %w", err)
	}
	res.StartSeconds = time.Since(t0).Seconds()
	time.Sleep(2 * time.Second)
	if res.RSSMB, err = rssMB(p.cmd.Process.Pid); err != nil {
		return nil, err
	}
	res.HWMMB, _ = hwmMB(p.cmd.Process.Pid)

	progress("timers: killing and restarting runsvc")
	p.kill()
	killed = true
	t1 := time.Now()
	q, err := startServe(ctx, bin, addr, data, filepath.Join(dir, "serve-2.log"))
	if err != nil {
		return nil, err
	}
	defer q.stop()
	served := time.Now()
	res.RestartSeconds = served.Sub(t1).Seconds()

	progress("timers: waiting for every Run to wake and complete")
	startAt, sleep, err := lateness(ctx, q, runIDs, wakes, served, cfg.resumeConc, res)
	res.StartAtLateness, res.SleepLateness = distribution(startAt), distribution(sleep)
	res.AfterHWMMB, _ = hwmMB(q.cmd.Process.Pid)
	return res, err
}

// startAsleep starts cfg.timerRuns Runs of bench-timer, the i-th with
// start_at first + i*window/n, and returns their wake times and ids.
func startAsleep(ctx context.Context, p *serveProc, cfg config, first time.Time) ([]time.Time, []string, error) {
	n := cfg.timerRuns
	wakes, runIDs := make([]time.Time, n), make([]string, n)
	err := forEach(ctx, n, cfg.resumeConc, func(ctx context.Context, i int) error {
		at := first.Add(time.Duration(int64(cfg.timerWindow) * int64(i) / int64(n)))
		resp, err := p.runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "bench-timer", Input: "nap " + strconv.Itoa(i), StartAt: timestamppb.New(at)})
		if err != nil {
			return err
		}
		run := resp.GetRun()
		if run.GetSuspension().GetReason() != runsvcv1.SuspensionReason_SUSPENSION_REASON_TIMER {
			return fmt.Errorf("run %s is %v, not asleep", run.GetRunId(), run.GetState())
		}
		wakes[i], runIDs[i] = run.GetSuspension().GetWakeTime().AsTime(), run.GetRunId()
		return nil
	})
	return wakes, runIDs, err
}

// lateness waits for each Run to settle on q, reads its log, and returns
// how late its start_at timer woke it (Runs due after served only) and
// its sleep timer; it counts woken and completed Runs into res.
func lateness(ctx context.Context, q *serveProc, runIDs []string, wakes []time.Time, served time.Time, conc int, res *timersResult) (startAt, sleep []time.Duration, err error) {
	var mu sync.Mutex
	err = forEach(ctx, len(runIDs), conc, func(ctx context.Context, i int) error {
		run, err := waitFor(ctx, q.runs, runIDs[i], false)
		if err != nil {
			return err
		}
		late, err := timerLateness(ctx, q.runs, runIDs[i])
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		if wakes[i].Before(served) {
			res.DueBeforeRestart++
		} else if len(late) > 0 {
			startAt = append(startAt, late[0])
		}
		if len(late) > 0 {
			res.Woke++
		}
		if len(late) > 1 {
			sleep = append(sleep, late[1])
		}
		if run.GetState() == runsvcv1.RunState_RUN_STATE_COMPLETED {
			res.Completed++
		}
		return nil
	})
	return startAt, sleep, err
}

// timerLateness reads a settled Run's log and returns, for each timer
// that woke it, the Record's time minus the timer's wake time.
func timerLateness(ctx context.Context, runs runsvcv1.RunServiceClient, runID string) ([]time.Duration, error) {
	stream, err := runs.WatchRun(ctx, &runsvcv1.WatchRunRequest{RunId: runID})
	if err != nil {
		return nil, err
	}
	var out []time.Duration
	var wake time.Time
	for {
		resp, err := stream.Recv()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		r := resp.GetRecord()
		switch {
		case r.GetAdmitted().GetStartTime() != nil:
			wake = r.GetAdmitted().GetStartTime().AsTime()
		case r.GetSuspended().GetWakeTime() != nil:
			wake = r.GetSuspended().GetWakeTime().AsTime()
		case r.GetResumed().GetReason() == runsvcv1.SuspensionReason_SUSPENSION_REASON_TIMER:
			out = append(out, r.GetTime().AsTime().Sub(wake))
		}
	}
}

// printTimers writes section 5b.
func printTimers(w io.Writer, t *timersResult) {
	section(w, "5b. TIMERS: a separate `runsvc serve` (SQLite), Runs asleep (start_at spread over a window), SIGKILL, restart, each wakes")
	tw := tabs(w)
	fmt.Fprintf(tw, "Runs asleep\t%d\t(started in %.1fs; due evenly over %.0fs from %.0fs after the first start)\n", t.Runs, t.StartSeconds, t.WindowSeconds, t.LeadSeconds)
	fmt.Fprintf(tw, "RSS idle, before any Run\t%.1f MB\t\n", t.IdleRSSMB)
	fmt.Fprintf(tw, "RSS with all asleep\t%.1f MB\t(peak %.1f MB)\n", t.RSSMB, t.HWMMB)
	fmt.Fprintf(tw, "restart until SERVING\t%.2fs\t(%d Runs were due before it served)\n", t.RestartSeconds, t.DueBeforeRestart)
	fmt.Fprintf(tw, "start_at lateness after restart\tp50 %s\tp99 %s, max %s ms over %d Runs\n", fmtMs(t.StartAtLateness.P50Ms), fmtMs(t.StartAtLateness.P99Ms), fmtMs(t.StartAtLateness.MaxMs), t.StartAtLateness.N)
	fmt.Fprintf(tw, "sleep 1s lateness\tp50 %s\tp99 %s, max %s ms over %d Runs\n", fmtMs(t.SleepLateness.P50Ms), fmtMs(t.SleepLateness.P99Ms), fmtMs(t.SleepLateness.MaxMs), t.SleepLateness.N)
	fmt.Fprintf(tw, "woke / completed\t%d / %d\tof %d (peak RSS after restart %.1f MB)\n", t.Woke, t.Completed, t.Runs, t.AfterHWMMB)
	tw.Flush()
}
