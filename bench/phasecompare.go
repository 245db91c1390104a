package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// phaseCompareResult is section 5c: the selected phases of the bench
// built at the earlier commit and of this checkout's bench, each run as a
// process of its own, in turns, Rounds times, and their headline numbers
// side by side.
type phaseCompareResult struct {
	Before string `json:"before"`
	After  string `json:"after"`
	Rounds int    `json:"rounds"`
	// Phases are the phases asked for; BeforeLacks those the earlier
	// bench does not have, whose numbers are absent on its side.
	Phases      []string `json:"phases"`
	BeforeLacks []string `json:"beforeLacks,omitempty"`
	// Flags are passed to both benches; NotPassed are flags of this run
	// that one of them lacks, passed to neither.
	Flags     []string `json:"flags,omitempty"`
	NotPassed []string `json:"notPassed,omitempty"`
	// Rows are the headline numbers, in the order of this checkout's
	// report, then those only the earlier one has.
	Rows []compareRow `json:"rows"`
	// Failures are the runs that failed, or whose phases did.
	Failures []string `json:"failures,omitempty"`
}

// compareRow is one headline number of both builds.
type compareRow struct {
	// Key names the number, e.g. "runs sqlite c16 runs/s".
	Key string `json:"key"`
	// Before and After are the numbers of each round in which that side
	// reported it; absent on a side when it never did.
	Before       []float64 `json:"before"`
	After        []float64 `json:"after"`
	BeforeAbsent bool      `json:"beforeAbsent,omitempty"`
	AfterAbsent  bool      `json:"afterAbsent,omitempty"`
	// BeforeMedian and AfterMedian are over the rounds; Ratio is
	// AfterMedian / BeforeMedian (0 when a side is absent).
	BeforeMedian float64 `json:"beforeMedian"`
	AfterMedian  float64 `json:"afterMedian"`
	Ratio        float64 `json:"ratio"`
	// RoundRatios are after/before of the rounds in which both reported it.
	RoundRatios []float64 `json:"roundRatios,omitempty"`
}

// headline is one number a phase is judged by.
type headline struct {
	Key   string
	Value float64
}

// childBench is one bench binary: what its -h says it has.
type childBench struct {
	bin, dir string
	phases   []string
	flags    map[string]bool
}

// compareOwnFlags are this run's flags never passed to a child bench.
var compareOwnFlags = []string{"compare", "compare-with", "compare-rounds", "compare-only", "json", "phases", "cpuprofile"}

