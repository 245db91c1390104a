package blackbox_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/blackbox"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

const timerSpecs = `[
 {"name": "napper", "model": {"provider": "scripted", "script": {"turns": [{"toolCalls": [{"name": "sleep", "arguments": {"duration": "4s"}}]}, {"text": "slept"}]}},
  "tools": [{"name": "sleep", "kind": "TOOL_KIND_BUILTIN"}]},
 {"name": "later", "model": {"provider": "scripted", "script": {"turns": [{"text": "started"}]}}}
]`

// TestTimersSurviveKill: Runs asleep on the sleep tool and on start_at,
// counted by runs_active{suspension="TIMER"}, survive kill -9: the
// restarted server wakes every one, never before its time, and each
// completes.
func TestTimersSurviveKill(t *testing.T) {
	data, addr, metrics := t.TempDir(), blackbox.FreePort(t), blackbox.FreePort(t)
	args := []string{"--data", data, "--metrics-listen", metrics}
	p := blackbox.Serve(t, addr, args...)
	conn := p.Dial(t)
	specs, runs := runsvcv1.NewSpecServiceClient(conn), runsvcv1.NewRunServiceClient(conn)
	ctx := testserver.Context(t)
	for _, raw := range splitJSONArray(t, timerSpecs) {
		testserver.Publish(t, specs, raw)
	}
	var ids []string
	for i := range 10 {
		req := &runsvcv1.StartRunRequest{Spec: "napper", Input: "nap"}
		if i%2 == 1 {
			req = &runsvcv1.StartRunRequest{Spec: "later", Input: "later", StartAt: timestamppb.New(time.Now().Add(4 * time.Second))}
		}
		resp, err := runs.StartRun(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, resp.GetRun().GetRunId())
	}
	for _, id := range ids {
		if got := waitState(t, runs, id, runsvcv1.RunState_RUN_STATE_SUSPENDED); got.GetSuspension().GetWakeTime() == nil {
			t.Fatalf("run %s suspended without a wake time: %v", id, got.GetSuspension())
		}
	}
	if line := timerGauge(t, metrics); !strings.HasSuffix(line, " 10") {
		t.Errorf("runs_active with 10 Runs asleep: %q", line)
	}

	p.Kill()
	p = blackbox.Serve(t, addr, args...)
	runs = runsvcv1.NewRunServiceClient(p.Dial(t))
	for i, id := range ids {
		got := waitState(t, runs, id, runsvcv1.RunState_RUN_STATE_COMPLETED)
		if want := []string{"slept", "started"}[i%2]; got.GetAnswer() != want {
			t.Errorf("run %s answered %q, want %q", id, got.GetAnswer(), want)
		}
		assertWokeOnTime(t, testserver.Records(t, runs, id))
	}
}

// assertWokeOnTime checks that a Run's log has one timer wake, recorded
// at or after the time its timer was set for.
func assertWokeOnTime(t *testing.T, recs []*runsvcv1.Record) {
	t.Helper()
	var wake *timestamppb.Timestamp
	woke := 0
	for _, r := range recs {
		switch {
		case r.GetAdmitted().GetStartTime() != nil:
			wake = r.GetAdmitted().GetStartTime()
		case r.GetSuspended().GetWakeTime() != nil:
			wake = r.GetSuspended().GetWakeTime()
		case r.GetResumed().GetReason() == runsvcv1.SuspensionReason_SUSPENSION_REASON_TIMER:
			woke++
			if wake == nil || r.GetTime().AsTime().Before(wake.AsTime()) || r.GetResumed().GetEarly() {
				t.Errorf("record %d woke the run at %v, before its wake time %v", r.GetSeq(), r.GetTime().AsTime(), wake.AsTime())
			}
		}
	}
	if woke != 1 {
		t.Errorf("%d timer wakes in the log, want 1", woke)
	}
}

// timerGauge scrapes runsvc_runs_active's SUSPENDED/TIMER series.
func timerGauge(t *testing.T, addr string) string {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	for _, line := range strings.Split(string(body), "\n") {
		if strings.HasPrefix(line, "runsvc_runs_active{") && strings.Contains(line, `suspension="TIMER"`) {
			return line
		}
	}
	t.Fatalf("no runs_active TIMER series in:\n%s", body)
	return ""
}
