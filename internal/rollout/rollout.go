// Package rollout compares the Versions an alias splits Runs between, from
// the Runs in the store (which every replica writes), not from one
// process's metrics: per Version, how many Runs, how they ended and why,
// tokens, cost and latency.
package rollout

import (
	"context"
	"slices"
	"time"

	"github.com/runsvc/runsvc/internal/alias"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/store"
)

// Runs lists Runs newest first: runs.Manager's List.
type Runs interface {
	List(ctx context.Context, tenant string, q store.RunQuery) ([]runs.Run, string, error)
}

// Other is the Version of the row counting an alias's Runs on neither of
// its current Versions.
const Other = "other"

// Limits of how many Runs a comparison reads.
const (
	DefaultRuns = 1000
	MaxRuns     = 10000
)

// Side is one Version's Runs of an alias.
type Side struct {
	// Version is the Version, or Other.
	Version string
	// Side is alias.Primary, alias.Canary, or empty for Other.
	Side alias.Side
	// Runs counts the Runs; Settled those that settled, of which
	// Completed completed and Failed did not.
	Runs, Settled, Completed, Failed int
	// Reasons counts Failed by failure reason (the state when none).
	Reasons map[string]int
	// Tokens and cost of all its Runs.
	InputTokens, OutputTokens int64
	Cost                      float64
	// LatencyP50 and LatencyP95 are settled Runs' times from start to
	// settling.
	LatencyP50, LatencyP95 time.Duration
	latencies              []time.Duration
}

// Report is a comparison.
type Report struct {
	Alias alias.Alias
	// Sides has the primary, the canary when there is one, then Other
	// when any Run took another Version.
	Sides []Side
	// RunsRead counts the Spec's Runs read, of the alias or not.
	RunsRead int
}

// Compare reads up to maxRuns of the newest Runs of a's Spec (0:
// DefaultRuns, at most MaxRuns) and compares those started on a.
func Compare(ctx context.Context, rs Runs, tenant string, a alias.Alias, maxRuns int) (Report, error) {
	if maxRuns <= 0 {
		maxRuns = DefaultRuns
	}
	maxRuns = min(maxRuns, MaxRuns)
	rep := Report{Alias: a}
	sides := map[string]*Side{a.Version: {Version: a.Version, Side: alias.Primary}}
	if a.Canary != "" {
		sides[a.Canary] = &Side{Version: a.Canary, Side: alias.Canary}
	}
	token := ""
	for rep.RunsRead < maxRuns {
		page, next, err := rs.List(ctx, tenant, store.RunQuery{Spec: a.Spec, PageSize: min(500, maxRuns-rep.RunsRead), PageToken: token})
		if err != nil {
			return Report{}, err
		}
		rep.RunsRead += len(page)
		for _, r := range page {
			if r.Alias == a.Name {
				count(sides, r)
			}
		}
		if next == "" || len(page) == 0 {
			break
		}
		token = next
	}
	for _, v := range []string{a.Version, a.Canary, Other} {
		if s, ok := sides[v]; ok && v != "" {
			s.LatencyP50, s.LatencyP95 = percentile(s.latencies, 50), percentile(s.latencies, 95)
			rep.Sides = append(rep.Sides, *s)
		}
	}
	return rep, nil
}

// count adds Run r to its Version's side.
func count(sides map[string]*Side, r runs.Run) {
	s, ok := sides[r.Version]
	if !ok {
		if s, ok = sides[Other]; !ok {
			s = &Side{Version: Other}
			sides[Other] = s
		}
	}
	s.Runs++
	s.InputTokens += r.Usage.InputTokens
	s.OutputTokens += r.Usage.OutputTokens
	s.Cost += r.Usage.Cost
	if !r.Settled() {
		return
	}
	s.Settled++
	if !r.SettleTime.IsZero() {
		s.latencies = append(s.latencies, r.SettleTime.Sub(r.CreateTime))
	}
	if r.Status == runlog.StatusCompleted {
		s.Completed++
		return
	}
	s.Failed++
	reason := string(r.Status)
	if r.Failure != nil && r.Failure.Reason != "" {
		reason = r.Failure.Reason
	}
	if s.Reasons == nil {
		s.Reasons = map[string]int{}
	}
	s.Reasons[reason]++
}

// percentile is the p-th percentile of ds (nearest rank), 0 for none.
func percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	i := (len(ds)*p + 99) / 100
	return ds[max(i-1, 0)]
}
