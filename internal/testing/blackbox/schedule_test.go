package blackbox_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
	"github.com/runsvc/runsvc/internal/testing/blackbox"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

const tickSpec = `{"name": "tick", "model": {"provider": "scripted", "script": {"turns": [{"text": "tick"}]}}}`

// Shape of the schedule kill tests: a tick a second for two minutes, the
// server killed (SIGKILL) this many times meanwhile, and a catch-up window
// longer than any outage, so that every tick must run.
const (
	scheduleSpan  = 2 * time.Minute
	scheduleKills = 20
)

// TestScheduleSurvivesKills: every tick of a 1s schedule over two minutes
// has exactly one Run while the server is killed 20 times: on SQLite (one
// server, restarted each time) and on PostgreSQL (two replicas, one of
// them killed and restarted each time). The subtests run in parallel.
func TestScheduleSurvivesKills(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		addr, data := blackbox.FreePort(t), t.TempDir()
		args := []string{"--data", data, "--lease-ttl", "2s"}
		p := blackbox.Serve(t, addr, args...)
		killLoop(t, p.Dial(t), func() {
			p.Kill()
			// Down for up to 2s: the ticks meanwhile run as catch-up.
			time.Sleep(rand.N(2 * time.Second))
			p = blackbox.Serve(t, addr, args...)
		}, func() *grpc.ClientConn { return p.Dial(t) })
	})
	t.Run("postgres-replicas", func(t *testing.T) {
		t.Parallel()
		dsn := pgtest.Start(t).DSN()
		args := func(id string) []string {
			return []string{"--store", dsn, "--lease-ttl", "2s", "--worker-id", id, "--pool-size", "8"}
		}
		a := blackbox.Serve(t, blackbox.FreePort(t), args("replica-a")...)
		addrB := blackbox.FreePort(t)
		b := blackbox.Serve(t, addrB, args("replica-b")...)
		killLoop(t, b.Dial(t), func() {
			b.Kill()
			b = blackbox.Serve(t, addrB, args("replica-b")...)
		}, func() *grpc.ClientConn { return a.Dial(t) })
	})
}

// killLoop creates the schedule through conn, kills and restarts a
// server scheduleKills times over scheduleSpan with restart, then checks
// the Runs through the connection survivor returns.
func killLoop(t *testing.T, conn *grpc.ClientConn, restart func(), survivor func() *grpc.ClientConn) {
	testserver.Publish(t, runsvcv1.NewSpecServiceClient(conn), tickSpec)
	ctx := testserver.Context(t)
	end := time.Now().Add(scheduleSpan).Truncate(time.Second)
	created, err := runsvcv1.NewScheduleServiceClient(conn).CreateSchedule(ctx, &runsvcv1.CreateScheduleRequest{Schedule: &runsvcv1.Schedule{
		Id: "every-second", Spec: "tick", Input: "tick",
		When:    &runsvcv1.Schedule_Interval{Interval: durationpb.New(time.Second)},
		Overlap: runsvcv1.OverlapPolicy_OVERLAP_POLICY_ALLOW, CatchupWindow: durationpb.New(10 * time.Minute),
		EndTime: timestamppb.New(end),
	}})
	if err != nil {
		t.Fatal(err)
	}
	first := created.GetSchedule().GetNextTicks()[0].AsTime()
	for i := 0; i < scheduleKills; i++ {
		// Kills spread over the span (a restart takes time too), each at
		// a random point of its share.
		share := scheduleSpan / (scheduleKills + 1)
		time.Sleep(share/4 + rand.N(share/2))
		restart()
	}
	waitScheduleDone(t, runsvcv1.NewScheduleServiceClient(survivor()))
	checkOneRunPerTick(t, runsvcv1.NewRunServiceClient(survivor()), first, end)
}

// waitScheduleDone waits until the schedule has no tick left to decide.
func waitScheduleDone(t *testing.T, schedules runsvcv1.ScheduleServiceClient) {
	t.Helper()
	deadline := time.Now().Add(scheduleSpan + time.Minute)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		got, err := schedules.GetSchedule(ctx, &runsvcv1.GetScheduleRequest{ScheduleId: "every-second"})
		cancel()
		if err == nil && len(got.GetSchedule().GetNextTicks()) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the schedule is not done: %v, %v", got, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// checkOneRunPerTick lists the schedule's Runs and checks that each tick
// from first to end has exactly one, logging the tick ids.
func checkOneRunPerTick(t *testing.T, runs runsvcv1.RunServiceClient, first, end time.Time) {
	t.Helper()
	perTick := map[int64][]string{}
	late, latest := 0, time.Duration(0)
	token := ""
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		page, err := runs.ListRuns(ctx, &runsvcv1.ListRunsRequest{ScheduleId: "every-second", PageSize: 500, PageToken: token})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range page.GetRuns() {
			tick := r.GetScheduleTick().AsTime().Unix()
			if want := fmt.Sprintf("schedule/every-second/%d", tick); r.GetRequestId() != want {
				t.Errorf("run %s of tick %d has request id %q", r.GetRunId(), tick, r.GetRequestId())
			}
			perTick[tick] = append(perTick[tick], r.GetRunId())
			// A Run created well after its tick was caught up after a kill.
			lag := r.GetCreateTime().AsTime().Sub(r.GetScheduleTick().AsTime())
			if lag > time.Second {
				late++
			}
			latest = max(latest, lag)
		}
		if token = page.GetNextPageToken(); token == "" {
			break
		}
	}
	var ids []string
	missing, duplicates := 0, 0
	for tick := first; !tick.After(end); tick = tick.Add(time.Second) {
		got := perTick[tick.Unix()]
		ids = append(ids, fmt.Sprintf("%d:%d", tick.Unix(), len(got)))
		switch {
		case len(got) == 0:
			missing++
		case len(got) > 1:
			duplicates++
		}
		delete(perTick, tick.Unix())
	}
	t.Logf("ticks %s to %s, tick:runs %s", first.Format(time.TimeOnly), end.Format(time.TimeOnly), strings.Join(ids, " "))
	t.Logf("%d ticks, %d missing, %d duplicated, %d Runs of ticks outside the window; %d Runs started over 1s after their tick (caught up), the latest %s after",
		len(ids), missing, duplicates, len(perTick), late, latest.Round(time.Millisecond))
	if missing > 0 || duplicates > 0 || len(perTick) > 0 || len(ids) < 100 {
		t.Fatalf("want exactly one Run per tick")
	}
}
