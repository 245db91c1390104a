// Command bench is runsvc's benchmark suite: every phase measures
// numbers that a target of an issue judges. The cost of rich errors against
// plain ones and against success, GetRun against a bare grpc-go echo,
// scripted Runs per second with worker tools on SQLite and PostgreSQL with
// a CPU profile, WatchRun and streamed-delta delivery latency, the memory
// of suspended Runs with the time to resume them after a restart, the cost
// of metrics and tracing, the console's Run page, StartRun's p99 while the
// retention sweep deletes settled Runs, sleeping Runs and lists at scale,
// Runs on a long thread and the turns of a long Run. A targets table judges
// each target PASS or MISS, or says "not measured".
//
// Everything runs on 127.0.0.1, in one run, and stops on its own; ratios
// are measured side by side so that a shared machine's drift hits both
// sides. It prints one table, and with -json every number. `make bench`
// runs it (BENCHFLAGS passes flags); it is never part of `make test`.
//
// -compare REV also builds the bench and runsvc at REV, runs the selected
// phases of both benches in turns (-compare-rounds times each) and prints
// every headline number's after/before ratio; a phase or number REV's
// bench lacks is "absent".
//
//	go run ./bench                 # the full suite, about 4 minutes on 2 cores
//	go run ./bench -quick          # shorter phases, about 80 seconds
//	go run ./bench -phases errors,floor -json out.json
//	go run ./bench -phases errors -quick -compare main -compare-only
//	make bench BENCHFLAGS='-phases runs -compare main'
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/runsvc/runsvc/internal/server"
)

// config is what the flags choose.
type config struct {
	phases           map[string]bool
	concurrencies    []int
	measure, warm    time.Duration
	rounds           int
	runConcurrencies []int
	runsMeasure      time.Duration
	runsWarm         time.Duration
	watchers         []int
	// deltaPieces is how many pieces the deltas phase streams a Run.
	deltaPieces  int
	watchMeasure time.Duration
	appendRate   float64
	heldRuns     int
	// timerRuns Runs sleep in the timers phase, due over timerWindow
	// from timerLead after the first starts.
	timerRuns   int
	timerWindow time.Duration
	timerLead   time.Duration
	// fairBig is how many Runs the fairness phase's big tenant starts.
	fairBig       int
	retentionRuns int
	resumeConc    int
	cpuProfile    string
	moduleRoot    string
	// before is the commit the compare phase measures beside this
	// checkout (or after); empty skips the phase.
	before, after string
	// compareRounds is how many times each bench runs the selected
	// phases in the comparison; compareOnly skips this run's own
	// measurement of them.
	compareRounds int
	compareOnly   bool
	// setFlags are the flags given on the command line, by name, with
	// their values: the comparison passes them on.
	setFlags map[string]string
}

var allPhases = []string{"errors", "floor", "runs", "postgres", "watch", "deltas", "held", "timers", "ops", "console", "retention", "store", "threadlen", "longlived", "http", "fairness"}

// report is everything measured, as written by -json.
type report struct {
	// Machine, Date, Command and Seconds say where, when, how and how long.
	Machine machine `json:"machine"`
	Date    string  `json:"date"`
	Command string  `json:"command"`
	// Commit is the checkout measured; Modified lists files changed
	// outside bench/ and BENCHMARKS.md (tests aside) that the measurement
	// included.
	Commit    string           `json:"commit"`
	Modified  []string         `json:"modified,omitempty"`
	Seconds   float64          `json:"seconds"`
	ErrorPath *errorPathResult `json:"errorPath,omitempty"`
	Floor     *floorResult     `json:"floor,omitempty"`
	Runs      *runsResult      `json:"runs,omitempty"`
	Watch     *watchResult     `json:"watch,omitempty"`
	Deltas    *deltasResult    `json:"deltas,omitempty"`
	Held      *heldResult      `json:"held,omitempty"`
	Timers    *timersResult    `json:"timers,omitempty"`
	Ops       *opsResult       `json:"ops,omitempty"`
	Console   *consoleResult   `json:"console,omitempty"`
	// PhaseCompare is the selected phases of both benches, in turns.
	PhaseCompare *phaseCompareResult `json:"phaseCompare,omitempty"`
	Retention    *retentionResult    `json:"retention,omitempty"`
	Store        *storeResult        `json:"store,omitempty"`
	ThreadLen    *threadLenResult    `json:"threadLen,omitempty"`
	Longlived    *longlivedResult    `json:"longlived,omitempty"`
	HTTP         *httpResult         `json:"http,omitempty"`
	Fairness     *fairnessResult     `json:"fairness,omitempty"`
	Targets      []target            `json:"targets"`
	Failures     []string            `json:"failures,omitempty"`
}

