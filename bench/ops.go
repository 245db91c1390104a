package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"sync/atomic"
	"time"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/grpc"

	"github.com/runsvc/runsvc/internal/server"
)

// opsResult is the observability overhead: the Runs phase at c16 on two
// servers of this build in one process, one with metrics (scraped every
// second) and tracing (OTLP to an in-process receiver) on and one with
// both off, measured in turns.
type opsResult struct {
	Rounds int         `json:"rounds"`
	Off    []runsPhase `json:"off"`
	On     []runsPhase `json:"on"`
	// OffRunsPerSec and OnRunsPerSec are over all rounds; Ratio is on/off.
	OffRunsPerSec float64 `json:"offRunsPerSecond"`
	OnRunsPerSec  float64 `json:"onRunsPerSecond"`
	Ratio         float64 `json:"ratio"`
	// MedianRoundRatio is the median of the rounds' on/off ratios, less
	// swayed by a neighbour's burst on a shared machine.
	MedianRoundRatio float64 `json:"medianRoundRatio"`
	// CPURatio is on/off of the CPU ms per Run over all rounds: what the
	// instrumentation costs this process, whatever else runs.
	CPURatio float64 `json:"cpuRatio"`
	// Spans is how many spans the receiver got; Scrapes how many
	// /metrics scrapes succeeded.
	Spans   int64 `json:"spans"`
	Scrapes int64 `json:"scrapes"`
}

// spanSink is an in-process OTLP/gRPC trace receiver that counts spans.
type spanSink struct {
	coltracepb.UnimplementedTraceServiceServer
	spans atomic.Int64
}

// Export implements the collector's trace service.
func (s *spanSink) Export(_ context.Context, req *coltracepb.ExportTraceServiceRequest) (*coltracepb.ExportTraceServiceResponse, error) {
	for _, rs := range req.GetResourceSpans() {
		for _, ss := range rs.GetScopeSpans() {
			s.spans.Add(int64(len(ss.GetSpans())))
		}
	}
	return &coltracepb.ExportTraceServiceResponse{}, nil
}

func runOps(ctx context.Context, cfg config) (*opsResult, error) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	sink := &spanSink{}
	recv := grpc.NewServer()
	coltracepb.RegisterTraceServiceServer(recv, sink)
	go func() { _ = recv.Serve(lis) }()
	defer recv.Stop()

	off, err := startToolsInprocWith(ctx, "", nil)
	if err != nil {
		return nil, err
	}
	defer off.stop()
	on, err := startToolsInprocWith(ctx, "", func(c *server.Config) {
		c.Ops.MetricsListen = "127.0.0.1:0"
		c.Ops.OTLPEndpoint = lis.Addr().String()
	})
	if err != nil {
		return nil, err
	}
	defer on.stop()
	res := &opsResult{Rounds: 3}
	scrapeCtx, stopScrape := context.WithCancel(ctx)
	defer stopScrape()
	var scrapes atomic.Int64
	go scrapeEverySecond(scrapeCtx, on.metricsAddr, &scrapes)

	var offRuns, onRuns int
	var offSec, onSec float64
	for round := range res.Rounds {
		for _, v := range []struct {
			name string
			p    *inproc
		}{{"off", off}, {"on", on}} {
			progress("ops overhead: round %d, metrics and tracing %s", round+1, v.name)
			ph, err := measureRuns(ctx, v.p.runs, 16, cfg.runsWarm, cfg.runsMeasure, "")
			if err != nil {
				return nil, err
			}
			ph.Store = "sqlite"
			if v.name == "off" {
				res.Off, offRuns, offSec = append(res.Off, ph), offRuns+ph.Runs, offSec+ph.Seconds
			} else {
				res.On, onRuns, onSec = append(res.On, ph), onRuns+ph.Runs, onSec+ph.Seconds
			}
		}
	}
	res.OffRunsPerSec, res.OnRunsPerSec = float64(offRuns)/offSec, float64(onRuns)/onSec
	res.Ratio = res.OnRunsPerSec / res.OffRunsPerSec
	var ratios []float64
	var offCPU, onCPU float64
	for i := range res.Off {
		ratios = append(ratios, res.On[i].RunsPerSec/res.Off[i].RunsPerSec)
		offCPU += res.Off[i].CPUMsPerRun * float64(res.Off[i].Runs)
		onCPU += res.On[i].CPUMsPerRun * float64(res.On[i].Runs)
	}
	slices.Sort(ratios)
	res.MedianRoundRatio = ratios[len(ratios)/2]
	res.CPURatio = (onCPU / float64(onRuns)) / (offCPU / float64(offRuns))
	time.Sleep(6 * time.Second) // one batch export interval, so the spans arrive
	res.Spans, res.Scrapes = sink.spans.Load(), scrapes.Load()
	return res, nil
}

// scrapeEverySecond reads /metrics like a Prometheus would.
func scrapeEverySecond(ctx context.Context, addr string, ok *atomic.Int64) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		resp, err := http.Get(fmt.Sprintf("http://%s/metrics", addr))
		if err != nil {
			continue
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			ok.Add(1)
		}
	}
}

// printOps writes the overhead section.
func printOps(w io.Writer, o *opsResult) {
	section(w, "7. OPS OVERHEAD: Runs phase at c16 (SQLite), metrics (scraped every 1s) and tracing (OTLP, in-process receiver) on vs off, in turns")
	tw := tabs(w)
	fmt.Fprintln(tw, "round\toff runs/s\ton runs/s\ton/off\toff CPU ms/Run\ton CPU ms/Run\t")
	for i := range o.Off {
		fmt.Fprintf(tw, "%d\t%.0f\t%.0f\t%.3fx\t%.2f\t%.2f\t\n", i+1, o.Off[i].RunsPerSec, o.On[i].RunsPerSec, o.On[i].RunsPerSec/o.Off[i].RunsPerSec, o.Off[i].CPUMsPerRun, o.On[i].CPUMsPerRun)
	}
	fmt.Fprintf(tw, "all\t%.0f\t%.0f\t%.3fx\t(median round %.3fx, CPU per Run on/off %.3fx)\t%d spans exported, %d scrapes\t\n", o.OffRunsPerSec, o.OnRunsPerSec, o.Ratio, o.MedianRoundRatio, o.CPURatio, o.Spans, o.Scrapes)
	tw.Flush()
}
