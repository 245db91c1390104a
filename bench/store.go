package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"google.golang.org/protobuf/types/known/structpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/pagetoken"
	"github.com/runsvc/runsvc/internal/store/postgres"
	"github.com/runsvc/runsvc/internal/store/sqlite"
)

// storeResult is the store phase (issue 30): what sleeping Runs cost,
// and lists and PublishSpec on a store holding many Runs and Versions.
type storeResult struct {
	// Sleeping are the suspended-Run measurements, the fewer first.
	Sleeping []sleepingPhase `json:"sleeping"`
	// ResumeRatio is the per-Run resume rate of the most suspended Runs
	// over that of the fewest.
	ResumeRatio float64 `json:"resumeRatio"`
	// Lists are SQLite's, then PostgreSQL's.
	Lists []listsPhase `json:"lists"`
	// Skipped says why PostgreSQL's lists were not measured.
	Skipped string `json:"skipped,omitempty"`
}

// sleepingPhase is one server holding Runs suspended on a client tool.
type sleepingPhase struct {
	Runs int `json:"runs"`
	// NextWake is the engine's idle query and Ping the health probe's,
	// each called alone on the server's store with every Run suspended.
	NextWake dist `json:"nextWake"`
	Ping     dist `json:"ping"`
	// ResumeSeconds is from the first ResumeRun until every Run
	// completed, at resumeConc.
	ResumeSeconds float64 `json:"resumeSeconds"`
	ResumePerSec  float64 `json:"resumePerSec"`
}

// listsPhase is one store holding listRuns Runs, listed over gRPC.
type listsPhase struct {
	Store string `json:"store"`
	Runs  int    `json:"runs"`
	// FillSeconds is how long CreateRun took to fill the store.
	FillSeconds float64 `json:"fillSeconds"`
	// Deep is a page at 90% of the list's depth; AbsentSpec a Spec no Run
	// has; Suspended state=SUSPENDED (a fifth of the Runs).
	Deep       dist `json:"deep"`
	AbsentSpec dist `json:"absentSpec"`
	Suspended  dist `json:"suspended"`
	// GetRun, of one Run by its id, is the floor of a call to this
	// server and store, timed in the same turns.
	GetRun dist `json:"getRun"`
	// PublishEmpty is PublishSpec on an empty store beside, PublishFull on
	// this one with listVersions stored, in turns; PublishRatio
	// PublishFull.P50 / PublishEmpty.P50.
	PublishEmpty dist    `json:"publishEmpty"`
	PublishFull  dist    `json:"publishFull"`
	Versions     int     `json:"versions"`
	PublishRatio float64 `json:"publishRatio"`
}

// The store phase's sizes: -held-runs N scales them (N = 10,000 by
// default, 1,000 with -quick).
func sleepingSizes(cfg config) []int { return []int{cfg.heldRuns / 10, cfg.heldRuns * 2} }
func listRunsCount(cfg config) int   { return cfg.heldRuns * 10 }

const (
	listVersions = 6000
	storeCalls   = 300
)

func runStore(ctx context.Context, cfg config) (*storeResult, error) {
	res := &storeResult{}
	for _, n := range sleepingSizes(cfg) {
		ph, err := measureSleeping(ctx, cfg, n)
		if err != nil {
			return res, err
		}
		res.Sleeping = append(res.Sleeping, *ph)
	}
	if first, last := res.Sleeping[0], res.Sleeping[len(res.Sleeping)-1]; first.ResumePerSec > 0 {
		res.ResumeRatio = last.ResumePerSec / first.ResumePerSec
	}
	ph, err := measureLists(ctx, cfg, "sqlite", "")
	if err != nil {
		return res, err
	}
	res.Lists = append(res.Lists, *ph)
	pg, err := startPostgres(false)
	if err != nil {
		if _, ok := err.(skipError); ok {
			res.Skipped = err.Error()
			return res, nil
		}
		return res, err
	}
	defer pg.stop()
	ph, err = measureLists(ctx, cfg, "postgres", pg.dsn())
	if err != nil {
		return res, err
	}
	res.Lists = append(res.Lists, *ph)
	return res, nil
}

// startCapturing starts an in-process runsvc on dsn (SQLite in data when
// dsn is empty and data is set) and returns it with its store.
func startCapturing(dsn, data string) (*inproc, store.Store, error) {
	var st store.Store
	p, err := startInprocWith(dsn, func(c *server.Config) {
		if data != "" {
			c.Data = data
		}
		c.WrapStore = func(s store.Store) store.Store { st = s; return s }
	})
	return p, st, err
}

