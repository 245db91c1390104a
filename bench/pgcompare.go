package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	"github.com/jackc/pgx/v5"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
)

// pgCompareRev is -pg-compare: the PostgreSQL counterpart of -compare.
var pgCompareRev = flag.String("pg-compare", "", "with the postgres phase: instead of its measurements, build runsvc at this commit and at the checkout (or -compare-with) and measure Runs at c16 on one PostgreSQL cluster (fsync on) in turns: the before/after ratio")

// pgProfile is -pg-cpuprofile.
var pgProfile = flag.String("pg-cpuprofile", "", "write a CPU profile of the PostgreSQL fsync=on Runs phase to this file")

// pgStatements is -pg-statements.
var pgStatements = flag.Bool("pg-statements", false, "preload pg_stat_statements in the PostgreSQL phases' clusters and print the statements a Run makes (diagnostic; costs the server some CPU)")

// pgCompare is the before/after of two builds on PostgreSQL.
type pgCompare struct {
	Before, After         string
	BeforeStat, AfterStat stat
}

// runPostgresCompare builds `runsvc serve` at before and at after (the
// checkout when empty), serves each on a database of its own in one
// PostgreSQL cluster with fsync on, and measures the Runs phase's Spec at
// concurrency 16 on each in turns, as -compare does on SQLite.
func runPostgresCompare(ctx context.Context, cfg config, before, after string) (*pgCompare, error) {
	dir, err := os.MkdirTemp("", "runsvc-bench-pgcompare-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	pg, err := startPostgres(true)
	if err != nil {
		return nil, err
	}
	defer pg.stop()
	var vs []variant
	for _, b := range []struct{ name, rev string }{{"before", before}, {"after", after}} {
		bin, cleanup, err := buildRunsvcAt(cfg.moduleRoot, b.rev, filepath.Join(dir, b.name))
		if err != nil {
			return nil, err
		}
		defer cleanup()
		dsn, err := pg.createDatabase(ctx, "bench_"+b.name)
		if err != nil {
			return nil, err
		}
		port, err := pgtest.FreePort()
		if err != nil {
			return nil, err
		}
		p, err := startServe(ctx, bin, "127.0.0.1:"+strconv.Itoa(port), filepath.Join(dir, b.name+"-data"),
			filepath.Join(dir, b.name+".log"), "--store", dsn)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", b.name, err)
		}
		defer p.stop()
		if err := publish(ctx, runsvcv1.NewSpecServiceClient(p.conn), toolSpec); err != nil {
			return nil, fmt.Errorf("%s: %w", b.name, err)
		}
		w, err := startWorker(runsvcv1.NewToolServiceClient(p.conn), "step")
		if err != nil {
			return nil, fmt.Errorf("%s: %w", b.name, err)
		}
		defer w.stop()
		runs := p.runs
		vs = append(vs, variant{name: b.name, do: func(ctx context.Context) error {
			_, err := startAndSettle(ctx, runs, "bench-tools")
			return err
		}})
	}
	progress("pg-compare: Runs at concurrency 16 on PostgreSQL %s (fsync=on), %s before and after in turns", pg.version, cfg.runsMeasure*2)
	stats := interleaved(ctx, vs, 16, cfg.runsMeasure*2, cfg.runsWarm, cfg.rounds)
	if after == "" {
		after = "this checkout"
	}
	c := &pgCompare{Before: before, After: after, BeforeStat: stats["before"], AfterStat: stats["after"]}
	progress("pg-compare: PostgreSQL fsync=on c16, in turns\n  %-22s %8s %8s %8s %s\n  %-22s %8.0f %8s %8s %d\n  %-22s %8.0f %8s %8s %d\n  after/before: throughput %.2fx, p50 %.2fx",
		"build", "runs/s", "p50 ms", "p99 ms", "errors",
		shortRev(c.Before), c.BeforeStat.PerSec, fmtMs(c.BeforeStat.P50Ms), fmtMs(c.BeforeStat.P99Ms), c.BeforeStat.Errors,
		shortRev(c.After), c.AfterStat.PerSec, fmtMs(c.AfterStat.P50Ms), fmtMs(c.AfterStat.P99Ms), c.AfterStat.Errors,
		ratio(c.AfterStat.PerSec, c.BeforeStat.PerSec), ratio(c.AfterStat.P50Ms, c.BeforeStat.P50Ms))
	return c, nil
}

// buildRunsvcAt builds cmd/runsvc at rev (in a temporary git worktree at
// tree), or from the checkout when rev is empty, into tree+".bin".
func buildRunsvcAt(root, rev, tree string) (string, func(), error) {
	src, cleanup := root, func() {}
	if rev != "" {
		if out, err := exec.Command("git", "-C", root, "worktree", "add", "--detach", tree, rev).CombinedOutput(); err != nil {
			return "", nil, fmt.Errorf("checking %s out: %v\n%s", rev, err, out)
		}
		src = tree
		cleanup = func() { _ = exec.Command("git", "-C", root, "worktree", "remove", "--force", tree).Run() }
	}
	bin := tree + ".bin"
	progress("pg-compare: building runsvc at %s", shortRev(rev))
	build := exec.Command("go", "build", "-o", bin, "./cmd/runsvc")
	build.Dir = src
	if out, err := build.CombinedOutput(); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("building %s: %v\n%s", rev, err, out)
	}
	return bin, cleanup, nil
}

// createDatabase creates a database in the cluster and returns its DSN.
func (c *pgCluster) createDatabase(ctx context.Context, name string) (string, error) {
	conn, err := pgx.Connect(ctx, c.dsn())
	if err != nil {
		return "", err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		return "", err
	}
	return fmt.Sprintf("postgres://%s@127.0.0.1:%d/%s?sslmode=disable", pgUser, c.port, name), nil
}
