package main

import (
	"fmt"
	"strings"
)

// target is one of the issues' targets, judged.
type target struct {
	// Name says what is judged: Measured Op Limit, in Unit.
	Name     string  `json:"name"`
	Op       string  `json:"op"`
	Limit    float64 `json:"limit"`
	Measured float64 `json:"measured"`
	Unit     string  `json:"unit"`
	// Where says which measurement gave the number.
	Where  string `json:"where"`
	Pass   bool   `json:"pass"`
	Margin string `json:"margin"`
	// Issue18 marks the "Must show" rows of issue 18.
	Issue18 bool `json:"issue18,omitempty"`
	// NotMeasured is set when the run did not measure the target (its
	// phase was not selected, failed or was skipped); it is then neither
	// a PASS nor a MISS.
	NotMeasured bool `json:"notMeasured,omitempty"`
}

func judge(t target) target {
	switch t.Op {
	case ">=":
		t.Pass = t.Measured >= t.Limit
	case "<=":
		t.Pass = t.Measured <= t.Limit
	case "<":
		t.Pass = t.Measured < t.Limit
	}
	if t.Limit != 0 {
		rel := (t.Measured/t.Limit - 1) * 100
		word := "above"
		if rel < 0 {
			word, rel = "below", -rel
		}
		t.Margin = fmt.Sprintf("%.0f%% %s the limit", rel, word)
	}
	return t
}

// goal is a target before it is measured.
type goal struct {
	name    string
	op      string
	limit   float64
	unit    string
	issue18 bool
}

// at judges the goal against a measurement.
func (g goal) at(measured float64, where string) target {
	return judge(target{Name: g.name, Op: g.op, Limit: g.limit, Measured: measured, Unit: g.unit, Where: where, Issue18: g.issue18})
}

// unmeasured is the goal's row when the run has no number for it; why
// goes in the where column.
func (g goal) unmeasured(why string) target {
	return target{Name: g.name, Op: g.op, Limit: g.limit, Unit: g.unit, Where: why, Issue18: g.issue18, NotMeasured: true}
}

// resultWord is what the targets table prints in the result column.
func (t target) resultWord() string {
	switch {
	case t.NotMeasured:
		return "not measured"
	case t.Pass:
		return "PASS (" + t.Margin + ")"
	default:
		return "MISS (" + t.Margin + ")"
	}
}

// evaluate judges every target, those the run did not measure as "not
// measured".
func evaluate(rep *report) []target {
	var out []target
	out = append(out, errorTargets(rep.ErrorPath)...)
	out = append(out, floorTargets(rep.Floor)...)
	out = append(out, runsTargets(rep.Runs)...)
	if o := rep.Ops; o != nil {
		out = append(out, opsGoal.at(o.Ratio, "c16, in turns"))
	} else {
		out = append(out, opsGoal.unmeasured(""))
	}
	out = append(out, watchTargets(rep.Watch)...)
	if c := rep.Console; c != nil {
		out = append(out, consoleTargets(c)...)
	} else {
		for _, t := range consoleTargets(&consoleResult{}) {
			t.Measured, t.Pass, t.Margin, t.Where, t.NotMeasured = 0, false, "", "", true
			out = append(out, t)
		}
	}
	out = append(out, deltasTarget(rep.Deltas))
	out = append(out, retentionTarget(rep.Retention))
	out = append(out, storeTargets(rep.Store)...)
	out = append(out, threadLenTarget(rep.ThreadLen))
	out = append(out, fairnessTarget(rep.Fairness))
	out = append(out, longlivedTargets(rep.Longlived)...)
	out = append(out, httpTargets(rep.HTTP)...)
	if h := rep.Held; h != nil && h.RSSMB > 0 {
		out = append(out, goal{name: fmt.Sprintf("RSS with %d suspended Runs", h.Runs), op: "<", limit: 200, unit: "MB"}.at(h.RSSMB, "runsvc serve, VmRSS"))
	} else {
		out = append(out, goal{name: "RSS with the suspended Runs of the held phase", op: "<", limit: 200, unit: "MB"}.unmeasured(""))
	}
	return append(out, timersTargets(rep.Timers)...)
}

// timersTargets are issue 34's: the sleeping Runs' RSS and how late the
// restarted server wakes them (p99 of the start_at timers due after it
// served).
func timersTargets(t *timersResult) []target {
	rss := goal{name: "RSS with the timers phase's sleeping Runs", op: "<", limit: 200, unit: "MB"}
	late := goal{name: "timer wake lateness p99 after kill -9 and restart", op: "<=", limit: 1000, unit: "ms"}
	if t == nil || t.StartAtLateness.N == 0 {
		return []target{rss.unmeasured(""), late.unmeasured("")}
	}
	rss.name = fmt.Sprintf("RSS with %d Runs asleep on timers", t.Runs)
	where := fmt.Sprintf("%d Runs due over %.0fs", t.StartAtLateness.N, t.WindowSeconds)
	return []target{rss.at(t.RSSMB, "runsvc serve, VmRSS"), late.at(t.StartAtLateness.P99Ms, where)}
}