// measureSleeping suspends n Runs on a client tool, times NextWake and
// Ping with all of them asleep, then resumes them all.
func measureSleeping(ctx context.Context, cfg config, n int) (*sleepingPhase, error) {
	p, st, err := startCapturing("", "")
	if err != nil {
		return nil, err
	}
	defer p.stop()
	if err := publish(ctx, p.specs, suspendSpec); err != nil {
		return nil, err
	}
	progress("store: suspending %d Runs", n)
	runIDs, callIDs, err := suspendMany(ctx, p.runs, n, cfg.resumeConc)
	if err != nil {
		return nil, err
	}
	ph := &sleepingPhase{Runs: n}
	ph.NextWake = distribution(timeCalls(storeCalls, func() error { _, _, err := st.NextWake(ctx); return err }))
	ph.Ping = distribution(timeCalls(storeCalls, func() error { return st.Ping(ctx) }))
	progress("store: resuming %d Runs", n)
	start := time.Now()
	output := structpb.NewStringValue("sunny")
	err = forEach(ctx, n, cfg.resumeConc, func(ctx context.Context, i int) error {
		if _, err := p.runs.ResumeRun(ctx, &runsvcv1.ResumeRunRequest{RunId: runIDs[i], ToolResults: []*runsvcv1.ToolResult{{CallId: callIDs[i], Output: output}}}); err != nil {
			return err
		}
		run, err := waitFor(ctx, p.runs, runIDs[i], false)
		if err == nil && run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED {
			err = fmt.Errorf("run %s settled %v", runIDs[i], run.GetState())
		}
		return err
	})
	ph.ResumeSeconds = time.Since(start).Seconds()
	ph.ResumePerSec = float64(n) / ph.ResumeSeconds
	return ph, err
}

// suspendMany starts n bench-suspend Runs, conc at a time, and returns
// their Run and call ids once each is SUSPENDED.
func suspendMany(ctx context.Context, rc runsvcv1.RunServiceClient, n, conc int) (runIDs, callIDs []string, err error) {
	runIDs, callIDs = make([]string, n), make([]string, n)
	err = forEach(ctx, n, conc, func(ctx context.Context, i int) error {
		resp, err := rc.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "bench-suspend", Input: "asleep " + strconv.Itoa(i)})
		if err != nil {
			return err
		}
		run, err := waitFor(ctx, rc, resp.GetRun().GetRunId(), true)
		if err != nil {
			return err
		}
		calls := run.GetSuspension().GetToolCalls()
		if run.GetState() != runsvcv1.RunState_RUN_STATE_SUSPENDED || len(calls) != 1 {
			return fmt.Errorf("run %s is %v with %d calls, want SUSPENDED on one", run.GetRunId(), run.GetState(), len(calls))
		}
		runIDs[i], callIDs[i] = run.GetRunId(), calls[0].GetCallId()
		return nil
	})
	return runIDs, callIDs, err
}

// timeCalls times n calls of do, one at a time.
func timeCalls(n int, do func() error) []time.Duration {
	lat := make([]time.Duration, 0, n)
	for range n {
		t := time.Now()
		if do() != nil {
			continue
		}
		lat = append(lat, time.Since(t))
	}
	return lat
}

// listBase is the fill's first creation time; Run i is created i ms
// after it, so the Run at 90% depth (newest first) is known.
var listBase = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// listRunID is the fill's Run i.
func listRunID(i int) string { return fmt.Sprintf("run_fill%07d", i) }

