package engine

import (
	"errors"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/spec"
)

// TestFallsBack: which failures move a call to the next model.
func TestFallsBack(t *testing.T) {
	plain := spec.Model{}
	rejecting := spec.Model{FallbackOnRejected: true, FallbackRetryAfterOver: time.Minute}
	rejected := &errs.InferenceRejected{HTTPStatus: 400}
	for _, c := range []struct {
		name string
		m    spec.Model
		err  error
		want bool
	}{
		{"a 503", plain, &errs.InferenceFailed{HTTPStatus: 503}, true},
		{"a 429 asking for 30s, over the default 10s", plain, &errs.InferenceRateLimited{RetryAfter: 30 * time.Second}, true},
		{"a 429 asking for 5s", plain, &errs.InferenceRateLimited{RetryAfter: 5 * time.Second}, false},
		{"a 429 asking for 30s, under the Spec's 1m", rejecting, &errs.InferenceRateLimited{RetryAfter: 30 * time.Second}, false},
		{"a 400", plain, rejected, false},
		{"a 400 with fallback_on_rejected", rejecting, rejected, true},
		{"a context too long", rejecting, model.ContextTooLong(rejected), false},
		{"a refused key", plain, &errs.ConfigurationInvalid{Subject: "m"}, false},
		{"no such provider", plain, &errs.DependencyMissing{Dependency: "x"}, true},
		{"a bare error", plain, errors.New("boom"), false},
	} {
		if got := fallsBack(c.m, c.err); got != c.want {
			t.Errorf("%s: fallsBack = %v, want %v", c.name, got, c.want)
		}
	}
}
