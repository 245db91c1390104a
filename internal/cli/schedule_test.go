package cli_test

import (
	"strings"
	"testing"

	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestScheduleCommands: create a schedule, list and get it, trigger a Run
// (which run list --schedule finds), pause, resume and delete it; bad
// definitions exit with SCHEDULE_INVALID naming the field.
func TestScheduleCommands(t *testing.T) {
	srv := testserver.Start(t)
	c := newClient(t, srv)
	c.must("spec", "publish", writeFile(t, "nightly.yaml", "name: nightly\nmodel: {provider: scripted, script: {turns: [{text: ok}]}}\n"))
	c.must("schedule", "create", "nightly", "--id", "triage", "--cron", "0 3 * * *", "--tz", "Europe/Berlin", "--input", "triage", "--overlap", "enqueue")
	run := strings.TrimSpace(c.must("schedule", "trigger", "triage"))
	cases := []struct {
		name   string
		args   []string
		code   int
		stdout []string
		stderr []string
	}{
		{name: "list", args: []string{"schedule", "list"}, stdout: []string{"SCHEDULE ID", "triage", "cron 0 3 * * * Europe/Berlin", "triggered"}},
		{name: "get", args: []string{"schedule", "get", "triage"}, stdout: []string{"triage  active", "overlap   enqueue", "02:00:00 UTC", "next", "triggered", run}},
		{name: "run list --schedule", args: []string{"run", "list", "--schedule", "triage"}, stdout: []string{run}},
		{name: "pause", args: []string{"schedule", "pause", "triage"}, stdout: []string{"triage  paused"}},
		{name: "resume", args: []string{"schedule", "resume", "triage"}, stdout: []string{"triage  active", "next"}},
		{name: "unknown zone", args: []string{"schedule", "create", "nightly", "--cron", "0 3 * * *", "--tz", "Mars/Olympus"}, code: 1, stderr: []string{"SCHEDULE_INVALID", "schedule.time_zone"}},
		{name: "two of cron and every", args: []string{"schedule", "create", "nightly", "--every", "500ms"}, code: 1, stderr: []string{"SCHEDULE_INVALID", "schedule.interval"}},
		{name: "bad overlap", args: []string{"schedule", "create", "nightly", "--every", "1m", "--overlap", "sometimes"}, code: 2, stderr: []string{"is not a policy"}},
		{name: "delete", args: []string{"schedule", "delete", "triage"}, stdout: []string{"deleted triage"}},
		{name: "get deleted", args: []string{"schedule", "get", "triage"}, code: 1, stderr: []string{"SCHEDULE_NOT_FOUND"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := c.run(tc.args...)
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, tc.code, r.stdout, r.stderr)
			}
			contains(t, "stdout", r.stdout, tc.stdout...)
			contains(t, "stderr", r.stderr, tc.stderr...)
		})
	}
}