var opsGoal = goal{name: "Runs/s at c16 with metrics and tracing on / off", op: ">=", limit: 0.90, unit: "x"}

// errorConcurrencies are the concurrencies issue 18 judges the rich
// errors at.
var errorConcurrencies = []int{1, 16, 64}

// errorTargets are each rich case's worst ratios to plain over the
// concurrencies, then issue 18's: the worst case and concurrency of all,
// judged only when every rich case was measured at each of
// errorConcurrencies.
func errorTargets(ep *errorPathResult) []target {
	var out []target
	allThr := goal{name: "every rich case / plain throughput at c1, c16, c64 (the worst)", op: ">=", limit: 0.85, unit: "x", issue18: true}
	allP50 := goal{name: "every rich case / plain p50 at c1, c16, c64 (the worst)", op: "<=", limit: 1.15, unit: "x", issue18: true}
	worstThr, worstP50 := target{Measured: 1e9}, target{Measured: -1}
	var missing []string
	for _, c := range errorCases() {
		if !c.rich || c.diag {
			continue
		}
		thrGoal := goal{name: c.name + " / plain throughput (worst concurrency)", op: ">=", limit: 0.85, unit: "x", issue18: true}
		p50Goal := goal{name: c.name + " / plain p50 (worst concurrency)", op: "<=", limit: 1.15, unit: "x", issue18: true}
		if ep == nil {
			out = append(out, thrGoal.unmeasured(""), p50Goal.unmeasured(""))
			continue
		}
		caseThr, caseP50 := target{Measured: 1e9}, target{Measured: -1}
		for _, conc := range sortedKeys(ep.Ratios) {
			r, ok := ep.Ratios[conc][c.name]
			if !ok {
				continue
			}
			where := fmt.Sprintf("c%d", conc)
			if r.ThroughputVsPlain < caseThr.Measured {
				caseThr = target{Measured: r.ThroughputVsPlain, Where: where}
			}
			if r.P50VsPlain > caseP50.Measured {
				caseP50 = target{Measured: r.P50VsPlain, Where: where}
			}
		}
		for _, conc := range errorConcurrencies {
			if _, ok := ep.Ratios[conc][c.name]; !ok {
				missing = append(missing, fmt.Sprintf("%s c%d", c.name, conc))
			}
		}
		if caseP50.Measured < 0 {
			out = append(out, thrGoal.unmeasured(""), p50Goal.unmeasured(""))
			continue
		}
		out = append(out, thrGoal.at(caseThr.Measured, caseThr.Where), p50Goal.at(caseP50.Measured, caseP50.Where))
		if caseThr.Measured < worstThr.Measured {
			worstThr = target{Measured: caseThr.Measured, Where: c.name + " " + caseThr.Where}
		}
		if caseP50.Measured > worstP50.Measured {
			worstP50 = target{Measured: caseP50.Measured, Where: c.name + " " + caseP50.Where}
		}
	}
	if ep == nil || len(missing) > 0 {
		why := ""
		if len(missing) > 0 {
			why = "no " + strings.Join(missing, ", ")
		}
		return append(out, allThr.unmeasured(why), allP50.unmeasured(why))
	}
	return append(out, allThr.at(worstThr.Measured, worstThr.Where), allP50.at(worstP50.Measured, worstP50.Where))
}

// floorTargets is GetRun's worst fraction of the bare echo.
func floorTargets(fl *floorResult) []target {
	g := goal{name: "GetRun / echo throughput (worst concurrency)", op: ">=", limit: 0.60, unit: "x"}
	if fl == nil || len(fl.Fraction) == 0 {
		return []target{g.unmeasured("")}
	}
	worst := target{Measured: 1e9}
	for _, conc := range sortedKeys(fl.Fraction) {
		if f := fl.Fraction[conc]; f < worst.Measured {
			worst = target{Measured: f, Where: fmt.Sprintf("c%d", conc)}
		}
	}
	return []target{g.at(worst.Measured, worst.Where)}
}

