package cli

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// stampPattern matches the time at the start of a timeline line.
var stampPattern = regexp.MustCompile(`^\d\d:\d\d:\d\d\.\d{3} `)

// stampOf finds text in a watch's output right after a timeline stamp and
// returns the two together, or text alone when no stamped line holds it.
func stampOf(t *testing.T, out, text string) string {
	t.Helper()
	m := regexp.MustCompile(`\d\d:\d\d:\d\d\.\d{3} ` + regexp.QuoteMeta(text)).FindString(out)
	if m == "" {
		t.Errorf("no timeline stamp before %q in:\n%q", text, out)
		return text
	}
	return m
}

// TestWatchTimelineTimes checks that every record a watch shows starts
// with the time the server wrote it, in order, under a line with the date.
func TestWatchTimelineTimes(t *testing.T) {
	srv := testserver.Start(t)
	srv.Publish(t, `{"name": "hello", "model": {"provider": "scripted", "script": {"turns": [{"text": "Let me look.", "toolCalls": [{"name": "lookup", "arguments": {"q": "weather"}}]}, {"text": "Sunny."}]}},
		"tools": [{"name": "lookup", "kind": "TOOL_KIND_CLIENT"}]}`)
	run := srv.Start(t, "hello", "weather?")
	var out, stderr strings.Builder
	a := newApp(strings.NewReader(""), &out, &stderr)
	if code := a.exit(context.Background(), a.main(context.Background(), []string{"--addr", srv.Addr, "run", "watch", run.GetRunId(), "--until-suspended"})); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out.String(), stderr.String())
	}
	records := srv.RecordsSoFar(t, run.GetRunId())
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	wantDay := records[0].GetTime().AsTime().Local().Format("2006-01-02 (MST)")
	if lines[0] != wantDay {
		t.Errorf("first line %q, want the date %q", lines[0], wantDay)
	}
	var stamps []string
	for _, l := range lines[1:] {
		switch {
		case stampPattern.MatchString(l):
			stamps = append(stamps, l[:len(stampLayout)])
		case !strings.HasPrefix(l, strings.Repeat(" ", len(stampLayout)+1)):
			t.Errorf("line %q has neither a time nor the timeline's indent", l)
		}
	}
	var want []string
	for _, r := range records {
		want = append(want, r.GetTime().AsTime().Local().Format(stampLayout))
	}
	if strings.Join(stamps, ",") != strings.Join(want, ",") {
		t.Errorf("timeline times\n got %v\nwant %v (the records' times)\n%s", stamps, want, out.String())
	}
}

// TestStampedDays checks the date line: written first and again only when
// the day changes.
func TestStampedDays(t *testing.T) {
	pad := strings.Repeat(" ", len(stampLayout)+1)
	day1 := time.Date(2026, 3, 1, 23, 59, 59, 500e6, time.Local)
	tests := []struct {
		name string
		at   []time.Time
		want []string
	}{
		{"one day", []time.Time{day1, day1.Add(100 * time.Millisecond)}, []string{"2026-03-01", "23:59:59.500 a", pad + "  b", "23:59:59.600 a", pad + "  b"}},
		{"past midnight", []time.Time{day1, day1.Add(time.Second)}, []string{"2026-03-01", "23:59:59.500 a", pad + "  b", "2026-03-02", "00:00:00.500 a", pad + "  b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := &view{}
			var got string
			for _, at := range tt.at {
				v.at = timestamppb.New(at)
				got += string(v.stamped([]byte("a\n  b\n")))
			}
			lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
			if len(lines) != len(tt.want) {
				t.Fatalf("got %q, want lines %q", got, tt.want)
			}
			for i, w := range tt.want {
				if !strings.HasPrefix(lines[i], w) {
					t.Errorf("line %d is %q, want it to start %q", i, lines[i], w)
				}
			}
		})
	}
}
