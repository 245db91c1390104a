package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

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

// runComparisons runs what -compare asks for: the selected phases of both
// bench builds in turns.
func runComparisons(ctx context.Context, cfg config, rep *report, fail func(string, error)) {
	trees, err := prepareTrees(cfg)
	if err != nil {
		fail("compare", err)
		return
	}
	defer trees.close()
	if ctx.Err() == nil {
		if rep.PhaseCompare, err = runPhaseCompare(ctx, cfg, trees); err != nil {
			fail("compare phases", err)
		}
	}
}

// shortRev abbreviates a full commit hash; anything else is kept.
func shortRev(rev string) string {
	if len(rev) == 40 && strings.Trim(rev, "0123456789abcdef") == "" {
		return rev[:12]
	}
	return rev
}
