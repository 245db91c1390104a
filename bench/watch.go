package main

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
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
	// Cost is the process's CPU and allocations per delivery, from the
	// first append until every watcher has caught up.
	Cost perDelivery `json:"cost"`
	// Floor is the same watchers and pace on a bare grpc-go fan-out.
	Floor *fanoutFloor `json:"floor,omitempty"`
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
		progress("watch: %d watchers: %.1f µs CPU and %.1f allocations per delivery, %d GCs", n, ph.Cost.CPUMicros, ph.Cost.Allocs, ph.Cost.GCs)
		progress("watch: %d watchers on a bare grpc-go fan-out", n)
		if ph.Floor, err = measureFanoutFloor(ctx, n, cfg.appendRate, cfg.watchMeasure); err != nil {
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
	ws := openWatchers(wctx, runs, id, from, n, int(rate*d.Seconds())+16)
	if ws.setupErr != nil {
		return ph, fmt.Errorf("opening %d watchers: %w", n, ws.setupErr)
	}
	before := costNow()
	sendLat, last, elapsed, err := appendTicks(ctx, runs, id, rate, d)
	if err != nil {
		return ph, err
	}
	// Let every watcher catch up with the last record, for up to 10s.
	ws.waitCaughtUp(last, 10*time.Second)
	ph.Cost = before.since(int(last-from) * n)
	cancel()
	ws.done.Wait()

	ph.Appends = len(sendLat)
	ph.AppendsPerSec = float64(len(sendLat)) / elapsed.Seconds()
	ph.SendMessage = distribution(sendLat)
	ph.Delivered = len(ws.lat)
	ph.Expected = int(last-from) * n
	ph.Latency = distribution(ws.lat)
	return ph, nil
}

// watchers are WatchRun streams on one Run, each recording how long every
// record took to reach it and the last seq it has seen.
type watchers struct {
	ready, done sync.WaitGroup
	// lastSeen is each watcher's, atomic: a mutex shared by 1,000
	// receivers taken on every message would be the harness's own
	// contention, which no real client has.
	lastSeen []atomic.Int64
	// mu guards the fields below it.
	mu       sync.Mutex
	lat      []time.Duration
	setupErr error
}

// openWatchers opens n watchers on Run id from seq from and returns once
// each is subscribed or has failed to (then setupErr is set); perWatcher
// sizes each watcher's buffer of latencies.
func openWatchers(ctx context.Context, runs runsvcv1.RunServiceClient, id string, from int64, n, perWatcher int) *watchers {
	w := &watchers{lastSeen: make([]atomic.Int64, n)}
	for i := range n {
		w.ready.Add(1)
		w.done.Add(1)
		go w.follow(ctx, runs, id, from, i, perWatcher)
	}
	w.ready.Wait()
	return w
}

// follow is watcher i: it subscribes, says it is ready, then notes every
// record it receives until its stream ends.
func (w *watchers) follow(ctx context.Context, runs runsvcv1.RunServiceClient, id string, from int64, i, perWatcher int) {
	defer w.done.Done()
	stream, err := runs.WatchRun(ctx, &runsvcv1.WatchRunRequest{RunId: id, FromSeq: from})
	if err == nil {
		// The first record is the existing last one: the watch
		// is subscribed once it arrives.
		_, err = stream.Recv()
	}
	if err != nil {
		w.mu.Lock()
		w.setupErr = err
		w.mu.Unlock()
		w.ready.Done()
		return
	}
	w.ready.Done()
	mine := make([]time.Duration, 0, perWatcher)
	for {
		resp, err := stream.Recv()
		if err != nil {
			break
		}
		mine = append(mine, time.Since(resp.GetRecord().GetTime().AsTime()))
		w.lastSeen[i].Store(resp.GetRecord().GetSeq())
	}
	w.mu.Lock()
	w.lat = append(w.lat, mine...)
	w.mu.Unlock()
}

// waitCaughtUp returns once every watcher has seen seq last, or after limit.
func (w *watchers) waitCaughtUp(last int64, limit time.Duration) {
	catchUp := time.Now().Add(limit)
	for time.Now().Before(catchUp) {
		behind := 0
		for i := range w.lastSeen {
			if w.lastSeen[i].Load() < last {
				behind++
			}
		}
		if behind == 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// appendTicks appends a message to Run id with SendMessage at rate per
// second for d and returns each call's latency, the last record's seq and
// how long the appending took.
func appendTicks(ctx context.Context, runs runsvcv1.RunServiceClient, id string, rate float64, d time.Duration) (sendLat []time.Duration, last int64, elapsed time.Duration, err error) {
	return tickAppends(rate, d, func() (int64, error) {
		resp, err := runs.SendMessage(ctx, &runsvcv1.SendMessageRequest{RunId: id, Text: "tick"})
		if err != nil {
			return 0, fmt.Errorf("SendMessage: %w", err)
		}
		return resp.GetSeq(), nil
	})
}

// tickAppends calls add, which appends a record and returns its seq, at
// rate per second for d; it returns each call's latency, the last seq and
// how long the appending took, or add's first error.
func tickAppends(rate float64, d time.Duration, add func() (int64, error)) (lat []time.Duration, last int64, elapsed time.Duration, err error) {
	tick := time.NewTicker(time.Duration(float64(time.Second) / rate))
	defer tick.Stop()
	start := time.Now()
	for time.Since(start) < d {
		<-tick.C
		t0 := time.Now()
		seq, err := add()
		if err != nil {
			return nil, 0, 0, err
		}
		lat = append(lat, time.Since(t0))
		last = seq
	}
	return lat, last, time.Since(start), nil
}
