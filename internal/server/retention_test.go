package server_test

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/structpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

const (
	answerSpec = `{"name": "answer", "model": {"provider": "scripted", "script": {"turns": [{"text": "the answer"}]}}}`
	// bossSpecWaits delegates to answer and waits on a client tool, so a
	// Run of it stays active while its child settles.
	bossSpecWaits = `{"name": "boss2", "delegates": ["answer"], "model": {"provider": "scripted", "script": {"turns": [
  {"toolCalls": [{"name": "lookup", "arguments": {}}]}, {"text": "done"}]}},
  "tools": [{"name": "lookup", "kind": "TOOL_KIND_CLIENT", "description": "Look things up"}]}`
)

// TestRetentionSweep: with a retention of 1s on a fake clock, one sweep
// deletes 10,000 settled Runs (made from a real Run's log) in bounded
// batches, keeps a settled child whose parent is active, logs one line
// and counts them; the next sweep after the parent settled deletes both.
// StartRun latency before and during the sweep is logged, not asserted
// (make bench has the phase with its PASS/MISS row).
func TestRetentionSweep(t *testing.T) {
	clk := clock.NewFake(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	s := testserver.Start(t, func(c *server.Config) {
		c.Clock = clk
		c.Ops.MetricsListen = "127.0.0.1:0"
		c.Retention = runs.SweepConfig{Retention: time.Second, Interval: time.Minute, Batch: 500}
	})
	s.Publish(t, answerSpec)
	s.Publish(t, bossSpecWaits)
	ctx := testserver.Context(t)
	model := s.Settled(t, s.Start(t, "answer", "q").GetRunId())
	parent := s.Start(t, "boss2", "go").GetRunId()
	s.Wait(t, parent)
	child, err := s.Delegation.Delegate(ctx, &runsvcv1.DelegateRequest{ParentRunId: parent, Spec: "answer", Task: "sub", Async: true})
	if err != nil {
		t.Fatal(err)
	}
	childID := child.GetDelegation().GetChildRunId()
	s.Settled(t, childID)
	const n = 10000
	cloneRuns(t, s.Store, model.GetRunId(), n)

	quiet := startLatencies(t, s, 200)
	// Every Run started so far settles before the clock moves: one that
	// settled later would carry a time before the sweep's cutoff.
	waitFor(t, func() bool {
		active, _, err := s.Store.ListRuns(context.Background(), store.DefaultTenant, store.RunQuery{Spec: "answer", States: []string{"QUEUED", "RUNNING"}})
		return err == nil && len(active) == 0
	})
	sweeps := strings.Count(s.Log.String(), `"msg":"retention sweep"`)
	clk.Advance(time.Minute)
	// The log is read apart from the timed calls: reading it after each
	// call would slow the calls being timed.
	var swept atomic.Bool
	go func() {
		for strings.Count(s.Log.String(), `"msg":"retention sweep"`) <= sweeps {
			time.Sleep(50 * time.Millisecond)
		}
		swept.Store(true)
	}()
	during := latenciesUntil(t, s, swept.Load)
	t.Logf("StartRun p99 before the sweep %v (%d calls), during it %v (%d calls); the sweep:\n%s", p99(quiet), len(quiet), p99(during), len(during), sweepLines(s.Log.String()))

	if leftIDs := oldSettled(t, s.Store, clk.Now().Add(-time.Second)); len(leftIDs) != 1 || leftIDs[0] != childID {
		t.Fatalf("after the sweep %d old settled Runs are left (%v), want only the active parent's child %s", len(leftIDs), leftIDs[:min(3, len(leftIDs))], childID)
	}
	if got := sweptCount(s.Log.String()); got < n+1 {
		t.Errorf("the sweep's log line says %d deleted, want at least %d:\n%s", got, n+1, sweepLines(s.Log.String()))
	}
	if got := scrapeCounter(t, s.MetricsAddr, "runsvc_retention_runs_deleted_total"); got < n+1 {
		t.Errorf("runsvc_retention_runs_deleted_total = %v, want at least %d", got, n+1)
	}

	ctx = testserver.Context(t) // the sweep may have taken most of the first one
	call := s.Wait(t, parent).GetSuspension().GetToolCalls()[0].GetCallId()
	if _, err := s.Runs.ResumeRun(ctx, &runsvcv1.ResumeRunRequest{RunId: parent, ToolResults: []*runsvcv1.ToolResult{{CallId: call, Output: structpb.NewStringValue("x")}}}); err != nil {
		t.Fatal(err)
	}
	s.Settled(t, parent)
	clk.Advance(time.Minute)
	waitFor(t, func() bool {
		_, err := s.Runs.GetRun(ctx, &runsvcv1.GetRunRequest{RunId: childID})
		_, perr := s.Runs.GetRun(ctx, &runsvcv1.GetRunRequest{RunId: parent})
		return status.Code(err) == codes.NotFound && status.Code(perr) == codes.NotFound
	})
}

// cloneRuns stores n settled Runs with the log of the Run model, as if
// they had run, from 16 writers.
func cloneRuns(t *testing.T, st store.Store, model string, n int) {
	t.Helper()
	// Setup, not what the test measures: 10,000 CreateRuns under -race
	// beside the rest of make test took over testserver.Context's minute
	// once in CI on two cores. It still ends with the test.
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	row, err := st.GetRun(ctx, store.DefaultTenant, model)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := st.ReadLog(ctx, store.DefaultTenant, model, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errc := make(chan error, 16)
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < n; i += 16 {
				r := row
				r.RunID = fmt.Sprintf("run_clone_%05d", i)
				r.RootRunID, r.RequestID, r.RequestHash = r.RunID, "", ""
				if _, _, err := st.CreateRun(ctx, store.NewRun{Run: r, Records: recs}); err != nil {
					errc <- err
					return
				}
			}
		}(w)
	}
	wg.Wait()
	close(errc)
	if err := <-errc; err != nil {
		t.Fatalf("cloning runs: %v", err)
	}
}

