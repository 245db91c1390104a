package server

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/runsvc/runsvc/internal/store/sqlite/sqlitetest"
)

// TestHealthNotServingOnceDraining: a drain turns "" and every service
// NOT_SERVING at once, and later probes of a store that answers do not
// turn them back.
func TestHealthNotServingOnceDraining(t *testing.T) {
	srv := health.NewServer()
	services := []string{"runsvc.v1.RunService", "runsvc.v1.SpecService"}
	h := newHealthReporter(srv, sqlitetest.Open(t), slog.New(slog.NewTextHandler(io.Discard, nil)), services)
	ctx := context.Background()
	steps := []struct {
		name string
		act  func()
		want healthpb.HealthCheckResponse_ServingStatus
	}{
		{"store answers", func() { h.probe(ctx) }, healthpb.HealthCheckResponse_SERVING},
		{"draining", h.drain, healthpb.HealthCheckResponse_NOT_SERVING},
		{"a probe while draining", func() { h.probe(ctx) }, healthpb.HealthCheckResponse_NOT_SERVING},
	}
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			step.act()
			for _, name := range append([]string{""}, services...) {
				resp, err := srv.Check(ctx, &healthpb.HealthCheckRequest{Service: name})
				if err != nil || resp.GetStatus() != step.want {
					t.Errorf("Check(%q) = %v, %v; want %v", name, resp.GetStatus(), err, step.want)
				}
			}
		})
	}
}