func main() {
	os.Exit(run())
}

// parseFlags reads the command line into the benchmark's config and the
// -json path; it reports false, having said why, for an unknown phase.
func parseFlags() (cfg config, jsonOut string, ok bool) {
	quick := flag.Bool("quick", false, "shorter phases (about 80 seconds on a quiet machine): 1s per measurement, 1,000 held Runs")
	phases := flag.String("phases", strings.Join(allPhases, ","), "comma-separated phases to run: "+strings.Join(allPhases, ", "))
	jsonPath := flag.String("json", "", "write every number to this JSON file")
	measure := flag.Duration("duration", 0, "time per variant and concurrency in the error and floor phases (default 3s, 1s with -quick)")
	runsFor := flag.Duration("runs-duration", 0, "time per concurrency in the Runs phases (default 5s, 2s with -quick)")
	watchFor := flag.Duration("watch-duration", 0, "appending time per watcher count (default 3s, 1.5s with -quick)")
	held := flag.Int("held-runs", 0, "suspended Runs in the held-state phase (default 10000, 1000 with -quick)")
	applyTimerFlags := timerFlags()
	before := flag.String("compare", "", "also run the selected phases of the bench built at this earlier commit and of this checkout's, in turns, and print their before/after ratios")
	after := flag.String("compare-with", "", "with -compare: measure this commit instead of the checkout")
	rounds := flag.Int("compare-rounds", 2, "with -compare: how many times each bench runs the selected phases, the order swapping every round")
	compareOnly := flag.Bool("compare-only", false, "with -compare: skip this run's own measurement of the phases; only the comparisons")
	profile := flag.String("cpuprofile", filepath.Join(os.TempDir(), "runsvc-bench-runs-c16.pprof"), "where to write the CPU profile of the SQLite c16 Runs phase")
	flag.Parse()

	cfg = config{
		phases:           map[string]bool{},
		concurrencies:    []int{1, 16, 64},
		measure:          3 * time.Second,
		warm:             500 * time.Millisecond,
		rounds:           6,
		runConcurrencies: []int{1, 16, 128},
		runsMeasure:      5 * time.Second,
		runsWarm:         time.Second,
		watchers:         []int{1, 100, 1000},
		watchMeasure:     3 * time.Second,
		appendRate:       200,
		deltaPieces:      300,
		heldRuns:         10000,
		timerRuns:        10000,
		timerWindow:      60 * time.Second,
		timerLead:        30 * time.Second,
		fairBig:          10000,
		retentionRuns:    10000,
		resumeConc:       64,
		cpuProfile:       *profile,
		before:           *before,
		after:            *after,
		compareRounds:    max(1, *rounds),
		compareOnly:      *compareOnly && *before != "",
		setFlags:         map[string]string{},
	}
	flag.Visit(func(f *flag.Flag) { cfg.setFlags[f.Name] = f.Value.String() })
	if *quick {
		cfg.measure, cfg.warm, cfg.rounds = time.Second, 200*time.Millisecond, 4
		cfg.runsMeasure, cfg.runsWarm = 2*time.Second, 500*time.Millisecond
		cfg.watchMeasure = 1500 * time.Millisecond
		cfg.heldRuns = 1000
		cfg.timerRuns, cfg.timerWindow, cfg.timerLead = 1000, 20*time.Second, 10*time.Second
		cfg.fairBig = 1000
		cfg.retentionRuns = 2000
		cfg.deltaPieces = 100
	}
	if *measure > 0 {
		cfg.measure = *measure
	}
	if *runsFor > 0 {
		cfg.runsMeasure = *runsFor
	}
	if *watchFor > 0 {
		cfg.watchMeasure = *watchFor
	}
	if *held > 0 {
		cfg.heldRuns = *held
	}
	applyTimerFlags(&cfg)
	for _, p := range strings.Split(*phases, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if !slices.Contains(allPhases, p) {
			fmt.Fprintf(os.Stderr, "bench: unknown phase %q; phases are %s\n", p, strings.Join(allPhases, ", "))
			return cfg, "", false
		}
		cfg.phases[p] = true
	}
	return cfg, *jsonPath, true
}

