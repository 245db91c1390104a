package server_test

import (
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestScheduledRunsTakeTheSchedulesPriority: a schedule's priority and
// fairness key are its Runs', as StartRun's are (issue 35: "StartRun and
// schedules take a priority"); unset, its Runs take StartRun's defaults;
// out of range, the schedule is refused naming the field.
func TestScheduledRunsTakeTheSchedulesPriority(t *testing.T) {
	srv := testserver.Start(t)
	srv.Publish(t, `{"name": "nightly", "model": {"provider": "scripted", "script": {"turns": [{"text": "ok"}]}}}`)
	schedules := runsvcv1.NewScheduleServiceClient(srv.Conn)
	ctx := testserver.Context(t)
	every := &runsvcv1.Schedule_Interval{Interval: durationpb.New(time.Hour)}
	tests := []struct {
		name         string
		schedule     *runsvcv1.Schedule
		wantPriority int32
		wantKey      string
	}{
		{"priority and key", &runsvcv1.Schedule{Id: "urgent", Spec: "nightly", When: every, Priority: 5, FairnessKey: "ops"}, 5, "ops"},
		{"defaults", &runsvcv1.Schedule{Id: "plain", Spec: "nightly", When: every}, 3, "default"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			created, err := schedules.CreateSchedule(ctx, &runsvcv1.CreateScheduleRequest{Schedule: tt.schedule})
			if err != nil {
				t.Fatal(err)
			}
			if got := created.GetSchedule(); got.GetPriority() != tt.schedule.GetPriority() || got.GetFairnessKey() != tt.schedule.GetFairnessKey() {
				t.Fatalf("created schedule: priority %d key %q, want %d %q", got.GetPriority(), got.GetFairnessKey(), tt.schedule.GetPriority(), tt.schedule.GetFairnessKey())
			}
			fired, err := schedules.TriggerSchedule(ctx, &runsvcv1.TriggerScheduleRequest{ScheduleId: tt.schedule.GetId()})
			if err != nil {
				t.Fatal(err)
			}
			run, err := srv.Runs.GetRun(ctx, &runsvcv1.GetRunRequest{RunId: fired.GetRun().GetRunId()})
			if err != nil {
				t.Fatal(err)
			}
			if r := run.GetRun(); r.GetPriority() != tt.wantPriority || r.GetFairnessKey() != tt.wantKey {
				t.Fatalf("the scheduled Run: priority %d key %q, want %d %q", r.GetPriority(), r.GetFairnessKey(), tt.wantPriority, tt.wantKey)
			}
		})
	}
	t.Run("out of range", func(t *testing.T) {
		_, err := schedules.CreateSchedule(ctx, &runsvcv1.CreateScheduleRequest{Schedule: &runsvcv1.Schedule{Id: "loud", Spec: "nightly", When: every, Priority: 9}})
		if status.Code(err) != codes.InvalidArgument || reasonOf(err) != "SCHEDULE_INVALID" || !hasViolation(err, "schedule.priority") {
			t.Fatalf("CreateSchedule with priority 9: %v, want SCHEDULE_INVALID naming schedule.priority", err)
		}
	})
}
