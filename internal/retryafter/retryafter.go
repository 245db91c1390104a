// Package retryafter reads how long an HTTP server asks its client to wait
// before trying again.
package retryafter

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Max bounds what a server may ask for: no Run outlives a day.
const Max = 24 * time.Hour

// Parse reads retry-after-ms (milliseconds, as OpenAI sends) or else
// Retry-After (seconds, or an HTTP date relative to now). Zero means the
// server gave no usable hint.
func Parse(h http.Header, now time.Time) time.Duration {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil {
			return bound(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		return bound(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		return bound(float64(t.Sub(now)))
	}
	return 0
}

// bound clamps nanoseconds to [0, Max].
func bound(ns float64) time.Duration {
	switch {
	case math.IsNaN(ns) || ns <= 0:
		return 0
	case ns >= float64(Max):
		return Max
	}
	return time.Duration(ns)
}
