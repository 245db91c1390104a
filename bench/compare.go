package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
)

// compareResult is section 5b: the Runs measurement of an earlier commit
// and of this checkout, as two `runsvc serve` processes measured in turns
// in the same run, so that the ratio is not drift.
type compareResult struct {
	// Before is the commit measured as the baseline, After this checkout.
	Before      string  `json:"before"`
	After       string  `json:"after"`
	Concurrency int     `json:"concurrency"`
	BeforeStat  stat    `json:"beforeStat"`
	AfterStat   stat    `json:"afterStat"`
	Throughput  float64 `json:"throughputRatio"`
	P50         float64 `json:"p50Ratio"`
}

// runCompare builds runsvc at cfg.before (in a temporary git worktree) and
// from this checkout (or at cfg.after), serves both on SQLite with a tool worker each, and
// measures StartRun -> settled of the Runs phase's Spec on each in turns.
func runCompare(ctx context.Context, cfg config) (*compareResult, error) {
	dir, err := os.MkdirTemp("", "runsvc-bench-compare-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	srcs := map[string]string{"before": "", "after": cfg.moduleRoot}
	for name, rev := range map[string]string{"before": cfg.before, "after": cfg.after} {
		if rev == "" {
			continue
		}
		tree := filepath.Join(dir, name)
		if out, err := exec.Command("git", "-C", cfg.moduleRoot, "worktree", "add", "--detach", tree, rev).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("checking %s out: %v\n%s", rev, err, out)
		}
		defer func() { _ = exec.Command("git", "-C", cfg.moduleRoot, "worktree", "remove", "--force", tree).Run() }()
		srcs[name] = tree
	}
	bins := map[string]string{"before": filepath.Join(dir, "runsvc-before"), "after": filepath.Join(dir, "runsvc-after")}
	for name, src := range srcs {
		progress("compare: building runsvc %s", name)
		build := exec.Command("go", "build", "-o", bins[name], "./cmd/runsvc")
		build.Dir = src
		if out, err := build.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("building %s: %v\n%s", name, err, out)
		}
	}
	var vs []variant
	for _, name := range []string{"before", "after"} {
		port, err := pgtest.FreePort()
		if err != nil {
			return nil, err
		}
		data := filepath.Join(dir, name+"-data")
		p, err := startServe(ctx, bins[name], "127.0.0.1:"+strconv.Itoa(port), data, filepath.Join(dir, name+".log"))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		defer p.stop()
		if err := publish(ctx, runsvcv1.NewSpecServiceClient(p.conn), toolSpec); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		w, err := startWorker(runsvcv1.NewToolServiceClient(p.conn), "step")
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		defer w.stop()
		runs := p.runs
		vs = append(vs, variant{name: name, do: func(ctx context.Context) error {
			_, err := startAndSettle(ctx, runs, "bench-tools")
			return err
		}})
	}
	const conc = 16
	progress("compare: Runs at concurrency %d, %s before and after in turns", conc, cfg.runsMeasure*2)
	stats := interleaved(ctx, vs, conc, cfg.runsMeasure*2, cfg.runsWarm, cfg.rounds)
	after := "this checkout"
	if cfg.after != "" {
		after = cfg.after
	}
	res := &compareResult{Before: cfg.before, After: after, Concurrency: conc, BeforeStat: stats["before"], AfterStat: stats["after"]}
	res.Throughput = ratio(res.AfterStat.PerSec, res.BeforeStat.PerSec)
	res.P50 = ratio(res.AfterStat.P50Ms, res.BeforeStat.P50Ms)
	return res, nil
}

func printCompare(w io.Writer, c *compareResult) {
	fmt.Fprintf(w, "\n5b. BEFORE/AFTER: Runs (StartRun -> settled, the Runs phase's Spec) on SQLite at concurrency %d, two `runsvc serve` processes measured in turns\n", c.Concurrency)
	fmt.Fprintf(w, "build                  runs/s  p50 ms  p99 ms\n")
	fmt.Fprintf(w, "%-22s %-7.0f %-7s %s\n", shortRev(c.Before), c.BeforeStat.PerSec, fmtMs(c.BeforeStat.P50Ms), fmtMs(c.BeforeStat.P99Ms))
	fmt.Fprintf(w, "%-22s %-7.0f %-7s %s\n", shortRev(c.After), c.AfterStat.PerSec, fmtMs(c.AfterStat.P50Ms), fmtMs(c.AfterStat.P99Ms))
	fmt.Fprintf(w, "after/before: throughput %.2fx, p50 %.2fx\n", c.Throughput, c.P50)
}

// shortRev abbreviates a full commit hash; anything else is kept.
func shortRev(rev string) string {
	if len(rev) == 40 && strings.Trim(rev, "0123456789abcdef") == "" {
		return rev[:12]
	}
	return rev
}