// measureLists fills a store (SQLite when dsn is empty) with Runs through
// its CreateRun, then times ListRuns and PublishSpec over gRPC on a
// runsvc serving it.
func measureLists(ctx context.Context, cfg config, name, dsn string) (*listsPhase, error) {
	ph := &listsPhase{Store: name, Runs: listRunsCount(cfg), Versions: listVersions}
	dir, err := os.MkdirTemp("", "runsvc-bench-lists-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	progress("store: filling %s with %d Runs", name, ph.Runs)
	start := time.Now()
	if err := fillRuns(ctx, name, dsn, dir, ph.Runs); err != nil {
		return nil, err
	}
	ph.FillSeconds = time.Since(start).Seconds()
	data := ""
	if dsn == "" {
		data = dir
	}
	p, _, err := startCapturing(dsn, data)
	if err != nil {
		return nil, err
	}
	defer p.stop()
	deep := ph.Runs - ph.Runs*9/10 // newest first: the Run 90% down
	token := pagetoken.Encode(pagetoken.RunPosition{Created: store.Nanos(listBase.Add(time.Duration(deep) * time.Millisecond)), RunID: listRunID(deep)})
	progress("store: listing %s", name)
	reqs := []*runsvcv1.ListRunsRequest{
		{PageToken: token},
		{Spec: "absent"},
		{States: []runsvcv1.RunState{runsvcv1.RunState_RUN_STATE_SUSPENDED}},
	}
	floor := &runsvcv1.GetRunRequest{RunId: listRunID(deep)}
	lat, err := interleave(storeCalls, len(reqs)+1, func(i int) error {
		if i == len(reqs) {
			_, err := p.runs.GetRun(ctx, floor)
			return err
		}
		_, err := p.runs.ListRuns(ctx, reqs[i])
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("ListRuns: %w", err)
	}
	ph.Deep, ph.AbsentSpec, ph.Suspended, ph.GetRun = distribution(lat[0]), distribution(lat[1]), distribution(lat[2]), distribution(lat[3])
	empty, err := emptyServer(ctx, dsn)
	if err != nil {
		return nil, err
	}
	defer empty.stop()
	if err := measurePublish(ctx, p, empty, ph); err != nil {
		return nil, err
	}
	return ph, nil
}

// interleave times n rounds of do(0), do(1), ..., do(k-1), so that the
// machine's drift hits each alike, and returns each one's latencies.
func interleave(n, k int, do func(i int) error) ([][]time.Duration, error) {
	lat := make([][]time.Duration, k)
	for range n {
		for i := range k {
			t := time.Now()
			if err := do(i); err != nil {
				return nil, err
			}
			lat[i] = append(lat[i], time.Since(t))
		}
	}
	return lat, nil
}

// emptyServer starts a runsvc on an empty store beside the filled one: a
// fresh SQLite file, or a fresh database in dsn's cluster.
func emptyServer(ctx context.Context, dsn string) (*inproc, error) {
	if dsn == "" {
		return startInproc("")
	}
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return nil, err
	}
	defer func() { _ = conn.Close(context.Background()) }()
	if _, err := conn.Exec(ctx, `CREATE DATABASE bench_empty`); err != nil {
		return nil, err
	}
	return startInproc(strings.Replace(dsn, "/postgres?", "/bench_empty?", 1))
}

// measurePublish stores listVersions on full, then times PublishSpec of
// new Versions on full and on empty in turns.
func measurePublish(ctx context.Context, full, empty *inproc, ph *listsPhase) error {
	n := 0
	publishOn := func(p *inproc) error {
		n++
		return publish(ctx, p.specs, fmt.Sprintf(`{"name": "bench-pub-%d", "instructions": "version %d", "model": {"provider": "scripted", "script": {"turns": [{"text": "ok"}]}}}`, n%10, n))
	}
	progress("store: publishing %d Versions on %s", listVersions, ph.Store)
	for n < listVersions {
		if err := publishOn(full); err != nil {
			return err
		}
	}
	servers := []*inproc{empty, full}
	lat, err := interleave(storeCalls, 2, func(i int) error { return publishOn(servers[i]) })
	if err != nil {
		return fmt.Errorf("PublishSpec: %w", err)
	}
	ph.PublishEmpty, ph.PublishFull = distribution(lat[0]), distribution(lat[1])
	if ph.PublishEmpty.P50Ms > 0 {
		ph.PublishRatio = ph.PublishFull.P50Ms / ph.PublishEmpty.P50Ms
	}
	return nil
}

// fillRuns creates n Runs through the store's CreateRun, 64 at a time: a
// fifth SUSPENDED (waking in a year, so that no worker takes them), the
// rest COMPLETED, of ten Specs. SQLite fills with synchronous=OFF, and
// PostgreSQL is vacuumed and analyzed after, as autovacuum would.
func fillRuns(ctx context.Context, name, dsn, dir string, n int) error {
	var st store.Store
	var err error
	if dsn == "" {
		st, err = sqlite.Open(dir, sqlite.Options{Synchronous: "OFF"})
	} else {
		st, err = postgres.Open(ctx, dsn, postgres.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	}
	if err != nil {
		return fmt.Errorf("opening %s: %w", name, err)
	}
	err = forEach(ctx, n, 64, func(ctx context.Context, i int) error {
		_, _, err := st.CreateRun(ctx, fillRun(i))
		return err
	})
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err != nil || dsn == "" {
		return err
	}
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return err
	}
	defer func() { _ = conn.Close(context.Background()) }()
	_, err = conn.Exec(ctx, `VACUUM ANALYZE`)
	return err
}

// fillRun is the fill's Run i.
func fillRun(i int) store.NewRun {
	created := listBase.Add(time.Duration(i) * time.Millisecond)
	idx := store.Index{State: "COMPLETED", Summary: []byte(`{"status":"COMPLETED"}`)}
	if i%5 == 0 {
		idx = store.Index{State: "SUSPENDED", WakeAt: created.AddDate(1, 0, 0), Summary: []byte(`{"status":"SUSPENDED"}`), Suspension: "TOOL_RESULTS"}
	}
	id := listRunID(i)
	return store.NewRun{
		Run: store.Run{
			Tenant: store.DefaultTenant, RunID: id, Spec: "bench-list-" + strconv.Itoa(i%10), Version: "v1", RootRunID: id,
			CreateTime: created, Index: idx,
		},
		Records: []store.Record{{Seq: 1, Time: created, Kind: "admitted", Body: []byte(`{}`)}},
	}
}

// printStore writes the store section.
func printStore(w io.Writer, r *storeResult) {
	section(w, "8. STORE: sleeping Runs (SQLite, in-process) and lists at scale (issue 30)")
	tw := tabs(w)
	fmt.Fprintln(tw, "suspended Runs\tNextWake p50 ms\tPing p50 ms\tresume s\tresumed/s\t")
	for _, s := range r.Sleeping {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%.1f\t%.0f\t\n", s.Runs, fmtMs(s.NextWake.P50Ms), fmtMs(s.Ping.P50Ms), s.ResumeSeconds, s.ResumePerSec)
	}
	tw.Flush()
	tw = tabs(w)
	fmt.Fprintln(tw, "store\tRuns\tfill s\tGetRun p50\t90% deep p50\tabsent spec p50\tSUSPENDED p50\tpublish empty p50\tpublish 6,000 p50\tratio\t")
	for _, l := range r.Lists {
		fmt.Fprintf(tw, "%s\t%d\t%.0f\t%s\t%s\t%s\t%s\t%s\t%s\t%.2f\t\n", l.Store, l.Runs, l.FillSeconds, fmtMs(l.GetRun.P50Ms), fmtMs(l.Deep.P50Ms), fmtMs(l.AbsentSpec.P50Ms),
			fmtMs(l.Suspended.P50Ms), fmtMs(l.PublishEmpty.P50Ms), fmtMs(l.PublishFull.P50Ms), l.PublishRatio)
	}
	if r.Skipped != "" {
		fmt.Fprintf(tw, "postgres\tskipped: %s\t\t\t\t\t\t\t\t\t\n", r.Skipped)
	}
	tw.Flush()
}

// storeTargets are issue 30's items 4 and 5.
func storeTargets(r *storeResult) []target {
	wake := goal{name: "NextWake p50 with the most suspended Runs", op: "<=", limit: 1, unit: "ms"}
	ping := goal{name: "health probe (Ping) p50 with the most suspended Runs", op: "<=", limit: 1, unit: "ms"}
	resume := goal{name: "resumed/s with the most suspended Runs / with the fewest", op: ">=", limit: 0.9, unit: "x"}
	if r == nil || len(r.Sleeping) == 0 {
		return []target{wake.unmeasured(""), ping.unmeasured(""), resume.unmeasured("")}
	}
	most := r.Sleeping[len(r.Sleeping)-1]
	where := fmt.Sprintf("%d suspended", most.Runs)
	out := []target{wake.at(most.NextWake.P50Ms, where), ping.at(most.Ping.P50Ms, where),
		resume.at(r.ResumeRatio, fmt.Sprintf("%d vs %d", most.Runs, r.Sleeping[0].Runs))}
	for _, l := range r.Lists {
		where := fmt.Sprintf("%s, %d Runs", l.Store, l.Runs)
		out = append(out,
			goal{name: "ListRuns p50 at 90% depth (" + l.Store + ")", op: "<=", limit: 2, unit: "ms"}.at(l.Deep.P50Ms, where),
			goal{name: "ListRuns p50 by an absent spec (" + l.Store + ")", op: "<=", limit: 2, unit: "ms"}.at(l.AbsentSpec.P50Ms, where),
			goal{name: "ListRuns p50 by state=SUSPENDED (" + l.Store + ")", op: "<=", limit: 2, unit: "ms"}.at(l.Suspended.P50Ms, where),
			goal{name: "PublishSpec p50 with 6,000 Versions / none (" + l.Store + ")", op: "<=", limit: 1.2, unit: "x"}.at(l.PublishRatio, where))
	}
	return out
}
