package main

import (
	"fmt"
	"slices"
)

// headlines returns the numbers each phase of rep is judged by, keyed so
// that two reports' numbers match: nothing for a nil report, and nothing
// for a phase or field the report lacks.
func headlines(rep *report) []headline {
	if rep == nil {
		return nil
	}
	var out []headline
	add := func(v float64, format string, args ...any) {
		if v != 0 {
			out = append(out, headline{Key: fmt.Sprintf(format, args...), Value: v})
		}
	}
	if ep := rep.ErrorPath; ep != nil {
		for _, conc := range sortedKeys(ep.Ratios) {
			for _, name := range errorCaseOrder(ep.Ratios[conc]) {
				r := ep.Ratios[conc][name]
				add(r.ThroughputVsPlain, "errors %s c%d thr/plain", name, conc)
				add(r.P50VsPlain, "errors %s c%d p50/plain", name, conc)
			}
		}
	}
	if fl := rep.Floor; fl != nil {
		for _, conc := range sortedKeys(fl.Fraction) {
			add(fl.Fraction[conc], "floor c%d GetRun/echo", conc)
		}
	}
	if rs := rep.Runs; rs != nil {
		phases := rs.Phases
		for _, ph := range []*runsPhase{rs.Postgres, rs.PostgresNoFsync} {
			if ph != nil {
				phases = append(phases[:len(phases):len(phases)], *ph)
			}
		}
		out = append(out, runsHeadlines("runs", phases)...)
	}
	if wr := rep.Watch; wr != nil {
		for _, ph := range wr.Phases {
			add(ph.Latency.P99Ms, "watch %d watchers p99 ms", ph.Watchers)
			add(ph.Latency.P50Ms, "watch %d watchers p50 ms", ph.Watchers)
			add(ph.AppendsPerSec, "watch %d watchers appends/s", ph.Watchers)
			if ph.Floor != nil {
				add(ph.Floor.Latency.P99Ms, "watch floor %d watchers p99 ms", ph.Watchers)
			}
		}
	}
	if d := rep.Deltas; d != nil {
		for _, ph := range d.Phases {
			add(ph.Latency.P99Ms, "deltas %d watchers p99 ms", ph.Watchers)
			add(ph.Latency.P50Ms, "deltas %d watchers p50 ms", ph.Watchers)
		}
	}
	return append(out, serviceHeadlines(rep)...)
}

// runsHeadlines are a Runs-shaped phase's throughput, p50, p99 and CPU
// per Run, per store and concurrency.
func runsHeadlines(phase string, phases []runsPhase) []headline {
	var out []headline
	for _, ph := range phases {
		at := fmt.Sprintf("%s %s c%d", phase, ph.Store, ph.Concurrency)
		for _, h := range []headline{{at + " runs/s", ph.RunsPerSec}, {at + " p50 ms", ph.P50Ms}, {at + " p99 ms", ph.P99Ms}, {at + " CPU ms/Run", ph.CPUMsPerRun}} {
			if h.Value != 0 {
				out = append(out, h)
			}
		}
	}
	return out
}

// serviceHeadlines are the held, ops, console, retention and http phases'.
func serviceHeadlines(rep *report) []headline {
	var out []headline
	add := func(key string, v float64) {
		if v != 0 {
			out = append(out, headline{Key: key, Value: v})
		}
	}
	if h := rep.Held; h != nil {
		add("held RSS with all suspended MB", h.RSSMB)
		add("held resume runs/s", h.ResumePerSec)
		add("held restart until SERVING s", h.RestartSeconds)
	}
	if o := rep.Ops; o != nil {
		add("ops on/off runs/s", o.Ratio)
		add("ops on/off CPU ms/Run", o.CPURatio)
	}
	if c := rep.Console; c != nil {
		add("console server p99 ms", c.ServerP99Ms)
		add("console page + assets bytes", float64(c.TotalBytes))
	}
	if r := rep.Retention; r != nil {
		add("retention StartRun p99 during/before", r.P99Ratio)
	}
	if h := rep.HTTP; h != nil {
		for _, rpc := range []string{"GetRun", "StartRun"} {
			for _, proto := range httpProtocols {
				add(fmt.Sprintf("http %s %s calls/s", rpc, proto), h.Stats[rpc+" "+proto].PerSec)
				add(fmt.Sprintf("http %s %s/grpc", rpc, proto), h.Ratios[rpc+" "+proto])
			}
		}
	}
	return out
}

// errorCaseOrder returns the cases of one concurrency's ratios in the
// order errorCases lists them, then any others (an earlier bench's) by
// name.
func errorCaseOrder[V any](m map[string]V) []string {
	var out []string
	for _, c := range errorCases() {
		if _, ok := m[c.name]; ok {
			out = append(out, c.name)
		}
	}
	var rest []string
	for name := range m {
		found := false
		for _, c := range errorCases() {
			found = found || c.name == name
		}
		if !found {
			rest = append(rest, name)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}
