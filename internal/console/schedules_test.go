package console_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestSchedulesPage: the page lists the tenant's schedules with when they
// tick, their next ticks and their latest outcomes, each Run linked.
func TestSchedulesPage(t *testing.T) {
	s := startSite(t, false)
	ctx := testserver.Context(t)
	testserver.Publish(t, runsvcv1.NewSpecServiceClient(s.srv.Conn), `{"name": "nightly", "model": {"provider": "scripted", "script": {"turns": [{"text": "ok"}]}}}`)
	schedules := runsvcv1.NewScheduleServiceClient(s.srv.Conn)
	for _, sc := range []*runsvcv1.Schedule{
		{Id: "triage", Spec: "nightly", When: &runsvcv1.Schedule_Cron{Cron: "0 3 * * *"}, TimeZone: "Europe/Berlin"},
		{Id: "poll", Spec: "nightly", When: &runsvcv1.Schedule_Interval{Interval: durationpb.New(time.Hour)}},
	} {
		if _, err := schedules.CreateSchedule(ctx, &runsvcv1.CreateScheduleRequest{Schedule: sc}); err != nil {
			t.Fatal(err)
		}
	}
	run, err := schedules.TriggerSchedule(ctx, &runsvcv1.TriggerScheduleRequest{ScheduleId: "triage"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := schedules.GetSchedule(ctx, &runsvcv1.GetScheduleRequest{ScheduleId: "triage"})
	if err != nil {
		t.Fatal(err)
	}
	next := got.GetSchedule().GetNextTicks()[0].AsTime().UTC().Format("2006-01-02 15:04:05")
	token := s.csrf(t)
	s.post(t, "/login", url.Values{"csrf": {token}, "key": {s.keys[auth.RoleRunner]}})
	resp, body := s.get(t, "/schedules")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /schedules: %d\n%s", resp.StatusCode, body)
	}
	for _, want := range []string{"triage", "poll", "0 3 * * * (Europe/Berlin)", "every 1h0m0s", next, "triggered", `href="/runs/` + run.GetRun().GetRunId() + `"`, `href="/schedules"`} {
		if !strings.Contains(body, want) {
			t.Errorf("the page does not show %q:\n%s", want, body)
		}
	}
}
