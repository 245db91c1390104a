package blackbox_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/blackbox"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// threeCalls is a Spec whose model calls tool three times,
// one call a turn, then answers "done"; decl is the tool's declaration
// after its name.
func threeCalls(name, tool, decl string) string {
	call := fmt.Sprintf(`{"toolCalls": [{"name": %q, "arguments": {"amount": 1}}]}`, tool)
	return fmt.Sprintf(`{"name": %q, "model": {"provider": "scripted", "script": {"turns": [%s, %s, %s, {"text": "done"}]}},
	 "tools": [{"name": %q, %s}], "limits": {"deadline": "1800s", "transientRetryBudget": 1000}}`,
		name, call, call, call, tool, decl)
}

// httpCharge declares charge as an http tool at url.
func httpCharge(url, delivery string) string {
	return fmt.Sprintf(`"kind": "TOOL_KIND_HTTP", "http": {"url": %q}, "delivery": %q`, url, delivery)
}

func envSize(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// crashSpec is one Spec of the crash test: its tool is an http tool at
// path of the endpoint, or a worker tool (path "") served by the worker
// of that name.
type crashSpec struct {
	name, tool, path, delivery string
}

// crashSpecs: the pair (alo3, amo3) takes alternate Runs, so half
// the http Runs are at most once; the three others, at least once, take
// one Run in two more, in turn, and measure item 4: an endpoint that
// deduplicates by Idempotency-Key (alo3d), and a worker without (alo3w)
// and with (alo3c) its result cache by call id.
var crashSpecs = []crashSpec{
	{name: "alo3", tool: "charge", path: "/charge", delivery: "DELIVERY_AT_LEAST_ONCE"},
	{name: "amo3", tool: "charge", path: "/charge", delivery: "DELIVERY_AT_MOST_ONCE"},
	{name: "alo3d", tool: "charge", path: "/dedupe", delivery: "DELIVERY_AT_LEAST_ONCE"},
	{name: "alo3w", tool: "charge_w", delivery: "DELIVERY_AT_LEAST_ONCE"},
	{name: "alo3c", tool: "charge_c", delivery: "DELIVERY_AT_LEAST_ONCE"},
}

// crashTally is what the crash test counted for one Spec: calls recorded,
// attempts sent (POSTs, or calls sent to the worker), repeats of them,
// repeats that came after the endpoint had answered, side effects made
// again (the tool's code ran twice for one call), calls in doubt, and the
// most attempts of one call.
type crashTally struct {
	calls, sent, repeats, afterAnswer, effectRepeats, inDoubt, worst int
}

// crashTools is where the crash test's tools run.
type crashTools struct {
	ep      *endpoint
	workers map[string]*testserver.Worker // by tool
}

// counts returns, for one call, the attempts sent, those answered (for
// an http tool; -1 for a worker's), those after an answer, and the tool's
// runs (side effects).
func (ct crashTools) counts(s crashSpec, key string) (sent, answered, afterAnswer, effects int) {
	if w := ct.workers[s.tool]; w != nil {
		return w.Received(key), -1, 0, w.Ran(key)
	}
	return ct.ep.counts(key)
}

// TestAtMostOnceUnderKills is issue 20's crash test: Runs making three
// tool calls each while runsvc is kill -9'd again and again. Half the
// http Runs are at most once. 0 Runs are lost, no at-most-once call id is
// POSTed twice, every at-most-once call without a POST answered is closed
// in doubt, and every Run completes. Item 4 is measured on the other
// at-least-once Runs: a worker answering from its cache by call id runs
// no call twice. RUNSVC_CRASH_RUNS (the http Runs) and RUNSVC_CRASH_KILLS
// size it (default 60 and 10; the numbers are 1000 and 200).
func TestAtMostOnceUnderKills(t *testing.T) {
	nRuns, nKills := envSize("RUNSVC_CRASH_RUNS", 60), envSize("RUNSVC_CRASH_KILLS", 10)
	ep, url := newEndpoint(t, false)
	ep.delay = 150 * time.Millisecond
	data, addr := t.TempDir(), blackbox.FreePort(t)
	args := []string{"--data", data, "--lease-ttl", "1s", "--max-attempts", strconv.Itoa(nKills + 10)}
	p := blackbox.Serve(t, addr, args...)
	conn := p.Dial(t)
	specs, runs := runsvcv1.NewSpecServiceClient(conn), runsvcv1.NewRunServiceClient(conn)
	tools := crashTools{ep: ep, workers: map[string]*testserver.Worker{}}
	charge := func(map[string]any) (any, *runsvcv1.ToolError) {
		time.Sleep(ep.delay)
		return map[string]any{"ok": true}, nil
	}
	for _, s := range crashSpecs {
		if s.path != "" {
			testserver.Publish(t, specs, threeCalls(s.name, s.tool, httpCharge(url+s.path, s.delivery)))
			continue
		}
		opts := []testserver.WorkerOption{testserver.Reconnecting()}
		if s.name == "alo3w" {
			opts = append(opts, testserver.WithoutResultCache())
		}
		wconn := testserver.Dial(t, addr) // its own, outliving every kill
		tools.workers[s.tool] = testserver.StartWorker(t, runsvcv1.NewToolServiceClient(wconn), s.name, map[string]testserver.ToolFunc{s.tool: charge}, opts...)
		testserver.Publish(t, specs, threeCalls(s.name, s.tool, fmt.Sprintf(`"kind": "TOOL_KIND_WORKER", "delivery": %q`, s.delivery)))
	}
	ids := map[string]crashSpec{} // run id -> spec
	started := 0
	start := func(s crashSpec) {
		resp, err := runs.StartRun(testserver.Context(t), &runsvcv1.StartRunRequest{Spec: s.name, Input: "go", RequestId: fmt.Sprint("crash-", s.name, "-", started)})
		if err != nil {
			t.Fatal(err)
		}
		ids[resp.GetRun().GetRunId()] = s
	}
	startSome := func(n int) {
		for ; n > 0 && started < nRuns; n-- {
			start(crashSpecs[started%2])
			if started%2 == 0 {
				start(crashSpecs[2+(started/2)%3])
			}
			started++
		}
	}
	// Runs start in batches between kills, so calls are in flight at each.
	// A batch's Runs make their three calls in about half a second, so the
	// kill comes within that, at a random point, and only once a call to
	// the endpoint is being answered: every kill catches one in flight.
	batch := (nRuns + nKills - 1) / nKills
	caught := 0
	for range nKills {
		startSome(batch)
		time.Sleep(time.Duration(rand.IntN(300)) * time.Millisecond)
		if ep.waitInFlight(5 * time.Second) {
			caught++
		}
		p.Kill()
		p = blackbox.Serve(t, addr, args...)
		runs = runsvcv1.NewRunServiceClient(p.Dial(t))
	}
	startSome(nRuns)
	t.Logf("%d of %d kills came while the endpoint was answering a call", caught, nKills)
	checkCrashRuns(t, tools, runsvcv1.NewRunServiceClient(p.Dial(t)), ids, nKills)
}

// checkCrashRuns waits for every Run to complete, checks and counts its
// calls, and logs the tallies.
func checkCrashRuns(t *testing.T, tools crashTools, runs runsvcv1.RunServiceClient, ids map[string]crashSpec, nKills int) {
	t.Helper()
	tally, nRuns := map[string]*crashTally{}, map[string]int{}
	for _, s := range crashSpecs {
		tally[s.name] = &crashTally{}
	}
	for id, s := range ids {
		got := waitState(t, runs, id, runsvcv1.RunState_RUN_STATE_COMPLETED)
		if got.GetAnswer() != "done" {
			t.Errorf("run %s answered %q", id, got.GetAnswer())
		}
		tally[s.name].add(t, tools, runs, id, s)
		nRuns[s.name]++
	}
	for _, s := range crashSpecs {
		tl := tally[s.name]
		per := func(n int) float64 { return 1000 * float64(n) / float64(max(tl.calls, 1)) }
		t.Logf("%s: %d runs, %d kills: %d calls, %d sent, %d repeats (%.1f per 1,000 calls; %d after an answer; worst call %d), %d effects repeated (%.1f per 1,000 calls), %d in doubt",
			s.name, nRuns[s.name], nKills, tl.calls, tl.sent, tl.repeats, per(tl.repeats), tl.afterAnswer, tl.worst, tl.effectRepeats, per(tl.effectRepeats), tl.inDoubt)
		if tl.calls != 3*nRuns[s.name] {
			t.Errorf("%s: %d calls recorded, want %d", s.name, tl.calls, 3*nRuns[s.name])
		}
	}
	if tally["alo3"].repeats+tally["amo3"].inDoubt == 0 {
		t.Error("no kill caught a call in flight: the test proved nothing")
	}
	if tally["alo3c"].repeats > 0 && tally["alo3c"].repeats == tally["alo3c"].effectRepeats {
		t.Error("the caching worker ran every call sent again: its cache answered none")
	}
}

// add counts one settled Run's calls and checks each: a result only for a
// call sent, in doubt only for an at-most-once one, which is never sent
// twice and is in doubt whenever the endpoint never answered it; a call
// the caching worker or the deduplicating endpoint got again is not run
// again.
func (tl *crashTally) add(t *testing.T, tools crashTools, runs runsvcv1.RunServiceClient, id string, s crashSpec) {
	t.Helper()
	for _, r := range testserver.Records(t, runs, id) {
		f := r.GetToolCallFinished()
		if f == nil {
			continue
		}
		n, answered, after, effects := tools.counts(s, id+"/"+f.GetCallId())
		tl.calls++
		tl.sent += n
		tl.repeats += max(n-1, 0)
		tl.afterAnswer += after
		tl.effectRepeats += max(effects-1, 0)
		tl.worst = max(tl.worst, n)
		switch {
		case f.GetInDoubt():
			tl.inDoubt++
			if s.name != "amo3" || failureReason(f.GetError()) != "TOOL_IN_DOUBT" {
				t.Errorf("run %s (%s) call %s in doubt with %v", id, s.name, f.GetCallId(), f.GetError())
			}
		case f.GetError() != nil:
			t.Errorf("run %s call %s failed: %v", id, f.GetCallId(), f.GetError())
		case n == 0:
			t.Errorf("run %s call %s has a result but was never sent", id, f.GetCallId())
		}
		if s.name == "amo3" && n > 1 {
			t.Errorf("at-most-once run %s call %s POSTed %d times", id, f.GetCallId(), n)
		}
		if s.name == "amo3" && answered == 0 && !f.GetInDoubt() {
			t.Errorf("at-most-once run %s call %s never answered by the endpoint, yet not in doubt: %v", id, f.GetCallId(), f.GetOutput())
		}
		if (s.name == "alo3c" || s.name == "alo3d") && effects > 1 {
			t.Errorf("run %s (%s) call %s ran %d times", id, s.name, f.GetCallId(), effects)
		}
	}
}