// timerFlags defines the timers phase's flags and returns what applies
// them to a config after parsing.
func timerFlags() func(*config) {
	runs := flag.Int("timer-runs", 0, "sleeping Runs in the timers phase (default 10000, 1000 with -quick)")
	window := flag.Duration("timer-window", 0, "the timers phase's Runs are due evenly over this window (default 60s, 20s with -quick)")
	return func(cfg *config) {
		if *runs > 0 {
			cfg.timerRuns = *runs
		}
		if *window > 0 {
			cfg.timerWindow = *window
		}
	}
}

// run runs the phases the flags select, one after another, and returns
// the process's exit code.
func run() int {
	cfg, jsonOut, ok := parseFlags()
	if !ok {
		return 2
	}
	root, err := moduleRoot()
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench: %v\n", err)
		return 1
	}
	cfg.moduleRoot = root

	// Ctrl-C cancels the phase under way, whose servers (and PostgreSQL
	// cluster) then stop, and skips the rest.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep := &report{Machine: describeMachine(), Date: time.Now().UTC().Format(time.RFC3339), Command: commandLine()}
	rep.Commit, rep.Modified = checkout(root)
	start := time.Now()
	fail := func(phase string, err error) {
		msg := fmt.Sprintf("%s: %v", phase, err)
		progress("FAILED %s", msg)
		rep.Failures = append(rep.Failures, msg)
	}
	if !cfg.compareOnly {
		runPhases(ctx, cfg, rep, fail)
	}
	if cfg.before != "" && ctx.Err() == nil {
		runComparisons(ctx, cfg, rep, fail)
	}
	if ctx.Err() != nil {
		rep.Failures = append(rep.Failures, "interrupted")
	}
	return finish(rep, start, jsonOut)
}

// runPhases runs the phases the flags select, one after another.
func runPhases(ctx context.Context, cfg config, rep *report, fail func(string, error)) {
	var err error
	if cfg.phases["errors"] && ctx.Err() == nil {
		log, closeLog, err := benchLogger()
		if err != nil {
			fail("errors", err)
		} else {
			if rep.ErrorPath, err = runErrorPath(ctx, cfg, log); err != nil {
				fail("errors", err)
			}
			closeLog()
		}
	}
	if cfg.phases["floor"] && ctx.Err() == nil {
		if rep.Floor, err = runFloor(ctx, cfg); err != nil {
			fail("floor", err)
		}
	}
	runRunsPhases(ctx, cfg, rep, fail)
	runStreamPhases(ctx, cfg, rep, fail)
	runServicePhases(ctx, cfg, rep, fail)
	if cfg.phases["held"] && ctx.Err() == nil {
		if rep.Held, err = runHeld(ctx, cfg); err != nil {
			fail("held", err)
		}
	}
	if cfg.phases["timers"] && ctx.Err() == nil {
		if rep.Timers, err = runTimers(ctx, cfg); err != nil {
			fail("timers", err)
		}
	}
	if cfg.phases["longlived"] && ctx.Err() == nil {
		if rep.Longlived, err = runLonglived(ctx, cfg); err != nil {
			fail("longlived", err)
		}
	}
	if cfg.phases["http"] && ctx.Err() == nil {
		if rep.HTTP, err = runHTTP(ctx, cfg); err != nil {
			fail("http", err)
		}
	}
}

// runRunsPhases runs the runs and postgres phases the flags select.
func runRunsPhases(ctx context.Context, cfg config, rep *report, fail func(string, error)) {
	var err error
	if cfg.phases["runs"] && ctx.Err() == nil {
		if rep.Runs, err = runRuns(ctx, cfg); err != nil {
			fail("runs", err)
		}
	}
	if cfg.phases["postgres"] && ctx.Err() == nil {
		if rep.Runs == nil {
			rep.Runs = &runsResult{}
		}
		if err := runPostgres(ctx, cfg, rep.Runs); err != nil {
			fail("postgres", err)
		}
	}
}

