package schedule_test

import (
	"errors"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/schedule"
)

func TestValidateNamesTheField(t *testing.T) {
	cases := []struct {
		name  string
		def   schedule.Definition
		field string
	}{
		{"bad cron", schedule.Definition{Cron: "61 * * * *"}, "schedule.cron"},
		{"unknown time zone", schedule.Definition{Cron: "* * * * *", TimeZone: "Mars/Olympus"}, "schedule.time_zone"},
		{"none of cron, interval, at", schedule.Definition{}, "schedule.cron"},
		{"two of them", schedule.Definition{Cron: "* * * * *", Interval: time.Minute}, "schedule.cron"},
		{"interval too small", schedule.Definition{Interval: time.Millisecond}, "schedule.interval"},
		{"bad overlap", schedule.Definition{Interval: time.Minute, Overlap: "SOMETIMES"}, "schedule.overlap"},
		{"bad id", schedule.Definition{ID: "Bad Id", Interval: time.Minute}, "schedule.id"},
		{"no spec", schedule.Definition{Spec: "-", Interval: time.Minute}, "schedule.spec"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := c.def
			if d.ID == "" {
				d.ID = "s"
			}
			if d.Spec == "" {
				d.Spec = "nightly"
			} else if d.Spec == "-" {
				d.Spec = ""
			}
			var invalid *errs.ScheduleInvalid
			if err := d.Validate(); !errors.As(err, &invalid) {
				t.Fatalf("Validate() = %v, want ScheduleInvalid", err)
			}
			if invalid.Violations[0].Field != c.field {
				t.Fatalf("violations %+v, want field %s", invalid.Violations, c.field)
			}
		})
	}
}
