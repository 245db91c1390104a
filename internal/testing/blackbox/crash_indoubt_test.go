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

// threeCalls is a Spec whose model calls the http tool charge three
// times, one call a turn, then answers "done".
func threeCalls(name, url, delivery string) string {
	call := `{"toolCalls": [{"name": "charge", "arguments": {"amount": 1}}]}`
	return fmt.Sprintf(`{"name": %q, "model": {"provider": "scripted", "script": {"turns": [%s, %s, %s, {"text": "done"}]}},
	 "tools": [{"name": "charge", "kind": "TOOL_KIND_HTTP", "http": {"url": %q}, "delivery": %q}], "limits": {"deadline": "1800s"}}`,
		name, call, call, call, url+"/charge", delivery)
}

func envSize(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// crashTally is what the crash test counted for one delivery.
type crashTally struct {
	calls, posts, repeats, inDoubt, worst int
}

// TestAtMostOnceUnderKills is issue 20's crash test: Runs making three
// http calls each, half at most once, while runsvc is kill -9'd again and
// again. 0 Runs are lost, no at-most-once call id is POSTed twice, every
// at-most-once call without a POST answered is closed in doubt, and every
// Run completes. RUNSVC_CRASH_RUNS and RUNSVC_CRASH_KILLS size it
// (default 60 and 10; the numbers are 1000 and 200).
func TestAtMostOnceUnderKills(t *testing.T) {
	nRuns, nKills := envSize("RUNSVC_CRASH_RUNS", 60), envSize("RUNSVC_CRASH_KILLS", 10)
	ep, url := newEndpoint(t, false)
	ep.delay = 150 * time.Millisecond
	data, addr := t.TempDir(), blackbox.FreePort(t)
	args := []string{"--data", data, "--lease-ttl", "1s", "--max-attempts", strconv.Itoa(nKills + 10)}
	p := blackbox.Serve(t, addr, args...)
	conn := p.Dial(t)
	specs, runs := runsvcv1.NewSpecServiceClient(conn), runsvcv1.NewRunServiceClient(conn)
	testserver.Publish(t, specs, threeCalls("alo3", url, "DELIVERY_AT_LEAST_ONCE"))
	testserver.Publish(t, specs, threeCalls("amo3", url, "DELIVERY_AT_MOST_ONCE"))
	ids := map[string]string{} // run id -> spec
	started := 0
	startSome := func(n int) {
		for ; n > 0 && started < nRuns; n-- {
			spec := []string{"alo3", "amo3"}[started%2]
			resp, err := runs.StartRun(testserver.Context(t), &runsvcv1.StartRunRequest{Spec: spec, Input: "go", RequestId: fmt.Sprint("crash-", started)})
			if err != nil {
				t.Fatal(err)
			}
			ids[resp.GetRun().GetRunId()] = spec
			started++
		}
	}
	// Runs start in batches between kills, so calls are in flight at each.
	batch := (nRuns + nKills - 1) / nKills
	for range nKills {
		startSome(batch)
		time.Sleep(time.Duration(300+rand.IntN(700)) * time.Millisecond)
		// Kill while a call is being answered, when the batch still has one
		// to make, so that every kill can catch a call in flight.
		ep.waitInFlight(5 * time.Second)
		p.Kill()
		p = blackbox.Serve(t, addr, args...)
		runs = runsvcv1.NewRunServiceClient(p.Dial(t))
	}
	startSome(nRuns)
	runs = runsvcv1.NewRunServiceClient(p.Dial(t))
	tally := map[string]*crashTally{"alo3": {}, "amo3": {}}
	for id, spec := range ids {
		got := waitState(t, runs, id, runsvcv1.RunState_RUN_STATE_COMPLETED)
		if got.GetAnswer() != "done" {
			t.Errorf("run %s answered %q", id, got.GetAnswer())
		}
		tl := tally[spec]
		tl.add(t, ep, runs, id, spec)
		if tl.calls%3 != 0 {
			t.Errorf("run %s: calls so far %d, not three a Run", id, tl.calls)
		}
	}
	for _, spec := range []string{"alo3", "amo3"} {
		tl := tally[spec]
		t.Logf("%s: %d runs, %d kills: %d calls, %d POSTs, %d repeats (%.1f per 1,000 calls, worst call %d POSTs), %d in doubt",
			spec, nRuns/2, nKills, tl.calls, tl.posts, tl.repeats, 1000*float64(tl.repeats)/float64(max(tl.calls, 1)), tl.worst, tl.inDoubt)
		if tl.calls != 3*nRuns/2 {
			t.Errorf("%s: %d calls recorded, want %d", spec, tl.calls, 3*nRuns/2)
		}
	}
	if tally["alo3"].repeats+tally["amo3"].inDoubt == 0 {
		t.Error("no kill caught a call in flight: the test proved nothing")
	}
}

// add counts one settled Run's calls and checks each: a result only for a
// call POSTed, in doubt only for an at-most-once one, which is never
// POSTed twice.
func (tl *crashTally) add(t *testing.T, ep *endpoint, runs runsvcv1.RunServiceClient, id, spec string) {
	t.Helper()
	for _, r := range testserver.Records(t, runs, id) {
		f := r.GetToolCallFinished()
		if f == nil {
			continue
		}
		n := ep.count(id + "/" + f.GetCallId())
		tl.calls++
		tl.posts += n
		tl.repeats += max(n-1, 0)
		tl.worst = max(tl.worst, n)
		switch {
		case f.GetInDoubt():
			tl.inDoubt++
			if spec != "amo3" || failureReason(f.GetError()) != "TOOL_IN_DOUBT" {
				t.Errorf("run %s (%s) call %s in doubt with %v", id, spec, f.GetCallId(), f.GetError())
			}
		case f.GetError() != nil:
			t.Errorf("run %s call %s failed: %v", id, f.GetCallId(), f.GetError())
		case n == 0:
			t.Errorf("run %s call %s has a result but was never POSTed", id, f.GetCallId())
		}
		if spec == "amo3" && n > 1 {
			t.Errorf("at-most-once run %s call %s POSTed %d times", id, f.GetCallId(), n)
		}
	}
}