// runServicePhases runs the ops, console and retention phases the flags select.
func runServicePhases(ctx context.Context, cfg config, rep *report, fail func(string, error)) {
	var err error
	if cfg.phases["ops"] && ctx.Err() == nil {
		if rep.Ops, err = runOps(ctx, cfg); err != nil {
			fail("ops", err)
		}
	}
	if cfg.phases["console"] && ctx.Err() == nil {
		if rep.Console, err = runConsole(ctx, cfg); err != nil {
			fail("console", err)
		}
	}
	if cfg.phases["retention"] && ctx.Err() == nil {
		if rep.Retention, err = runRetention(ctx, cfg); err != nil {
			fail("retention", err)
		}
	}
	if cfg.phases["store"] && ctx.Err() == nil {
		if rep.Store, err = runStore(ctx, cfg); err != nil {
			fail("store", err)
		}
	}
	if cfg.phases["threadlen"] && ctx.Err() == nil {
		if rep.ThreadLen, err = runThreadLen(ctx); err != nil {
			fail("threadlen", err)
		}
	}
	if cfg.phases["fairness"] && ctx.Err() == nil {
		if rep.Fairness, err = runFairness(ctx, cfg); err != nil {
			fail("fairness", err)
		}
	}
}

// runStreamPhases runs the watch and deltas phases the flags select.
func runStreamPhases(ctx context.Context, cfg config, rep *report, fail func(string, error)) {
	var err error
	if cfg.phases["watch"] && ctx.Err() == nil {
		if rep.Watch, err = runWatch(ctx, cfg); err != nil {
			fail("watch", err)
		}
	}
	if cfg.phases["deltas"] && ctx.Err() == nil {
		if rep.Deltas, err = runDeltas(ctx, cfg); err != nil {
			fail("deltas", err)
		}
	}
}

// finish judges the targets, prints the report and writes it to jsonOut
// when set; it returns the exit code: 1 when a phase failed or the file
// could not be written.
func finish(rep *report, start time.Time, jsonOut string) int {
	rep.Seconds = time.Since(start).Seconds()
	rep.Targets = evaluate(rep)

	printReport(os.Stdout, rep)
	if jsonOut != "" {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err == nil {
			err = os.WriteFile(jsonOut, append(b, '\n'), 0o644)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "bench: writing %s: %v\n", jsonOut, err)
			return 1
		}
	}
	if len(rep.Failures) > 0 {
		return 1
	}
	return 0
}

// benchLogger is the error-path server's log, built as serve builds it
// (server.NewLogger: JSON at info), into a temporary file removed by the
// returned func.
func benchLogger() (*slog.Logger, func(), error) {
	f, err := os.CreateTemp("", "runsvc-bench-errors-*.log")
	if err != nil {
		return nil, nil, err
	}
	log, sink, err := server.NewLogger(f, "info", "json")
	if err != nil {
		return nil, nil, err
	}
	return log, func() {
		_ = sink.Close()
		_ = f.Close()
		_ = os.Remove(f.Name())
	}, nil
}

// progress prints a line on stderr so that a long run shows where it is.
func progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench %s  %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
}

func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("run bench from inside the runsvc module (go run ./bench)")
	}
	return filepath.Dir(mod), nil
}

// checkout returns the commit of the module's git checkout and the files
// modified or added outside bench/ and BENCHMARKS.md, tests aside.
func checkout(root string) (string, []string) {
	out, err := exec.Command("git", "-C", root, "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "unknown (not a git checkout)", nil
	}
	commit := strings.TrimSpace(string(out))
	status, err := exec.Command("git", "-C", root, "status", "--porcelain", "--", ".", ":!bench", ":!BENCHMARKS.md").Output()
	if err != nil {
		return commit, nil
	}
	var modified []string
	for _, line := range strings.Split(strings.TrimSpace(string(status)), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasSuffix(line, "_test.go") {
			modified = append(modified, line)
		}
	}
	return commit, modified
}

func commandLine() string {
	args := os.Args[1:]
	if len(args) == 0 {
		return "go run ./bench"
	}
	return "go run ./bench " + strings.Join(args, " ")
}

// machine describes where the numbers were measured.
type machine struct {
	// CPUs is runtime.NumCPU; the rest come from /proc and the runtime.
	CPUs       int    `json:"cpus"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	CPUModel   string `json:"cpuModel"`
	MemoryMB   int    `json:"memoryMB"`
	Go         string `json:"go"`
	Kernel     string `json:"kernel"`
}

func describeMachine() machine {
	m := machine{CPUs: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0), Go: runtime.Version()}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, "model name") {
				if i := strings.Index(line, ":"); i >= 0 {
					m.CPUModel = strings.TrimSpace(line[i+1:])
				}
				break
			}
		}
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		var kb int
		if _, err := fmt.Sscanf(string(b), "MemTotal: %d kB", &kb); err == nil {
			m.MemoryMB = kb / 1024
		}
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = strings.TrimSpace(string(b))
	}
	return m
}
