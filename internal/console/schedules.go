package console

import (
	"net/http"
	"strings"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// schedulesView is the tenant's schedules.
type schedulesView struct {
	Schedules []*runsvcv1.Schedule
	Next      string
}

// schedulesPage lists the tenant's schedules with their next ticks and
// latest outcomes.
func (c *Console) schedulesPage(w http.ResponseWriter, r *http.Request, s *session) {
	ctx, cancel := callCtx(r, s)
	defer cancel()
	resp, err := c.schedules.ListSchedules(ctx, &runsvcv1.ListSchedulesRequest{PageSize: listPageSize, PageToken: r.URL.Query().Get("page")})
	if err != nil {
		c.rpcError(w, r, s, err)
		return
	}
	v := schedulesView{Schedules: resp.GetSchedules()}
	if tok := resp.GetNextPageToken(); tok != "" {
		v.Next = "/schedules?page=" + tok
	}
	c.render(w, r, s, http.StatusOK, "schedules.html", "Schedules", v)
}

// scheduleWhen says when a schedule ticks, for the page.
func scheduleWhen(sc *runsvcv1.Schedule) string {
	switch w := sc.GetWhen().(type) {
	case *runsvcv1.Schedule_Cron:
		zone := sc.GetTimeZone()
		if zone == "" {
			zone = "UTC"
		}
		return w.Cron + " (" + zone + ")"
	case *runsvcv1.Schedule_Interval:
		return "every " + w.Interval.AsDuration().String()
	case *runsvcv1.Schedule_At:
		return "at " + stamp(w.At)
	}
	return ""
}

// tickOutcome is a tick's outcome in lower case ("skipped_overlap").
func tickOutcome(o runsvcv1.TickOutcome) string {
	return strings.ToLower(strings.TrimPrefix(o.String(), "TICK_OUTCOME_"))
}

// firstTicks are the first n of a schedule's next ticks.
func firstTicks(sc *runsvcv1.Schedule, n int) []*runsvcv1.ScheduleTick {
	var out []*runsvcv1.ScheduleTick
	for _, t := range sc.GetNextTicks() {
		if len(out) == n {
			break
		}
		out = append(out, &runsvcv1.ScheduleTick{Tick: t})
	}
	return out
}

// lastOutcomes are the first n of a schedule's latest outcomes.
func lastOutcomes(sc *runsvcv1.Schedule, n int) []*runsvcv1.ScheduleTick {
	ticks := sc.GetRecentTicks()
	if len(ticks) > n {
		ticks = ticks[:n]
	}
	return ticks
}
