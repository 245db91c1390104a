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

// compareTrees are the source trees of the two builds compared: before
// is a temporary git worktree at cfg.before, after this checkout or a
// worktree at cfg.after.
type compareTrees struct {
	dir string
	// src holds the tree of "before" and of "after"; label their names
	// as reported.
	src, label map[string]string
	cleanup    []func()
}

// prepareTrees checks cfg.before (and cfg.after when set) out into
// worktrees under a fresh temporary directory; close removes them.
func prepareTrees(cfg config) (*compareTrees, error) {
	dir, err := os.MkdirTemp("", "runsvc-bench-compare-")
	if err != nil {
		return nil, err
	}
	t := &compareTrees{dir: dir, src: map[string]string{"after": cfg.moduleRoot},
		label: map[string]string{"before": cfg.before, "after": "this checkout"}}
	t.cleanup = append(t.cleanup, func() { _ = os.RemoveAll(dir) })
	for _, name := range []string{"before", "after"} {
		rev := map[string]string{"before": cfg.before, "after": cfg.after}[name]
		if rev == "" {
			continue
		}
		tree := filepath.Join(dir, name)
		if out, err := exec.Command("git", "-C", cfg.moduleRoot, "worktree", "add", "--detach", tree, rev).CombinedOutput(); err != nil {
			t.close()
			return nil, fmt.Errorf("checking %s out: %v\n%s", rev, err, out)
		}
		t.cleanup = append(t.cleanup, func() { _ = exec.Command("git", "-C", cfg.moduleRoot, "worktree", "remove", "--force", tree).Run() })
		t.src[name], t.label[name] = tree, rev
	}
	return t, nil
}

// close removes the worktrees and the directory, last made first.
func (t *compareTrees) close() {
	for i := len(t.cleanup) - 1; i >= 0; i-- {
		t.cleanup[i]()
	}
}

// build builds pkg (e.g. "./cmd/runsvc") of both trees into the
// directory, as prefix-before and prefix-after, and returns the paths.
func (t *compareTrees) build(ctx context.Context, pkg, prefix string) (map[string]string, error) {
	bins := map[string]string{}
	for _, name := range []string{"before", "after"} {
		progress("compare: building %s %s (%s)", pkg, name, shortRev(t.label[name]))
		bins[name] = filepath.Join(t.dir, prefix+"-"+name)
		build := exec.CommandContext(ctx, "go", "build", "-o", bins[name], pkg)
		build.Dir = t.src[name]
		if out, err := build.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("building %s of %s: %v\n%s", pkg, name, err, out)
		}
	}
	return bins, nil
}

// runComparisons runs what -compare asks for: the in-turns comparison of
// two `runsvc serve` builds when the runs phase is selected, then the
// selected phases of both bench builds in turns.
func runComparisons(ctx context.Context, cfg config, rep *report, fail func(string, error)) {
	trees, err := prepareTrees(cfg)
	if err != nil {
		fail("compare", err)
		return
	}
	defer trees.close()
	if cfg.phases["runs"] && ctx.Err() == nil {
		if rep.Compare, err = runCompare(ctx, cfg, trees); err != nil {
			fail("compare", err)
		}
	}
	if ctx.Err() == nil {
		if rep.PhaseCompare, err = runPhaseCompare(ctx, cfg, trees); err != nil {
			fail("compare phases", err)
		}
	}
}

// runCompare serves the runsvc of both trees on SQLite with a tool worker
// each, and measures StartRun -> settled of the Runs phase's Spec on each
// in turns.
func runCompare(ctx context.Context, cfg config, trees *compareTrees) (*compareResult, error) {
	bins, err := trees.build(ctx, "./cmd/runsvc", "runsvc")
	if err != nil {
		return nil, err
	}
	dir := trees.dir
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
	res := &compareResult{Before: trees.label["before"], After: trees.label["after"], Concurrency: conc, BeforeStat: stats["before"], AfterStat: stats["after"]}
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
