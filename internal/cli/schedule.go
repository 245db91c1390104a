package cli

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

var scheduleCommands = map[string]command{
	"create":  {"SPEC", "create a schedule that starts Runs of a Spec (--cron with --tz, --every or --at)", (*app).scheduleCreate},
	"list":    {"", "list schedules with their next tick and last outcome", (*app).scheduleList},
	"get":     {"SCHEDULE_ID", "show a schedule, its next ticks and its latest outcomes", (*app).scheduleGet},
	"pause":   {"SCHEDULE_ID", "pause a schedule: ticks while paused are neither run nor recorded", (*app).schedulePause},
	"resume":  {"SCHEDULE_ID", "resume a paused schedule from its next tick", (*app).scheduleResume},
	"delete":  {"SCHEDULE_ID", "delete a schedule (the Runs it started stay)", (*app).scheduleDelete},
	"trigger": {"SCHEDULE_ID", "start one Run of a schedule now and print its id", (*app).scheduleTrigger},
}

// overlaps are the --overlap values of "schedule create".
var overlaps = map[string]runsvcv1.OverlapPolicy{
	"skip":               runsvcv1.OverlapPolicy_OVERLAP_POLICY_SKIP,
	"enqueue":            runsvcv1.OverlapPolicy_OVERLAP_POLICY_ENQUEUE,
	"allow":              runsvcv1.OverlapPolicy_OVERLAP_POLICY_ALLOW,
	"interrupt_previous": runsvcv1.OverlapPolicy_OVERLAP_POLICY_INTERRUPT_PREVIOUS,
}

func (a *app) scheduleCreate(ctx context.Context, args []string) error {
	fs := a.flags()
	id := fs.String("id", "", "the schedule's `ID`; one is made when empty")
	input := fs.String("input", "", "every Run's input, a `TEXT`")
	version := fs.String("version", "", "the Spec `VERSION`; the newest at each tick when empty")
	cron := fs.String("cron", "", "a cron `EXPRESSION` (minute hour day month weekday, or @daily ...)")
	tz := fs.String("tz", "", "the IANA time `ZONE` of --cron (Europe/Berlin); UTC when empty")
	every := fs.Duration("every", 0, "tick every `DURATION` (at least 1s)")
	at := fs.String("at", "", "tick once at `TIME` (RFC 3339)")
	overlap := fs.String("overlap", "", "`POLICY` while the previous Run is active: skip (default), enqueue, allow or interrupt_previous")
	catchup := fs.Duration("catchup", 0, "after downtime, run the ticks missed by at most `DURATION` (default 1m)")
	jitter := fs.Duration("jitter", 0, "delay each tick's Run by up to `DURATION`")
	end := fs.String("end", "", "no tick after `TIME` (RFC 3339)")
	maxCount := fs.Int64("max-count", 0, "stop after `N` Runs")
	priority := fs.Int("priority", 0, "every Run's `PRIORITY`, 1 (lowest) to 5 (highest); 3 when 0")
	fairness := fs.String("fairness-key", "", "every Run's fairness `KEY`; the tenant when empty")
	pos, err := a.parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	sc := &runsvcv1.Schedule{Id: *id, Spec: pos[0], Version: *version, Input: *input, TimeZone: *tz, MaxCount: *maxCount,
		Jitter: optDuration(*jitter), CatchupWindow: optDuration(*catchup), Priority: int32(*priority), FairnessKey: *fairness}
	if err := scheduleWhen(sc, *cron, *every, *at, *end); err != nil {
		return err
	}
	if *overlap != "" {
		p, ok := overlaps[strings.ToLower(*overlap)]
		if !ok {
			return usagef("--overlap %q is not a policy: use %s", *overlap, strings.Join(sortedKeys(overlaps), ", "))
		}
		sc.Overlap = p
	}
	if err := a.connect(); err != nil {
		return err
	}
	resp, err := unary(ctx, a, 0, runsvcv1.NewScheduleServiceClient(a.conn).CreateSchedule, &runsvcv1.CreateScheduleRequest{Schedule: sc})
	if err != nil {
		return err
	}
	return a.showSchedule(resp.GetSchedule())
}

// scheduleWhen sets when the schedule ticks from the flags; the server
// says what is wrong with the combination (SCHEDULE_INVALID).
func scheduleWhen(sc *runsvcv1.Schedule, cron string, every time.Duration, at, end string) error {
	switch {
	case cron != "":
		sc.When = &runsvcv1.Schedule_Cron{Cron: cron}
	case every != 0:
		sc.When = &runsvcv1.Schedule_Interval{Interval: durationpb.New(every)}
	case at != "":
		t, err := time.Parse(time.RFC3339, at)
		if err != nil {
			return usagef("--at %q is not an RFC 3339 time", at)
		}
		sc.When = &runsvcv1.Schedule_At{At: timestamppb.New(t)}
	}
	if end != "" {
		t, err := time.Parse(time.RFC3339, end)
		if err != nil {
			return usagef("--end %q is not an RFC 3339 time", end)
		}
		sc.EndTime = timestamppb.New(t)
	}
	return nil
}

func optDuration(d time.Duration) *durationpb.Duration {
	if d == 0 {
		return nil
	}
	return durationpb.New(d)
}

