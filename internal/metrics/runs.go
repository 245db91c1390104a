package metrics

import (
	"context"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/logwriter"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/store"
)

// RunCounter counts Runs by state and suspension: the store.
type RunCounter interface {
	CountRuns(ctx context.Context, states []string) ([]store.RunCount, error)
}

// unsettled are the states runsvc_runs_active counts.
var unsettled = []string{string(runlog.StatusQueued), string(runlog.StatusRunning), string(runlog.StatusSuspended)}

// suspensionKinds are the suspensions a SUSPENDED Run is always reported
// with, at zero when none waits so, so a query finds 0 rather than nothing.
var suspensionKinds = []string{
	string(runlog.ReasonToolResults), string(runlog.ReasonApproval), string(runlog.ReasonQuestion),
	string(runlog.ReasonChildren), string(runlog.ReasonTimer), logwriter.InDoubt,
}

// DefaultRunCountTTL is how long one count of the store's Runs answers
// scrapes before the store is asked again.
const DefaultRunCountTTL = 5 * time.Second

// runCollector reports runsvc_runs_active from the store when scraped. It
// reads the store rather than counting this process's events because the
// count is of the whole store: Runs another replica started, suspended or
// settled, and those from before this process started, count the same.
// One count answers every scrape for ttl, so scrapes never hammer the
// store; while the store cannot be read the gauge is absent.
type runCollector struct {
	desc    *prometheus.Desc
	counter RunCounter
	clock   clock.Clock
	ttl     time.Duration

	mu     sync.Mutex
	at     time.Time
	counts []store.RunCount
	err    error
}

// CountRuns reports runsvc_runs_active, counted by counter at most once
// per ttl (DefaultRunCountTTL when zero) of clk.
func (m *Metrics) CountRuns(counter RunCounter, clk clock.Clock, ttl time.Duration) {
	if ttl <= 0 {
		ttl = DefaultRunCountTTL
	}
	m.reg.MustRegister(&runCollector{
		desc: prometheus.NewDesc("runsvc_runs_active",
			"Runs not yet settled in the whole store (every replica reports the same: aggregate with max, not sum), by state "+
				"(QUEUED, RUNNING, SUSPENDED) and suspension (what a SUSPENDED Run waits for: TOOL_RESULTS, APPROVAL, QUESTION, "+
				"CHILDREN, TIMER (asleep: the sleep or wait_until tool, or start_at), IN_DOUBT; empty otherwise). Counted at most every few seconds; absent while the store cannot be read.",
			[]string{"state", "suspension"}, nil),
		counter: counter, clock: clk, ttl: ttl,
	})
}

// Describe implements prometheus.Collector.
func (c *runCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

// Collect implements prometheus.Collector.
func (c *runCollector) Collect(ch chan<- prometheus.Metric) {
	counts, err := c.read()
	if err != nil {
		return
	}
	values := map[[2]string]float64{}
	for _, state := range []runlog.Status{runlog.StatusQueued, runlog.StatusRunning} {
		values[[2]string{string(state), ""}] = 0
	}
	for _, kind := range suspensionKinds {
		values[[2]string{string(runlog.StatusSuspended), kind}] = 0
	}
	for _, n := range counts {
		values[[2]string{n.State, n.Suspension}] += float64(n.Count)
	}
	for labels, v := range values {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, v, labels[0], labels[1])
	}
}

// read returns the last count while it is younger than ttl, or counts
// again; concurrent scrapes wait for one count.
func (c *runCollector) read() ([]store.RunCount, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.clock.Now()
	if !c.at.IsZero() && now.Sub(c.at) < c.ttl {
		return c.counts, c.err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	c.counts, c.err = c.counter.CountRuns(ctx, unsettled)
	c.at = now
	return c.counts, c.err
}
