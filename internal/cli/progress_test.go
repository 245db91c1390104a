package cli

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/testing/testserver"
)

const clearLine = "\r\x1b[K"

func TestProgressLine(t *testing.T) {
	out := &testserver.Buffer{}
	p := newProgress(out, 40)
	start := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	p.now = func() time.Time { return start.Add(2500 * time.Millisecond) }
	p.tick = 5 * time.Millisecond

	p.start("model", "waiting for the model (turn 1)", start)
	if got, want := out.String(), "  | waiting for the model (turn 1) 2.5s"; got != want {
		t.Fatalf("after start: %q, want %q", got, want)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(out.String(), clearLine+"  / waiting") {
		if time.Now().After(deadline) {
			t.Fatalf("the line was not redrawn: %q", out.String())
		}
		time.Sleep(time.Millisecond)
	}

	p.start("call_1_1", "running a_tool_with_a_very_long_name [call_1_1]", start)
	p.write([]byte("turn 1\n"))
	s := out.String()
	if i := strings.LastIndex(s, clearLine+"turn 1\n"); i < 0 {
		t.Fatalf("the line was not taken down before output: %q", s)
	}
	last := s[strings.LastIndex(s, "\n")+1:]
	if len(last) != 39 || !strings.Contains(last, "running a_tool_with") {
		t.Errorf("the status line after output is %q, want the newest call cut to 39 columns", last)
	}

	p.end("call_1_1")
	p.end("model")
	p.close()
	s = out.String()
	if !strings.HasSuffix(s, clearLine) {
		t.Errorf("the line stays after the calls ended: %q", s[max(0, len(s)-80):])
	}
	p.close()
}

// TestWatchOnTerminal follows a Run whose model is slow with stdout taken
// for a terminal: a status line instead of start lines.
func TestWatchOnTerminal(t *testing.T) {
	srv := testserver.Start(t)
	srv.Publish(t, `{"name": "slow", "model": {"provider": "scripted", "script": {"turns": [{"text": "Finally.", "delay": "0.6s"}]}}}`)
	run := srv.Start(t, "slow", "")

	out := &testserver.Buffer{}
	var stderr strings.Builder
	a := newApp(strings.NewReader(""), out, &stderr)
	a.terminal = true
	code := a.exit(context.Background(), a.main(context.Background(), []string{"--addr", srv.Addr, "run", "watch", run.GetRunId()}))
	s := out.String()
	if code != 0 {
		t.Fatalf("exit %d\n%q\n%s", code, s, stderr.String())
	}
	for _, want := range []string{"  | waiting for the model (turn 1) 0.", clearLine + stampOf(t, s, "  model answered after 0."), "completed: Finally.\n"} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%q", want, s)
		}
	}
	if strings.Contains(s, "model call started") {
		t.Errorf("a terminal got the plain start line:\n%q", s)
	}
}
