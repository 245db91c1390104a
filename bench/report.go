package main

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
)

func sortedKeys[V any](m map[int]V) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	return keys
}

// printReport writes the table: the header, then each section the run
// measured, the comparison and the judged targets.
func printReport(w io.Writer, rep *report) {
	printHeader(w, rep)
	if ep := rep.ErrorPath; ep != nil {
		printErrorPath(w, ep)
	}
	if fl := rep.Floor; fl != nil {
		printFloor(w, fl)
	}
	if rs := rep.Runs; rs != nil {
		printRuns(w, rs)
	}
	if wr := rep.Watch; wr != nil {
		printWatch(w, wr)
	}
	if d := rep.Deltas; d != nil {
		printDeltas(w, d)
	}
	if h := rep.Held; h != nil {
		printHeld(w, h)
	}
	if t := rep.Timers; t != nil {
		printTimers(w, t)
	}
	if c := rep.PhaseCompare; c != nil {
		printPhaseCompare(w, c)
	}
	if o := rep.Ops; o != nil {
		printOps(w, o)
	}
	if c := rep.Console; c != nil {
		printConsole(w, c)
	}
	if r := rep.Retention; r != nil {
		printRetention(w, r)
	}
	if s := rep.Store; s != nil {
		printStore(w, s)
	}
	if f := rep.Fairness; f != nil {
		printFairness(w, f)
	}
	if t := rep.ThreadLen; t != nil {
		printThreadLen(w, t)
	}
	if l := rep.Longlived; l != nil {
		printLonglived(w, l)
	}
	if h := rep.HTTP; h != nil {
		printHTTP(w, h)
	}
	printTargets(w, rep)
}

// printHeader says when, where, with what command and on which checkout the report was made.
func printHeader(w io.Writer, rep *report) {
	m := rep.Machine
	fmt.Fprintf(w, "\nrunsvc benchmarks  %s  took %s\n", rep.Date, (time.Duration(rep.Seconds) * time.Second).String())
	fmt.Fprintf(w, "machine: %d CPUs (%s), GOMAXPROCS %d, %d MiB, %s, linux %s\ncommand: %s\n",
		m.CPUs, m.CPUModel, m.GOMAXPROCS, m.MemoryMB, m.Go, m.Kernel, rep.Command)
	dirty := ""
	if len(rep.Modified) > 0 {
		dirty = fmt.Sprintf(" plus %d uncommitted changes outside bench/: %s", len(rep.Modified), strings.Join(rep.Modified, "; "))
	}
	fmt.Fprintf(w, "checkout: %s%s\n", rep.Commit, dirty)
}