// runPhaseCompare builds the bench of both trees and runs each with the
// selected phases and -json, alternately (the order swapping every
// round), cfg.compareRounds times, then sets the headline numbers side by
// side.
func runPhaseCompare(ctx context.Context, cfg config, trees *compareTrees) (*phaseCompareResult, error) {
	bins, err := trees.build(ctx, "./bench", "bench")
	if err != nil {
		return nil, err
	}
	res := &phaseCompareResult{Before: trees.label["before"], After: trees.label["after"], Rounds: cfg.compareRounds}
	for _, p := range allPhases {
		if cfg.phases[p] {
			res.Phases = append(res.Phases, p)
		}
	}
	children := map[string]*childBench{}
	for _, name := range []string{"before", "after"} {
		if children[name], err = describeBench(ctx, bins[name], trees.src[name]); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	for _, p := range res.Phases {
		if !slices.Contains(children["before"].phases, p) {
			res.BeforeLacks = append(res.BeforeLacks, p)
		}
	}
	res.Flags, res.NotPassed = childFlags(cfg.setFlags, children["before"], children["after"])
	reports := map[string][]*report{}
	for r := range cfg.compareRounds {
		order := []string{"before", "after"}
		if r%2 == 1 {
			order = []string{"after", "before"}
		}
		for _, name := range order {
			if ctx.Err() != nil {
				return res, ctx.Err()
			}
			progress("compare: round %d of %d, the bench of %s (%s)", r+1, cfg.compareRounds, name, shortRev(trees.label[name]))
			rep, err := children[name].run(ctx, res.Phases, res.Flags, filepath.Join(trees.dir, fmt.Sprintf("%s-%d", name, r)))
			if err != nil {
				res.Failures = append(res.Failures, fmt.Sprintf("round %d, %s: %v", r+1, name, err))
			}
			reports[name] = append(reports[name], rep)
		}
	}
	res.Rows = compareHeadlines(reports["before"], reports["after"])
	return res, nil
}

// describeBench reads a bench binary's -h: its phases (the default of
// -phases) and its flags.
func describeBench(ctx context.Context, bin, dir string) (*childBench, error) {
	cmd := exec.CommandContext(ctx, bin, "-h")
	cmd.Dir = dir
	out, _ := cmd.CombinedOutput() // -h exits 0 or 2, depending on the flag package's version
	phases, flags := parseBenchHelp(string(out))
	if len(flags) == 0 {
		return nil, fmt.Errorf("%s -h lists no flags:\n%s", bin, out)
	}
	return &childBench{bin: bin, dir: dir, phases: phases, flags: flags}, nil
}

// parseBenchHelp reads the usage the flag package prints: every flag's
// name, and the phases, the default of -phases.
func parseBenchHelp(help string) (phases []string, flags map[string]bool) {
	flags = map[string]bool{}
	current := ""
	for _, line := range strings.Split(help, "\n") {
		if strings.HasPrefix(line, "  -") {
			current = strings.Fields(strings.TrimPrefix(line, "  -"))[0]
			flags[current] = true
		}
		if current != "phases" {
			continue
		}
		if i := strings.Index(line, `(default "`); i >= 0 {
			list := line[i+len(`(default "`):]
			if j := strings.Index(list, `"`); j >= 0 {
				for _, p := range strings.Split(list[:j], ",") {
					if p = strings.TrimSpace(p); p != "" {
						phases = append(phases, p)
					}
				}
			}
		}
	}
	return phases, flags
}

// childFlags returns the flags of this run, as -name=value, that both
// benches have, and the names of those one of them lacks.
func childFlags(set map[string]string, benches ...*childBench) (pass, notPassed []string) {
	names := make([]string, 0, len(set))
	for name := range set {
		if !slices.Contains(compareOwnFlags, name) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		ok := true
		for _, b := range benches {
			ok = ok && b.flags[name]
		}
		if ok {
			pass = append(pass, "-"+name+"="+set[name])
		} else {
			notPassed = append(notPassed, name)
		}
	}
	return pass, notPassed
}

// run runs the bench with those of phases it has and flags, writing its
// files under prefix, and returns its report: nil when it wrote none, and
// an error when it failed, or a phase did.
func (b *childBench) run(ctx context.Context, phases, flags []string, prefix string) (*report, error) {
	var mine []string
	for _, p := range phases {
		if slices.Contains(b.phases, p) {
			mine = append(mine, p)
		}
	}
	if len(mine) == 0 {
		return nil, errors.New("it has none of the phases")
	}
	args := []string{"-phases", strings.Join(mine, ","), "-json", prefix + ".json"}
	if b.flags["cpuprofile"] {
		args = append(args, "-cpuprofile", prefix+".pprof")
	}
	args = append(args, flags...)
	out, err := os.Create(prefix + ".txt")
	if err != nil {
		return nil, err
	}
	defer out.Close()
	cmd := exec.CommandContext(ctx, b.bin, args...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = b.dir, out, os.Stderr
	// On Ctrl-C the child stops its phases (and PostgreSQL) itself.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 2 * time.Minute
	runErr := cmd.Run()
	raw, err := os.ReadFile(prefix + ".json")
	if err != nil {
		return nil, errors.Join(runErr, err)
	}
	rep, err := parseReport(raw)
	if err != nil {
		return nil, err
	}
	if len(rep.Failures) > 0 {
		return rep, fmt.Errorf("%s", strings.Join(rep.Failures, "; "))
	}
	return rep, runErr
}

// parseReport reads a bench's -json output, of any version: fields this
// bench does not know are ignored, and a field whose type changed is left
// empty (absent) rather than failing the rest.
func parseReport(raw []byte) (*report, error) {
	rep := &report{}
	err := json.Unmarshal(raw, rep)
	var typeErr *json.UnmarshalTypeError
	if err != nil && !errors.As(err, &typeErr) {
		return nil, fmt.Errorf("reading the bench's JSON: %w", err)
	}
	return rep, nil
}

// compareHeadlines sets each headline number of the before reports
// beside the after ones (a nil report is a failed run); keys in the order
// the after reports give them, then those only before has.
func compareHeadlines(before, after []*report) []compareRow {
	var keys []string
	seen := map[string]bool{}
	values := func(reps []*report) map[string][]float64 {
		out := map[string][]float64{}
		for _, rep := range reps {
			for _, h := range headlines(rep) {
				out[h.Key] = append(out[h.Key], h.Value)
			}
		}
		return out
	}
	addKeys := func(reps []*report) {
		for _, rep := range reps {
			for _, h := range headlines(rep) {
				if !seen[h.Key] {
					seen[h.Key] = true
					keys = append(keys, h.Key)
				}
			}
		}
	}
	addKeys(after)
	addKeys(before)
	bv, av := values(before), values(after)
	rows := make([]compareRow, 0, len(keys))
	for _, k := range keys {
		row := compareRow{Key: k, Before: bv[k], After: av[k], BeforeAbsent: len(bv[k]) == 0, AfterAbsent: len(av[k]) == 0}
		row.BeforeMedian, row.AfterMedian = median(row.Before), median(row.After)
		if !row.BeforeAbsent && !row.AfterAbsent {
			row.Ratio = ratio(row.AfterMedian, row.BeforeMedian)
		}
		row.RoundRatios = roundRatios(k, before, after)
		rows = append(rows, row)
	}
	return rows
}

// roundRatios returns after/before of key in each round both reported it.
func roundRatios(key string, before, after []*report) []float64 {
	var out []float64
	for r := range min(len(before), len(after)) {
		b, bok := headlineValue(before[r], key)
		a, aok := headlineValue(after[r], key)
		if bok && aok && b != 0 {
			out = append(out, a/b)
		}
	}
	return out
}

func headlineValue(rep *report, key string) (float64, bool) {
	for _, h := range headlines(rep) {
		if h.Key == key {
			return h.Value, true
		}
	}
	return 0, false
}

// median returns the median of vs, 0 for none.
func median(vs []float64) float64 {
	if len(vs) == 0 {
		return 0
	}
	s := slices.Clone(vs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// printPhaseCompare writes section 5c.
func printPhaseCompare(w io.Writer, c *phaseCompareResult) {
	section(w, fmt.Sprintf("5c. BEFORE/AFTER, the selected phases (%s): the bench of %s and of %s, each a process of its own, in turns, rounds: %d (medians)",
		strings.Join(c.Phases, ","), shortRev(c.Before), shortRev(c.After), c.Rounds))
	if len(c.Flags) > 0 {
		fmt.Fprintf(w, "  both run with %s\n", strings.Join(c.Flags, " "))
	}
	if len(c.NotPassed) > 0 {
		fmt.Fprintf(w, "  not passed (one bench lacks them): -%s\n", strings.Join(c.NotPassed, ", -"))
	}
	if len(c.BeforeLacks) > 0 {
		fmt.Fprintf(w, "  %s's bench has no phase %s: absent\n", shortRev(c.Before), strings.Join(c.BeforeLacks, ", "))
	}
	tw := tabs(w)
	fmt.Fprintln(tw, "number\tbefore\tafter\tafter/before\tper round\t")
	for _, r := range c.Rows {
		side := func(absent bool, v float64) string {
			if absent {
				return "absent"
			}
			return num(v)
		}
		rat, rounds := "absent", ""
		if !r.BeforeAbsent && !r.AfterAbsent {
			rat = fmt.Sprintf("%.3fx", r.Ratio)
		}
		for _, x := range r.RoundRatios {
			rounds += fmt.Sprintf("%.2f ", x)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t\n", r.Key, side(r.BeforeAbsent, r.BeforeMedian), side(r.AfterAbsent, r.AfterMedian), rat, strings.TrimSpace(rounds))
	}
	tw.Flush()
	for _, f := range c.Failures {
		fmt.Fprintf(w, "  failed: %s\n", f)
	}
}