// runsTargets are the one-turn Run's on SQLite (earlier issues' limits,
// then issue 18's) and on PostgreSQL with fsync on.
func runsTargets(rs *runsResult) []target {
	p50Old := goal{name: "StartRun->settled p50 at c1 (SQLite)", op: "<=", limit: 10, unit: "ms"}
	p50New := goal{name: "StartRun->settled p50 at c1 (SQLite, one-turn Run)", op: "<=", limit: 2, unit: "ms", issue18: true}
	thrOld := goal{name: "Runs/s at c16 (SQLite, synchronous=FULL)", op: ">=", limit: 400, unit: "runs/s"}
	thrNew := goal{name: "Runs/s at c16 (SQLite, synchronous=FULL)", op: ">=", limit: 1500, unit: "runs/s", issue18: true}
	pgOld := goal{name: "Runs/s at c16 (PostgreSQL, fsync=on)", op: ">=", limit: 400, unit: "runs/s"}
	pgNew := goal{name: "Runs/s at c16 (PostgreSQL, fsync=on)", op: ">=", limit: 800, unit: "runs/s", issue18: true}
	var c1, c16 *runsPhase
	var pg *runsPhase
	pgWhy := ""
	if rs != nil {
		for i := range rs.Phases {
			switch rs.Phases[i].Concurrency {
			case 1:
				c1 = &rs.Phases[i]
			case 16:
				c16 = &rs.Phases[i]
			}
		}
		pg = rs.Postgres
		if rs.Skipped != "" {
			pgWhy = "skipped"
		}
	}
	var out []target
	if c1 != nil {
		out = append(out, p50Old.at(c1.P50Ms, "c1"), p50New.at(c1.P50Ms, "c1"))
	} else {
		out = append(out, p50Old.unmeasured(""), p50New.unmeasured(""))
	}
	if c16 != nil {
		out = append(out, thrOld.at(c16.RunsPerSec, "c16"), thrNew.at(c16.RunsPerSec, "c16"))
	} else {
		out = append(out, thrOld.unmeasured(""), thrNew.unmeasured(""))
	}
	if pg != nil {
		return append(out, pgOld.at(pg.RunsPerSec, "c16"), pgNew.at(pg.RunsPerSec, "c16"))
	}
	return append(out, pgOld.unmeasured(pgWhy), pgNew.unmeasured(pgWhy))
}

// watchLoadShare is the share of the asked append rate a watch phase
// must reach for its p99 to be judged at that load: the appender is one
// closed-loop client, so a slow SendMessage lowers the rate.
const watchLoadShare = 0.9

// watchTargets are the delivery p99 with 100 and 1,000 watchers, each
// with a row saying whether the appends reached the asked rate.
func watchTargets(wr *watchResult) []target {
	var out []target
	for _, c := range []struct {
		watchers int
		limit    float64
	}{{100, 5}, {1000, 10}} {
		p99 := goal{name: fmt.Sprintf("watch delivery p99 with %d watchers", c.watchers), op: "<=", limit: c.limit, unit: "ms", issue18: true}
		rate := goal{name: fmt.Sprintf("appends/s reached with %d watchers (the load of the p99 row: 200/s)", c.watchers), op: ">=", limit: 200 * watchLoadShare, unit: "/s", issue18: true}
		var ph *watchPhase
		if wr != nil {
			for i := range wr.Phases {
				if wr.Phases[i].Watchers == c.watchers {
					ph = &wr.Phases[i]
				}
			}
			rate.limit = wr.TargetRate * watchLoadShare
			rate.name = fmt.Sprintf("appends/s reached with %d watchers (the load of the p99 row: %.0f/s)", c.watchers, wr.TargetRate)
		}
		if ph == nil {
			out = append(out, p99.unmeasured(""), rate.unmeasured(""))
			continue
		}
		where := fmt.Sprintf("%d watchers", c.watchers)
		out = append(out, p99.at(ph.Latency.P99Ms, where), rate.at(ph.AppendsPerSec, where))
	}
	return out
}

// deltasTarget is the streamed delta's p99 with 100 watchers of one Run.
func deltasTarget(d *deltasResult) target {
	g := goal{name: "provider delta -> StreamText receipt p99 with 100 watchers", op: "<=", limit: 2, unit: "ms", issue18: true}
	if d != nil {
		for _, ph := range d.Phases {
			if ph.Watchers == 100 {
				return g.at(ph.Latency.P99Ms, "100 watchers, one Run")
			}
		}
	}
	return g.unmeasured("")
}

// retentionTarget is StartRun's p99 during the retention sweep.
func retentionTarget(r *retentionResult) target {
	if r != nil && r.P99Ratio > 0 {
		return goal{name: fmt.Sprintf("StartRun p99 during the sweep of %d Runs / before", r.Runs), op: "<=", limit: 1.5, unit: "x"}.at(r.P99Ratio, "same server, 4 clients")
	}
	return goal{name: "StartRun p99 during the retention sweep / before", op: "<=", limit: 1.5, unit: "x"}.unmeasured("")
}