// printErrorPath writes section 1: calls/s, latencies and ratios per case and concurrency, then each case's costs.
func printErrorPath(w io.Writer, ep *errorPathResult) {
	section(w, "1. ERROR PATH: one gRPC server; success and rich-* go through errdetails' interceptor, plain is status.Error returned straight")
	tw := tabs(w)
	fmt.Fprintln(tw, "case\tdetails\tconc\tcalls/s\tp50 ms\tp99 ms\tthr/plain\tp50/plain\tthr/success\tp50/success\t")
	for _, conc := range sortedKeys(ep.ByConcurrency) {
		for _, c := range errorCases() {
			s := ep.ByConcurrency[conc][c.name]
			r, rich := ep.Ratios[conc][c.name]
			ratios := "\t\t\t"
			if rich {
				ratios = fmt.Sprintf("%.2f\t%.2f\t%.2f\t%.2f", r.ThroughputVsPlain, r.P50VsPlain, r.ThroughputVsSuccess, r.P50VsSuccess)
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%.0f\t%s\t%s\t%s\t%s\n", c.name, dash(c.details), conc, s.PerSec, fmtMs(s.P50Ms), fmtMs(s.P99Ms), ratios, errNote(s.Errors, s.FirstErr))
		}
	}
	tw.Flush()
	fmt.Fprintln(w)
	tw = tabs(w)
	fmt.Fprintln(tw, "case\tstatus bytes\tallocs/RPC\tbytes/RPC\tMap allocs\tMap µs\tinterceptor allocs\tinterceptor µs\t")
	for _, c := range errorCases() {
		k := ep.Costs[c.name]
		fmt.Fprintf(tw, "%s\t%d\t%.0f\t%.0f\t%.0f\t%.2f\t%.0f\t%.2f\t\n", c.name, k.StatusBytes, k.AllocsPerCall, k.BytesPerCall, k.MapAllocs, k.MapNs/1e3, k.InterceptorAllocs, k.InterceptorNs/1e3)
	}
	tw.Flush()
	fmt.Fprintln(w, "  allocs/RPC and bytes/RPC: whole process (client + server) per sequential call; Map: Mapper.Map + Status.Err;")
	fmt.Fprintln(w, "  interceptor: the unary interceptor around a handler returning the error, with its trailer and log line, outside gRPC.")
	fmt.Fprintln(w, "  diagnostics, not judged: diag-retry-nolog is rich-retry through an interceptor whose logger discards; diag-retry-prebuilt")
	fmt.Fprintln(w, "  returns rich-retry's status built once at start (with its pushback trailer), bypassing the interceptor: the wire cost alone;")
	fmt.Fprintln(w, "  diag-plain-chain is plain through Observe (the log reporter) and Recover without the Mapper: what a failed RPC of the")
	fmt.Fprintln(w, "  server pays besides the table; rich-* thr/plain divided by its thr/plain is what the table's details cost.")
}

// printFloor writes section 2: the bare echo against GetRun per concurrency.
func printFloor(w io.Writer, fl *floorResult) {
	section(w, "2. FLOOR: bare grpc-go echo (no interceptors) vs runsvc GetRun (SQLite, settled Run), interleaved")
	tw := tabs(w)
	fmt.Fprintln(tw, "conc\techo calls/s\techo p50 ms\tGetRun calls/s\tGetRun p50 ms\tGetRun p99 ms\tGetRun/echo\t")
	for _, conc := range sortedKeys(fl.Fraction) {
		e, g := fl.Echo[conc], fl.GetRun[conc]
		fmt.Fprintf(tw, "%d\t%.0f\t%s\t%.0f\t%s\t%s\t%.2f\t%s\n", conc, e.PerSec, fmtMs(e.P50Ms), g.PerSec, fmtMs(g.P50Ms), fmtMs(g.P99Ms), fl.Fraction[conc], errNote(e.Errors+g.Errors, e.FirstErr+g.FirstErr))
	}
	tw.Flush()
	fmt.Fprintf(w, "  response sizes: GetRun %d bytes, echo %d bytes\n", fl.GetRunResponseBytes, fl.EchoBytes)
}

// printRuns writes section 3: each store's Runs phases, their wait events, steps and the CPU profile.
func printRuns(w io.Writer, rs *runsResult) {
	section(w, "3. RUNS: StartRun -> settled (WaitRun), scripted, 1 turn of 3 worker-tool calls over ServeTools + answer; closed loop")
	tw := tabs(w)
	fmt.Fprintln(tw, "store\tconc\truns\truns/s\trecords/s\tp50 ms\tp99 ms\tCPU ms/Run\tCPU cores\t")
	phases := slices.Clone(rs.Phases)
	for _, ph := range []*runsPhase{rs.Postgres, rs.PostgresNoFsync} {
		if ph != nil {
			phases = append(phases, *ph)
		}
	}
	for _, ph := range phases {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.0f\t%.0f\t%s\t%s\t%.2f\t%.2f\t%s\n", ph.Store, ph.Concurrency, ph.Runs, ph.RunsPerSec, ph.RecordsSec, fmtMs(ph.P50Ms), fmtMs(ph.P99Ms), ph.CPUMsPerRun, ph.CPUUtil, errNote(ph.Failed, ph.FirstErr))
	}
	tw.Flush()
	if rs.Skipped != "" {
		fmt.Fprintf(w, "  PostgreSQL: skipped: %s\n", rs.Skipped)
	}
	fmt.Fprintln(w, "  CPU: the whole process (server, load generator, tool worker) over the phase / Runs settled.")
	fmt.Fprintln(w, "  PostgreSQL fsync=off is a diagnostic (pgtest's settings), not judged.")
	for _, ph := range phases {
		if len(ph.WaitEvents) > 0 {
			var top []string
			for _, e := range ph.WaitEvents[:min(4, len(ph.WaitEvents))] {
				top = append(top, fmt.Sprintf("%s %.0f%%", e.Event, 100*e.Share))
			}
			fmt.Fprintf(w, "  %s, backends' wait events: %s\n", ph.Store, strings.Join(top, ", "))
		}
	}
	printSteps(w, phases)
	if p := rs.Profile; p != nil {
		printProfile(w, p)
	}
}

// printWatch writes section 4: watch delivery latency per number of watchers.
func printWatch(w io.Writer, wr *watchResult) {
	section(w, fmt.Sprintf("4. WATCH: record time -> receipt on WatchRun, SendMessage appending to one suspended Run at %.0f/s", wr.TargetRate))
	tw := tabs(w)
	fmt.Fprintln(tw, "watchers\tappends/s\tdelivered\tp50 ms\tp99 ms\tmax ms\tSendMessage p50 ms\tSendMessage p99 ms\t")
	for _, ph := range wr.Phases {
		fmt.Fprintf(tw, "%d\t%.0f\t%d/%d\t%s\t%s\t%s\t%s\t%s\t\n", ph.Watchers, ph.AppendsPerSec, ph.Delivered, ph.Expected, fmtMs(ph.Latency.P50Ms), fmtMs(ph.Latency.P99Ms), fmtMs(ph.Latency.MaxMs), fmtMs(ph.SendMessage.P50Ms), fmtMs(ph.SendMessage.P99Ms))
	}
	tw.Flush()
	printFanoutFloor(w, wr.Phases)
}

// printFanoutFloor writes the watch phase's floor: the same watchers and
// pace on a bare grpc-go fan-out, beside runsvc's numbers.
func printFanoutFloor(w io.Writer, phases []watchPhase) {
	fmt.Fprintln(w, "  the same watchers and pace on a bare grpc-go fan-out (no store, no interceptors, each record encoded once, one broadcast wakes every stream):")
	tw := tabs(w)
	fmt.Fprintln(tw, "watchers\tappends/s\tdelivered\tp50 ms\tp99 ms\tmax ms\tCPU µs/delivery\trunsvc CPU µs/delivery\trunsvc p99 / floor p99\t")
	for _, ph := range phases {
		f := ph.Floor
		if f == nil {
			continue
		}
		ratio := "-"
		if f.Latency.P99Ms > 0 {
			ratio = fmt.Sprintf("%.2fx", ph.Latency.P99Ms/f.Latency.P99Ms)
		}
		fmt.Fprintf(tw, "%d\t%.0f\t%d/%d\t%s\t%s\t%s\t%.1f\t%.1f\t%s\t\n", ph.Watchers, f.AppendsPerSec, f.Delivered, f.Expected, fmtMs(f.Latency.P50Ms), fmtMs(f.Latency.P99Ms), fmtMs(f.Latency.MaxMs), f.Cost.CPUMicros, ph.Cost.CPUMicros, ratio)
	}
	tw.Flush()
}

// printDeltas writes section 4b: streamed pieces from the model server
// to StreamText watchers.
func printDeltas(w io.Writer, d *deltasResult) {
	section(w, "4b. DELTAS: a piece written by an OpenAI-compatible SSE server -> its StreamText message at a watcher, one streaming Run")
	tw := tabs(w)
	fmt.Fprintln(tw, "watchers	pieces	interval ms	delivered	p50 ms	p99 ms	max ms	")
	for _, ph := range d.Phases {
		fmt.Fprintf(tw, "%d	%d	%.0f	%d/%d	%s	%s	%s	\n", ph.Watchers, ph.Pieces, ph.IntervalMs, ph.Delivered, ph.Expected, fmtMs(ph.Latency.P50Ms), fmtMs(ph.Latency.P99Ms), fmtMs(ph.Latency.MaxMs))
	}
	tw.Flush()
}

// printHeld writes section 5: memory and timings of the suspended, restarted and resumed Runs.
func printHeld(w io.Writer, h *heldResult) {
	section(w, "5. HELD STATE: a separate `runsvc serve` (SQLite), Runs suspended on a client tool, SIGKILL, restart, ResumeRun all")
	tw := tabs(w)
	fmt.Fprintf(tw, "suspended Runs\t%d\t(started and suspended in %.1fs)\n", h.Runs, h.SuspendSeconds)
	fmt.Fprintf(tw, "RSS idle, before any Run\t%.1f MB\t\n", h.IdleRSSMB)
	fmt.Fprintf(tw, "RSS with all suspended\t%.1f MB\t(peak %.1f MB)\n", h.RSSMB, h.HWMMB)
	fmt.Fprintf(tw, "restart until SERVING\t%.2fs\t(RSS then %.1f MB)\n", h.RestartSeconds, h.RestartRSSMB)
	fmt.Fprintf(tw, "resume all after restart\t%.1fs\t%.0f runs/s at concurrency %d, %d/%d completed (peak RSS %.1f MB)\n", h.ResumeSeconds, h.ResumePerSec, h.ResumeConcurrency, h.Completed, h.Runs, h.AfterResumeHWMMB)
	tw.Flush()
}

// printTargets writes section 6: every target, judged or "not measured",
// then the run's failures.
func printTargets(w io.Writer, rep *report) {
	section(w, "6. TARGETS (issue: \"18\" is a \"Must show\" of issue 18, \"earlier\" an earlier issue's target)")
	tw := tabs(w)
	fmt.Fprintln(tw, "target\tissue\tlimit\tmeasured\twhere\tresult\t")
	for _, t := range rep.Targets {
		from, measured := "earlier", "-"
		if t.Issue18 {
			from = "18"
		}
		if !t.NotMeasured {
			measured = num(t.Measured) + " " + t.Unit
		}
		fmt.Fprintf(tw, "%s\t%s\t%s %s %s\t%s\t%s\t%s\t\n", t.Name, from, t.Op, num(t.Limit), t.Unit, measured, t.Where, t.resultWord())
	}
	tw.Flush()
	fmt.Fprintln(w, "  Issue 18 also asks that the 2-replica SIGKILL test still lose nothing: TestTwoReplicasSurviveSIGKILL in internal/testing/replicas (go test), not measured here.")
	for _, f := range rep.Failures {
		fmt.Fprintf(w, "FAILED %s\n", f)
	}
}

// printSteps shows where a Run's wall time goes, phase by phase.
func printSteps(w io.Writer, phases []runsPhase) {
	if len(phases) == 0 || len(phases[0].Steps) == 0 {
		return
	}
	fmt.Fprintf(w, "\n  where a Run's wall time goes: mean ms per step, from the logs of each phase's last %d Runs (record times are stamped before the append commits)\n", tracedRuns)
	tw := tabs(w)
	fmt.Fprint(tw, "  step\t×/Run\t")
	for _, ph := range phases {
		fmt.Fprintf(tw, "%s c%d\t", storeLabel(ph.Store), ph.Concurrency)
	}
	fmt.Fprintln(tw)
	for i, s := range phases[0].Steps {
		fmt.Fprintf(tw, "  %s -> %s\t%.0f\t", s.From, s.To, s.PerRun)
		for _, ph := range phases {
			v := "?"
			if i < len(ph.Steps) && ph.Steps[i].From == s.From && ph.Steps[i].To == s.To {
				v = fmtMs(ph.Steps[i].MeanMs)
			}
			fmt.Fprintf(tw, "%s\t", v)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

// storeLabel shortens "postgres 15 fsync=off" to "pg fsync=off".
func storeLabel(store string) string {
	f := strings.Fields(store)
	if f[0] == "postgres" {
		return "pg " + f[len(f)-1]
	}
	return f[0]
}

func printProfile(w io.Writer, p *profileSummary) {
	fmt.Fprintf(w, "\n  CPU profile of SQLite c16 (%s, %.2fs of samples)\n", p.File, p.TotalSec)
	printEntries(w, "top by cumulative", p.TopCum, false)
	printEntries(w, "top by flat", p.TopFlat, true)
	tw := tabs(w)
	fmt.Fprintln(tw, "  flat by package group\tflat s\t%\t")
	for _, g := range p.Groups[:min(12, len(p.Groups))] {
		fmt.Fprintf(tw, "  %s\t%.2f\t%.1f\t\n", g.Group, g.FlatSec, g.Pct)
	}
	tw.Flush()
	printEntries(w, "runsvc functions by cumulative", p.Runsvc, false)
	printEntries(w, "selected cumulative", p.Selected, false)
}

// printEntries writes one table of profile entries: their flat time when
// flat is true, else their cumulative time.
func printEntries(w io.Writer, title string, es []profileEntry, flat bool) {
	kind := "cum"
	if flat {
		kind = "flat"
	}
	tw := tabs(w)
	fmt.Fprintf(tw, "  %s\t%s s\t%s %%\t\n", title, kind, kind)
	for _, e := range es {
		sec, pct := e.CumSec, e.CumPct
		if flat {
			sec, pct = e.FlatSec, e.FlatPct
		}
		fmt.Fprintf(tw, "  %s\t%.2f\t%.1f\t\n", shortFunc(e.Func), sec, pct)
	}
	tw.Flush()
}

func section(w io.Writer, title string) { fmt.Fprintf(w, "\n%s\n", title) }

func tabs(w io.Writer) *tabwriter.Writer {
	return tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
}

// shortFunc drops the module path from runsvc's functions.
func shortFunc(f string) string {
	return strings.TrimPrefix(f, "github.com/runsvc/runsvc/")
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func num(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	default:
		return fmt.Sprintf("%.2f", v)
	}
}

func errNote(n int, first string) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d errors, first: %s", n, first)
}