// startLatencies times n StartRun calls.
func startLatencies(t *testing.T, s *testserver.Server, n int) []time.Duration {
	t.Helper()
	var out []time.Duration
	for i := 0; i < n; i++ {
		out = append(out, timeStart(t, s))
	}
	return out
}

// latenciesUntil times StartRuns one after another until done, at most
// maxTimed of them, then waits for done: on a loaded machine the sweep of
// 10,000 Runs may take minutes, and starts without end would only add to
// what it shares the store with.
func latenciesUntil(t *testing.T, s *testserver.Server, done func() bool) []time.Duration {
	t.Helper()
	const maxTimed = 300
	deadline := time.Now().Add(5 * time.Minute)
	out := []time.Duration{timeStart(t, s)}
	for !done() {
		if time.Now().After(deadline) {
			t.Fatalf("no sweep within 5 minutes:\n%s", sweepLines(s.Log.String()))
		}
		if len(out) < maxTimed {
			out = append(out, timeStart(t, s))
		} else {
			time.Sleep(50 * time.Millisecond)
		}
	}
	return out
}

func timeStart(t *testing.T, s *testserver.Server) time.Duration {
	t.Helper()
	start := time.Now()
	if _, err := s.Runs.StartRun(context.Background(), &runsvcv1.StartRunRequest{Spec: "answer", Input: "timed"}); err != nil {
		t.Fatal(err)
	}
	return time.Since(start)
}

func p99(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[(len(s)*99)/100]
}

func sweepLines(log string) string {
	var out []string
	for _, l := range strings.Split(log, "\n") {
		if strings.Contains(l, "retention sweep") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 30s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// sweptCount is the largest count a sweep's log line reports.
func sweptCount(log string) int {
	most := 0
	for _, m := range regexp.MustCompile(`"msg":"retention sweep","deleted":(\d+)`).FindAllStringSubmatch(log, -1) {
		if n, _ := strconv.Atoi(m[1]); n > most {
			most = n
		}
	}
	return most
}

// oldSettled lists the settled Runs last updated before cutoff.
func oldSettled(t *testing.T, st store.Store, cutoff time.Time) []string {
	t.Helper()
	var out []string
	q := store.RunQuery{States: runs.SettledStates, PageSize: 1000}
	for {
		page, next, err := st.ListRuns(testserver.Context(t), store.DefaultTenant, q)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range page {
			if r.UpdateTime.Before(cutoff) {
				out = append(out, r.RunID)
			}
		}
		if next == "" {
			return out
		}
		q.PageToken = next
	}
}

// scrapeCounter reads one sample (a name with its labels, if any) from a
// /metrics endpoint; t fails when it is not there.
func scrapeCounter(t *testing.T, addr, name string) float64 {
	t.Helper()
	v, ok := metricValue(t, addr, name)
	if !ok {
		t.Fatalf("%s is not in /metrics", name)
	}
	return v
}

// metricValue reads one sample from a /metrics endpoint; false when the
// endpoint has none of that name and labels.
func metricValue(t *testing.T, addr, name string) (float64, bool) {
	t.Helper()
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + ` (\S+)$`).FindStringSubmatch(scrape(t, addr))
	if m == nil {
		return 0, false
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatal(err)
	}
	return v, true
}
