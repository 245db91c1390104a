package server

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/errs"
)

// TestStartRateQuota: with 3 starts a minute, the 4th within the minute is
// QUOTA_EXCEEDED with a RetryAfter that ends when the oldest start leaves
// the window; another tenant has its own window.
func TestStartRateQuota(t *testing.T) {
	clk := clock.NewFake(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	q := newQuotas(nil, clk)
	acme := auth.Identity{Tenant: "acme", Quota: auth.Quota{StartsPerMinute: 3}}
	globex := auth.Identity{Tenant: "globex", Quota: auth.Quota{StartsPerMinute: 3}}
	steps := []struct {
		advance time.Duration
		id      auth.Identity
		retry   time.Duration // 0: admitted
	}{
		{0, acme, 0},
		{10 * time.Second, acme, 0},
		{10 * time.Second, acme, 0},
		{10 * time.Second, acme, 30 * time.Second},
		{0, globex, 0},
		{30 * time.Second, acme, 0},
		{0, acme, 10 * time.Second},
	}
	for i, s := range steps {
		clk.Advance(s.advance)
		release, err := q.admit(context.Background(), s.id)
		var qe *errs.QuotaExceeded
		switch {
		case s.retry == 0 && err != nil:
			t.Fatalf("step %d: %v, want admitted", i, err)
		case s.retry == 0:
			release()
		case !errors.As(err, &qe) || qe.Dimension != "starts_per_minute" || qe.RetryAfter != s.retry:
			t.Fatalf("step %d: %v (%+v), want QUOTA_EXCEEDED retry after %v", i, err, qe, s.retry)
		}
	}
}
