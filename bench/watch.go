package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// watchPhase is the delivery latency with one number of watchers.
type watchPhase struct {
	// Watchers is how many WatchRun streams followed the Run.
	Watchers int `json:"watchers"`
	// Appends is how many records SendMessage appended, at AppendsPerSec.
	Appends       int     `json:"appends"`
	AppendsPerSec float64 `json:"appendsPerSecond"`
	// SendMessage is the appender's own call latency.
	SendMessage dist `json:"sendMessage"`
	// Delivered counts deliveries (a record to a watcher) out of Expected.
	Delivered int `json:"delivered"`
	Expected  int `json:"expected"`
	// Latency is from a record's time (set when it is appended) to its
	// receipt by a watcher.
	Latency dist `json:"latency"`
}

// watchResult is section 4 of the report.
type watchResult struct {
	// Phases are by number of watchers.
	Phases []watchPhase `json:"phases"`
	// TargetRate is the append pace asked for.
	TargetRate float64 `json:"targetAppendsPerSecond"`
}

func runWatch(ctx context.Context, cfg config) (*watchResult, error) {
	rs, err := startInproc("")
	if err != nil {
		return nil, err
	}
	defer rs.stop()
	if err := publish(ctx, rs.specs, suspendSpec); err != nil {
		return nil, err
	}
	res := &watchResult{TargetRate: cfg.appendRate}
	for _, n := range cfg.watchers {
		progress("watch: %d watchers", n)
		ph, err := measureWatch(ctx, rs.runs, n, cfg.appendRate, cfg.watchMeasure)
		if err != nil {
			return nil, err
		}
		res.Phases = append(res.Phases, ph)
	}
	return res, nil
}

// measureWatch suspends a fresh Run, opens n watchers on it from its last
// record, then appends records with SendMessage at rate per second for d
// and measures when each watcher receives each record.
func measureWatch(ctx context.Context, runs runsvcv1.RunServiceClient, n int, rate float64, d time.Duration) (watchPhase, error) {
	ph := watchPhase{Watchers: n}
	started, err := runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "bench-suspend", Input: "watch"})
	if err != nil {
		return ph, err
	}
	run, err := waitFor(ctx, runs, started.GetRun().GetRunId(), true)
	if err != nil {
		return ph, err
	}
	if run.GetState() != runsvcv1.RunState_RUN_STATE_SUSPENDED {
		return ph, fmt.Errorf("watch run is %v, want SUSPENDED", run.GetState())
	}
	id, from := run.GetRunId(), run.GetLastSeq()
	defer func() {
		_, _ = runs.InterruptRun(context.WithoutCancel(ctx), &runsvcv1.InterruptRunRequest{RunId: id, Reason: "benchmark over"})
	}()

	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		ready, done sync.WaitGroup
		mu          sync.Mutex
		lat         []time.Duration
		lastSeen    = make([]int64, n)
		setupErr    error
	)
	for i := range n {
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			stream, err := runs.WatchRun(wctx, &runsvcv1.WatchRunRequest{RunId: id, FromSeq: from})
			if err == nil {
				// The first record is the existing last one: the watch
				// is subscribed once it arrives.
				_, err = stream.Recv()
			}
			if err != nil {
				mu.Lock()
				setupErr = err
				mu.Unlock()
				ready.Done()
				return
			}
			ready.Done()
			mine := make([]time.Duration, 0, int(rate*d.Seconds())+16)
			for {
				resp, err := stream.Recv()
				if err != nil {
					break
				}
				mine = append(mine, time.Since(resp.GetRecord().GetTime().AsTime()))
				mu.Lock()
				lastSeen[i] = resp.GetRecord().GetSeq()
				mu.Unlock()
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	ready.Wait()
	if setupErr != nil {
		return ph, fmt.Errorf("opening %d watchers: %w", n, setupErr)
	}

	interval := time.Duration(float64(time.Second) / rate)
	tick := time.NewTicker(interval)
	defer tick.Stop()
	var sendLat []time.Duration
	var last int64
	start := time.Now()
	for time.Since(start) < d {
		<-tick.C
		t0 := time.Now()
		resp, err := runs.SendMessage(ctx, &runsvcv1.SendMessageRequest{RunId: id, Text: "tick"})
		if err != nil {
			return ph, fmt.Errorf("SendMessage: %w", err)
		}
		sendLat = append(sendLat, time.Since(t0))
		last = resp.GetSeq()
	}
	elapsed := time.Since(start)
	// Let every watcher catch up with the last record, for up to 10s.
	catchUp := time.Now().Add(10 * time.Second)
	for time.Now().Before(catchUp) {
		mu.Lock()
		behind := 0
		for _, s := range lastSeen {
			if s < last {
				behind++
			}
		}
		mu.Unlock()
		if behind == 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	done.Wait()

	ph.Appends = len(sendLat)
	ph.AppendsPerSec = float64(len(sendLat)) / elapsed.Seconds()
	ph.SendMessage = distribution(sendLat)
	ph.Delivered = len(lat)
	ph.Expected = int(last-from) * n
	ph.Latency = distribution(lat)
	return ph, nil
}
