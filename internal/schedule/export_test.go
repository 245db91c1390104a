package schedule

import (
	"time"

	"github.com/runsvc/runsvc/internal/runs"
)

// StartRequestForTest is the start request of tick's Run.
func (d *Definition) StartRequestForTest(tick time.Time) runs.StartRequest {
	return d.startRequest(tick, d.RequestID(tick))
}
