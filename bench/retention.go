package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/server"
)

// retentionResult is the retention sweep (issue 19): N settled Runs,
// made by StartRun, swept after a retention of 1s on a fake clock, with
// StartRun's latency measured while nothing is swept and during the
// sweep, on the same server.
type retentionResult struct {
	Runs int `json:"runs"`
	// Deleted is what the sweep's log line says it deleted, in
	// SweepSeconds of wall time.
	Deleted      int     `json:"deleted"`
	SweepSeconds float64 `json:"sweepSeconds"`
	// Before and During are StartRun latencies from retentionClients
	// clients: before the clock moves past the retention, and while the
	// sweep deletes.
	Before dist `json:"before"`
	During dist `json:"during"`
	// P99Ratio is During.P99Ms / Before.P99Ms.
	P99Ratio float64 `json:"p99Ratio"`
}

const (
	retentionClients = 4
	retentionSpec    = `{"name": "kept", "model": {"provider": "scripted", "script": {"turns": [{"text": "the answer"}]}}}`
)

func runRetention(ctx context.Context, cfg config) (*retentionResult, error) {
	clk := clock.NewFake(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	p, err := startInprocWith("", func(c *server.Config) {
		c.Clock = clk
		c.Retention = runs.SweepConfig{Retention: time.Second, Interval: time.Minute}
	})
	if err != nil {
		return nil, err
	}
	defer p.stop()
	if err := publish(ctx, p.specs, retentionSpec); err != nil {
		return nil, err
	}
	res := &retentionResult{Runs: cfg.retentionRuns}
	progress("retention: starting %d Runs", res.Runs)
	if err := settleMany(ctx, p.runs, res.Runs); err != nil {
		return nil, err
	}
	progress("retention: StartRun latency with nothing to sweep")
	res.Before = distribution(timeStarts(ctx, p.runs, func(n int, _ time.Duration) bool { return n >= 2000 }))
	log := &sweepLog{path: p.dir + "/runsvc.log"}
	before := len(log.lines())
	clk.Advance(time.Minute)
	began := time.Now()
	progress("retention: StartRun latency during the sweep")
	res.During = distribution(timeUntilSwept(ctx, p.runs, log, before))
	res.SweepSeconds = time.Since(began).Seconds()
	lines := log.lines()
	if len(lines) <= before {
		return res, fmt.Errorf("no sweep logged")
	}
	res.Deleted, _ = strconv.Atoi(lines[len(lines)-1])
	if res.Deleted < res.Runs {
		return res, fmt.Errorf("the sweep deleted %d of %d Runs", res.Deleted, res.Runs)
	}
	if res.Before.P99Ms > 0 {
		res.P99Ratio = res.During.P99Ms / res.Before.P99Ms
	}
	return res, nil
}

// timeUntilSwept times StartRun until log has more sweeps than before.
// The log is read apart from the timed calls, every 100ms: reading it
// after each call would slow the calls being timed.
func timeUntilSwept(ctx context.Context, rc runsvcv1.RunServiceClient, log *sweepLog, before int) []time.Duration {
	watchCtx, stopWatching := context.WithCancel(ctx)
	watched := make(chan struct{})
	var swept atomic.Bool
	go func() {
		defer close(watched)
		for began := time.Now(); len(log.lines()) <= before && watchCtx.Err() == nil && time.Since(began) < 10*time.Minute; {
			time.Sleep(100 * time.Millisecond)
		}
		swept.Store(true)
	}()
	lat := timeStarts(ctx, rc, func(int, time.Duration) bool { return swept.Load() })
	stopWatching()
	<-watched
	return lat
}

// settleMany starts n Runs from 16 clients and waits for each to settle.
func settleMany(ctx context.Context, rc runsvcv1.RunServiceClient, n int) error {
	var wg sync.WaitGroup
	errc := make(chan error, 16)
	for c := 0; c < 16; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			for i := c; i < n && ctx.Err() == nil; i += 16 {
				r, err := rc.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "kept", Input: "q"})
				if err == nil {
					_, err = rc.WaitRun(ctx, &runsvcv1.WaitRunRequest{RunId: r.GetRun().GetRunId(), Wait: durationpb.New(time.Minute)})
				}
				if err != nil {
					errc <- err
					return
				}
			}
		}(c)
	}
	wg.Wait()
	close(errc)
	return <-errc
}

// timeStarts times StartRun from retentionClients clients until done says
// so (asked after every call, with the count so far and the time since
// the first), or ten minutes passed.
func timeStarts(ctx context.Context, rc runsvcv1.RunServiceClient, done func(n int, since time.Duration) bool) []time.Duration {
	var mu sync.Mutex
	var lat []time.Duration
	start := time.Now()
	stop := make(chan struct{})
	var once sync.Once
	var wg sync.WaitGroup
	for c := 0; c < retentionClients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				t := time.Now()
				if _, err := rc.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "kept", Input: "timed"}); err != nil {
					once.Do(func() { close(stop) })
					return
				}
				mu.Lock()
				lat = append(lat, time.Since(t))
				n := len(lat)
				mu.Unlock()
				if done(n, time.Since(start)) || time.Since(start) > 10*time.Minute {
					once.Do(func() { close(stop) })
				}
			}
		}()
	}
	wg.Wait()
	return lat
}

var sweepLine = regexp.MustCompile(`"msg":"retention sweep","deleted":(\d+)`)

// sweepLog follows runsvc's log for the sweep's lines, reading only what
// was appended since it last looked: reading the whole log every 100 ms
// was 9% of the process's CPU while the sweep was timed, a load the
// window before the sweep did not carry. Not safe for concurrent use.
type sweepLog struct {
	path string
	// off is how far the log was read; rest is a line not yet ended.
	off  int64
	rest []byte
	// deleted is the deleted count of every sweep logged so far.
	deleted []string
}

// lines returns the deleted count of every sweep logged so far.
func (l *sweepLog) lines() []string {
	f, err := os.Open(l.path)
	if err != nil {
		return l.deleted
	}
	defer f.Close()
	if _, err := f.Seek(l.off, io.SeekStart); err != nil {
		return l.deleted
	}
	b, _ := io.ReadAll(f)
	l.off += int64(len(b))
	b = append(l.rest, b...)
	ended := bytes.LastIndexByte(b, '\n') + 1
	for _, m := range sweepLine.FindAllSubmatch(b[:ended], -1) {
		l.deleted = append(l.deleted, string(m[1]))
	}
	l.rest = append([]byte(nil), b[ended:]...)
	return l.deleted
}

// printRetention writes the retention section.
func printRetention(w io.Writer, r *retentionResult) {
	section(w, fmt.Sprintf("7. RETENTION: %d settled Runs, retention 1s on a fake clock, StartRun from %d clients before and during the sweep (SQLite)", r.Runs, retentionClients))
	tw := tabs(w)
	fmt.Fprintln(tw, "\tcalls\tp50 ms\tp99 ms\tmax ms\t")
	fmt.Fprintf(tw, "StartRun, nothing to sweep\t%d\t%s\t%s\t%s\t\n", r.Before.N, fmtMs(r.Before.P50Ms), fmtMs(r.Before.P99Ms), fmtMs(r.Before.MaxMs))
	fmt.Fprintf(tw, "StartRun during the sweep\t%d\t%s\t%s\t%s\t\n", r.During.N, fmtMs(r.During.P50Ms), fmtMs(r.During.P99Ms), fmtMs(r.During.MaxMs))
	fmt.Fprintf(tw, "sweep\t%d deleted in %.1fs\t\t\t\t\n", r.Deleted, r.SweepSeconds)
	tw.Flush()
}
