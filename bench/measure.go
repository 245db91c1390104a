package main

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"
)

// call is one request of a closed-loop client. It returns an error when the
// call did not end the way its variant expects.
type call func(ctx context.Context) error

// variant is one kind of call measured beside others.
type variant struct {
	name string
	do   call
}

// sample is what a closed loop measured: the calls that finished, the wall
// time they took, and each call's latency.
type sample struct {
	calls    int
	errs     int
	firstErr error
	elapsed  time.Duration
	lat      []time.Duration
}

func (s *sample) merge(o sample) {
	s.calls += o.calls
	s.errs += o.errs
	if s.firstErr == nil {
		s.firstErr = o.firstErr
	}
	s.elapsed += o.elapsed
	s.lat = append(s.lat, o.lat...)
}

// stat is a throughput with its latency distribution, as reported.
type stat struct {
	// Calls finished in Seconds, Errors of them unexpected (FirstErr
	// the first); PerSec is Calls over Seconds; latencies in ms.
	Calls    int     `json:"calls"`
	Errors   int     `json:"errors"`
	Seconds  float64 `json:"seconds"`
	PerSec   float64 `json:"perSecond"`
	P50Ms    float64 `json:"p50Ms"`
	P99Ms    float64 `json:"p99Ms"`
	MeanMs   float64 `json:"meanMs"`
	MaxMs    float64 `json:"maxMs"`
	FirstErr string  `json:"firstError,omitempty"`
}

func (s sample) stat() stat {
	st := stat{Calls: s.calls, Errors: s.errs, Seconds: s.elapsed.Seconds()}
	if s.elapsed > 0 {
		st.PerSec = float64(s.calls) / s.elapsed.Seconds()
	}
	if s.firstErr != nil {
		st.FirstErr = s.firstErr.Error()
	}
	d := distribution(s.lat)
	st.P50Ms, st.P99Ms, st.MeanMs, st.MaxMs = d.P50Ms, d.P99Ms, d.MeanMs, d.MaxMs
	return st
}

// dist is a latency distribution in milliseconds.
type dist struct {
	// N is the number of latencies.
	N      int     `json:"n"`
	P50Ms  float64 `json:"p50Ms"`
	P99Ms  float64 `json:"p99Ms"`
	MeanMs float64 `json:"meanMs"`
	MaxMs  float64 `json:"maxMs"`
}

func distribution(lat []time.Duration) dist {
	if len(lat) == 0 {
		return dist{}
	}
	sorted := slices.Clone(lat)
	slices.Sort(sorted)
	var sum time.Duration
	for _, l := range sorted {
		sum += l
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	return dist{
		N:      len(sorted),
		P50Ms:  ms(quantile(sorted, 0.50)),
		P99Ms:  ms(quantile(sorted, 0.99)),
		MeanMs: ms(sum / time.Duration(len(sorted))),
		MaxMs:  ms(sorted[len(sorted)-1]),
	}
}

// quantile returns the q-quantile of sorted latencies (nearest rank).
func quantile(sorted []time.Duration, q float64) time.Duration {
	i := int(q*float64(len(sorted))+0.5) - 1
	i = max(0, min(i, len(sorted)-1))
	return sorted[i]
}

// closedLoop runs conc clients that each call do back to back until d has
// passed, and returns what they measured. Calls in flight at the end finish
// and count; the elapsed time includes them.
func closedLoop(ctx context.Context, do call, conc int, d time.Duration) sample {
	var (
		mu  sync.Mutex
		out sample
		wg  sync.WaitGroup
	)
	start := time.Now()
	deadline := start.Add(d)
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine sample
			mine.lat = make([]time.Duration, 0, 1024)
			for time.Now().Before(deadline) && ctx.Err() == nil {
				t0 := time.Now()
				err := do(ctx)
				mine.lat = append(mine.lat, time.Since(t0))
				mine.calls++
				if err != nil {
					mine.errs++
					if mine.firstErr == nil {
						mine.firstErr = err
					}
				}
			}
			mu.Lock()
			out.merge(mine)
			mu.Unlock()
		}()
	}
	wg.Wait()
	out.elapsed = time.Since(start)
	return out
}

// interleaved measures variants at one concurrency for d each, in slices
// of d/rounds taken in turn (the order rotating every round, rounds rounded
// up to whole turns), so that drift in the machine hits every variant
// alike. A warm-up of each runs first.
func interleaved(ctx context.Context, vs []variant, conc int, d, warm time.Duration, rounds int) map[string]stat {
	for _, v := range vs {
		closedLoop(ctx, v.do, conc, warm)
	}
	// Whole turns of the rotation, so that each variant takes each place
	// in the order equally often.
	rounds = len(vs) * ((rounds + len(vs) - 1) / len(vs))
	agg := make([]sample, len(vs))
	slice := d / time.Duration(rounds)
	for r := range rounds {
		for i := range vs {
			k := (i + r) % len(vs)
			agg[k].merge(closedLoop(ctx, vs[k].do, conc, slice))
		}
	}
	out := map[string]stat{}
	for i, v := range vs {
		out[v.name] = agg[i].stat()
	}
	return out
}

// ratio returns a/b, or 0 when b is 0.
func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

func fmtMs(ms float64) string {
	switch {
	case ms == 0:
		return "-"
	case ms < 1:
		return fmt.Sprintf("%.3f", ms)
	case ms < 100:
		return fmt.Sprintf("%.2f", ms)
	default:
		return fmt.Sprintf("%.0f", ms)
	}
}