func (a *app) scheduleList(ctx context.Context, args []string) error {
	if _, err := a.parse(a.flags(), args, 0, 0); err != nil {
		return err
	}
	if err := a.connect(); err != nil {
		return err
	}
	client := runsvcv1.NewScheduleServiceClient(a.conn)
	list, _, err := collect(0, func(size int32, token string) ([]*runsvcv1.Schedule, string, error) {
		resp, err := unary(ctx, a, 0, client.ListSchedules, &runsvcv1.ListSchedulesRequest{PageSize: size, PageToken: token})
		return resp.GetSchedules(), resp.GetNextPageToken(), err
	})
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(&runsvcv1.ListSchedulesResponse{Schedules: list})
	}
	if len(list) == 0 {
		fmt.Fprintln(a.stdout, "no schedules")
		return nil
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SCHEDULE ID\tSPEC\tWHEN\tNEXT TICK\tLAST OUTCOME\tRUNS")
	for _, sc := range list {
		next, last := "(none)", "(none)"
		if len(sc.GetNextTicks()) > 0 {
			next = when(sc.GetNextTicks()[0])
		}
		if sc.GetPaused() {
			next = "paused"
		}
		if len(sc.GetRecentTicks()) > 0 {
			last = tickLine(sc.GetRecentTicks()[0])
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\n", sc.GetId(), sc.GetSpec(), scheduleWhenText(sc), next, last, sc.GetCount())
	}
	return tw.Flush()
}

func (a *app) scheduleGet(ctx context.Context, args []string) error {
	return a.scheduleCall(ctx, args, func(c runsvcv1.ScheduleServiceClient, id string) (*runsvcv1.Schedule, error) {
		resp, err := unary(ctx, a, 0, c.GetSchedule, &runsvcv1.GetScheduleRequest{ScheduleId: id})
		return resp.GetSchedule(), err
	})
}

func (a *app) schedulePause(ctx context.Context, args []string) error {
	return a.scheduleCall(ctx, args, func(c runsvcv1.ScheduleServiceClient, id string) (*runsvcv1.Schedule, error) {
		resp, err := unary(ctx, a, 0, c.PauseSchedule, &runsvcv1.PauseScheduleRequest{ScheduleId: id})
		return resp.GetSchedule(), err
	})
}

func (a *app) scheduleResume(ctx context.Context, args []string) error {
	return a.scheduleCall(ctx, args, func(c runsvcv1.ScheduleServiceClient, id string) (*runsvcv1.Schedule, error) {
		resp, err := unary(ctx, a, 0, c.ResumeSchedule, &runsvcv1.ResumeScheduleRequest{ScheduleId: id})
		return resp.GetSchedule(), err
	})
}

// scheduleCall makes a call on one schedule and shows the schedule it
// answers.
func (a *app) scheduleCall(ctx context.Context, args []string, call func(runsvcv1.ScheduleServiceClient, string) (*runsvcv1.Schedule, error)) error {
	id, err := a.connectForID(args)
	if err != nil {
		return err
	}
	sc, err := call(runsvcv1.NewScheduleServiceClient(a.conn), id)
	if err != nil {
		return err
	}
	return a.showSchedule(sc)
}

func (a *app) scheduleDelete(ctx context.Context, args []string) error {
	id, err := a.connectForID(args)
	if err != nil {
		return err
	}
	if _, err := unary(ctx, a, 0, runsvcv1.NewScheduleServiceClient(a.conn).DeleteSchedule, &runsvcv1.DeleteScheduleRequest{ScheduleId: id}); err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "deleted %s\n", id)
	return nil
}

func (a *app) scheduleTrigger(ctx context.Context, args []string) error {
	id, err := a.connectForID(args)
	if err != nil {
		return err
	}
	resp, err := unary(ctx, a, 0, runsvcv1.NewScheduleServiceClient(a.conn).TriggerSchedule, &runsvcv1.TriggerScheduleRequest{ScheduleId: id})
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp)
	}
	fmt.Fprintln(a.stdout, resp.GetRun().GetRunId())
	return nil
}

// showSchedule prints a schedule, its next ticks and latest outcomes.
func (a *app) showSchedule(sc *runsvcv1.Schedule) error {
	if a.json {
		return a.printJSON(sc)
	}
	state := "active"
	if sc.GetPaused() {
		state = "paused"
	}
	fmt.Fprintf(a.stdout, "%s  %s  %s\n", sc.GetId(), state, plural(int(sc.GetCount()), "run", "runs"))
	fmt.Fprintf(a.stdout, "  spec      %s\n  when      %s\n  overlap   %s\n  catch-up  %s\n", sc.GetSpec(), scheduleWhenText(sc),
		strings.ToLower(strings.TrimPrefix(sc.GetOverlap().String(), "OVERLAP_POLICY_")), sc.GetCatchupWindow().AsDuration())
	for i, t := range sc.GetNextTicks() {
		label := ""
		if i == 0 {
			label = "next"
		}
		fmt.Fprintf(a.stdout, "  %-8s  %s\n", label, when(t))
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	if len(sc.GetRecentTicks()) > 0 {
		fmt.Fprintln(tw, "TICK\tOUTCOME\tRUN ID")
	}
	for _, t := range sc.GetRecentTicks() {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", when(t.GetTick()), outcomeName(t.GetOutcome()), orNone(t.GetRunId()))
	}
	return tw.Flush()
}

func scheduleWhenText(sc *runsvcv1.Schedule) string {
	switch w := sc.GetWhen().(type) {
	case *runsvcv1.Schedule_Cron:
		zone := sc.GetTimeZone()
		if zone == "" {
			zone = "UTC"
		}
		return "cron " + w.Cron + " " + zone
	case *runsvcv1.Schedule_Interval:
		return "every " + w.Interval.AsDuration().String()
	case *runsvcv1.Schedule_At:
		return "at " + when(w.At)
	}
	return "?"
}

func outcomeName(o runsvcv1.TickOutcome) string {
	return strings.ToLower(strings.TrimPrefix(o.String(), "TICK_OUTCOME_"))
}

func tickLine(t *runsvcv1.ScheduleTick) string {
	return outcomeName(t.GetOutcome()) + " " + when(t.GetTick())
}
