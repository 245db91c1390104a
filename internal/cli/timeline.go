package cli

import (
	"bytes"
	"strings"

	"google.golang.org/protobuf/types/known/timestamppb"
)

// stampLayout is how the watch timeline writes when a record was written:
// local time of day to the millisecond. The date is a line of its own,
// written when it changes.
const stampLayout = "15:04:05.000"

// clockTime writes a point in time as the timeline does, or "--:--:--.---"
// when it is unknown.
func clockTime(ts *timestamppb.Timestamp) string {
	if ts == nil {
		return "--:--:--.---"
	}
	return ts.AsTime().Local().Format(stampLayout)
}

// stamped puts the time of the record being shown (v.at) before the first
// line of its output and as many spaces before the others, so the
// timeline reads down one column. A line with the date comes first when
// the date differs from the last one shown. Output not tied to a record
// (v.at nil) is only indented.
func (v *view) stamped(b []byte) []byte {
	var out bytes.Buffer
	blank := strings.Repeat(" ", len(stampLayout)+1)
	first := blank
	if v.at != nil {
		t := v.at.AsTime().Local()
		if day := t.Format("2006-01-02 (MST)"); day != v.day {
			v.day = day
			out.WriteString(day + "\n")
		}
		first = t.Format(stampLayout) + " "
	}
	for i, line := range strings.SplitAfter(string(b), "\n") {
		if line == "" {
			continue
		}
		if i == 0 {
			out.WriteString(first)
		} else {
			out.WriteString(blank)
		}
		out.WriteString(line)
	}
	return out.Bytes()
}
