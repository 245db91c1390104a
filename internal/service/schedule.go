package service

import (
	"context"
	"strings"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/schedule"
	"github.com/runsvc/runsvc/internal/store"
)

type scheduleServer struct {
	runsvcv1.UnimplementedScheduleServiceServer
	*Service
}

func (s scheduleServer) CreateSchedule(ctx context.Context, req *runsvcv1.CreateScheduleRequest) (*runsvcv1.CreateScheduleResponse, error) {
	d, err := scheduleFromProto(tenantOf(ctx), req.GetSchedule())
	if err != nil {
		return nil, err
	}
	sc, err := s.schedules.Create(ctx, d)
	if err != nil {
		return nil, err
	}
	return &runsvcv1.CreateScheduleResponse{Schedule: scheduleToProto(sc)}, nil
}

func (s scheduleServer) GetSchedule(ctx context.Context, req *runsvcv1.GetScheduleRequest) (*runsvcv1.GetScheduleResponse, error) {
	sc, err := s.schedules.Get(ctx, tenantOf(ctx), req.GetScheduleId())
	if err != nil {
		return nil, err
	}
	return &runsvcv1.GetScheduleResponse{Schedule: scheduleToProto(sc)}, nil
}

func (s scheduleServer) ListSchedules(ctx context.Context, req *runsvcv1.ListSchedulesRequest) (*runsvcv1.ListSchedulesResponse, error) {
	list, next, err := s.schedules.List(ctx, tenantOf(ctx), store.ScheduleQuery{PageSize: int(req.GetPageSize()), PageToken: req.GetPageToken()})
	if err != nil {
		return nil, err
	}
	out := &runsvcv1.ListSchedulesResponse{NextPageToken: next}
	for _, sc := range list {
		out.Schedules = append(out.Schedules, scheduleToProto(sc))
	}
	return out, nil
}

func (s scheduleServer) PauseSchedule(ctx context.Context, req *runsvcv1.PauseScheduleRequest) (*runsvcv1.PauseScheduleResponse, error) {
	sc, err := s.schedules.Pause(ctx, tenantOf(ctx), req.GetScheduleId())
	if err != nil {
		return nil, err
	}
	return &runsvcv1.PauseScheduleResponse{Schedule: scheduleToProto(sc)}, nil
}

func (s scheduleServer) ResumeSchedule(ctx context.Context, req *runsvcv1.ResumeScheduleRequest) (*runsvcv1.ResumeScheduleResponse, error) {
	sc, err := s.schedules.Resume(ctx, tenantOf(ctx), req.GetScheduleId())
	if err != nil {
		return nil, err
	}
	return &runsvcv1.ResumeScheduleResponse{Schedule: scheduleToProto(sc)}, nil
}

func (s scheduleServer) DeleteSchedule(ctx context.Context, req *runsvcv1.DeleteScheduleRequest) (*runsvcv1.DeleteScheduleResponse, error) {
	if err := s.schedules.Delete(ctx, tenantOf(ctx), req.GetScheduleId()); err != nil {
		return nil, err
	}
	return &runsvcv1.DeleteScheduleResponse{}, nil
}

func (s scheduleServer) TriggerSchedule(ctx context.Context, req *runsvcv1.TriggerScheduleRequest) (*runsvcv1.TriggerScheduleResponse, error) {
	run, err := s.schedules.Trigger(ctx, tenantOf(ctx), req.GetScheduleId())
	if err != nil {
		return nil, err
	}
	return &runsvcv1.TriggerScheduleResponse{Run: s.runToProto(run)}, nil
}

// scheduleFromProto reads a schedule's definition; a duration that is not
// one is SCHEDULE_INVALID naming it.
func scheduleFromProto(tenant string, p *runsvcv1.Schedule) (schedule.Definition, error) {
	var bad []errs.FieldViolation
	d := schedule.Definition{
		Tenant: tenant, ID: p.GetId(), Spec: p.GetSpec(), Version: p.GetVersion(), Input: p.GetInput(),
		Cron: p.GetCron(), TimeZone: p.GetTimeZone(), MaxCount: p.GetMaxCount(),
		Priority: int(p.GetPriority()), FairnessKey: p.GetFairnessKey(),
		Interval:      durationField("schedule.interval", p.GetInterval(), &bad),
		Jitter:        durationField("schedule.jitter", p.GetJitter(), &bad),
		CatchupWindow: durationField("schedule.catchup_window", p.GetCatchupWindow(), &bad),
	}
	if p.GetOverlap() != runsvcv1.OverlapPolicy_OVERLAP_POLICY_UNSPECIFIED {
		d.Overlap = strings.TrimPrefix(p.GetOverlap().String(), "OVERLAP_POLICY_")
	}
	if p.GetAt() != nil {
		d.At = p.GetAt().AsTime()
	}
	if p.GetEndTime() != nil {
		d.EndTime = p.GetEndTime().AsTime()
	}
	if len(bad) > 0 {
		return d, &errs.ScheduleInvalid{ScheduleID: d.ID, Violations: bad}
	}
	return d, nil
}

func scheduleToProto(sc schedule.Schedule) *runsvcv1.Schedule {
	p := &runsvcv1.Schedule{
		Id: sc.ID, Spec: sc.Spec, Version: sc.Version, Input: sc.Input, TimeZone: sc.TimeZone,
		Jitter: dur(sc.Jitter), EndTime: ts(sc.EndTime), MaxCount: sc.MaxCount,
		Overlap:       runsvcv1.OverlapPolicy(runsvcv1.OverlapPolicy_value["OVERLAP_POLICY_"+sc.Overlap]),
		CatchupWindow: dur(sc.CatchupWindow), Paused: sc.Paused, Count: sc.Progress.Count,
		CreateTime: ts(sc.CreateTime), UpdateTime: ts(sc.UpdateTime),
		Priority: int32(sc.Priority), FairnessKey: sc.FairnessKey,
	}
	switch {
	case sc.Cron != "":
		p.When = &runsvcv1.Schedule_Cron{Cron: sc.Cron}
	case sc.Interval > 0:
		p.When = &runsvcv1.Schedule_Interval{Interval: dur(sc.Interval)}
	default:
		p.When = &runsvcv1.Schedule_At{At: ts(sc.At)}
	}
	for _, t := range sc.NextTicks {
		p.NextTicks = append(p.NextTicks, ts(t))
	}
	for _, t := range sc.Recent {
		p.RecentTicks = append(p.RecentTicks, &runsvcv1.ScheduleTick{
			Tick: ts(t.Tick), RunId: t.RunID, RecordTime: ts(t.Time),
			Outcome: runsvcv1.TickOutcome(runsvcv1.TickOutcome_value["TICK_OUTCOME_"+t.Outcome]),
		})
	}
	return p
}
