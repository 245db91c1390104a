package server_test

import (
	"context"
	"testing"
	"time"

	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestHealthFollowsTheStore: RunService is SERVING on PostgreSQL, turns
// NOT_SERVING within 2s of the database stopping, and SERVING again once
// it is back.
func TestHealthFollowsTheStore(t *testing.T) {
	cluster := pgtest.Start(t)
	srv := testserver.Start(t, func(c *server.Config) { c.Store, c.PoolSize = cluster.DSN(), 4 })
	health := healthpb.NewHealthClient(srv.Conn)
	const service = "runsvc.v1.RunService"
	steps := []struct {
		name   string
		act    func()
		want   healthpb.HealthCheckResponse_ServingStatus
		within time.Duration
	}{
		{"up", func() {}, healthpb.HealthCheckResponse_SERVING, 2 * time.Second},
		{"database stopped", func() { cluster.Stop(t) }, healthpb.HealthCheckResponse_NOT_SERVING, 2 * time.Second},
		{"database back", func() { cluster.Start(t) }, healthpb.HealthCheckResponse_SERVING, 10 * time.Second},
	}
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			start := time.Now() // before the act: stopping takes time too
			step.act()
			got := awaitHealth(t, health, service, step.want, step.within)
			if got != step.want {
				t.Fatalf("%s is %v after %v, want %v", service, got, step.within, step.want)
			}
			t.Logf("%s %v after %v", service, got, time.Since(start).Round(time.Millisecond))
		})
	}
}

// awaitHealth checks service until it has status want, or within passes,
// and returns the last status seen.
func awaitHealth(t *testing.T, health healthpb.HealthClient, service string, want healthpb.HealthCheckResponse_ServingStatus, within time.Duration) healthpb.HealthCheckResponse_ServingStatus {
	t.Helper()
	deadline := time.Now().Add(within)
	var got healthpb.HealthCheckResponse_ServingStatus
	for {
		ctx, cancel := context.WithTimeout(testserver.Context(t), time.Second)
		resp, err := health.Check(ctx, &healthpb.HealthCheckRequest{Service: service})
		cancel()
		if err != nil {
			t.Fatalf("Check: %v", err)
		}
		got = resp.GetStatus()
		if got == want || time.Now().After(deadline) {
			return got
		}
		time.Sleep(50 * time.Millisecond)
	}
}
