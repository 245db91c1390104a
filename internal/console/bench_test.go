package console_test

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// pageSpec is a Spec whose Run logs about 200 Records: turns of many
// worker-tool calls, then an answer.
func pageSpec(turns, calls int) string {
	var b strings.Builder
	b.WriteString(`{"name": "page", "limits": {"maxToolRounds": 500}, "model": {"provider": "scripted", "script": {"turns": [`)
	for t := range turns {
		fmt.Fprintf(&b, `{"text": "Working through the list, part %d.", "usage": {"inputTokens": 900, "outputTokens": 40}, "toolCalls": [`, t+1)
		for c := range calls {
			if c > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"name": "step", "arguments": {"turn": %d, "item": %d, "note": "check item %d of the list"}}`, t+1, c+1, c+1)
		}
		b.WriteString(`]},`)
	}
	b.WriteString(`{"text": "All items checked."}]}}, "tools": [{"name": "step", "kind": "TOOL_KIND_WORKER", "description": "One step."}]}`)
	return b.String()
}

// BenchmarkRunPage renders the Run page of a settled Run of about 200
// Records. It reports the console's own time per page (Server-Timing)
// and the page's bytes; the issue asks < 200 ms and < 300 KB.
func BenchmarkRunPage(b *testing.B) {
	srv := testserver.Start(b, func(c *server.Config) { c.Console.Listen = "127.0.0.1:0" })
	srv.StartWorker(b, "page-worker", map[string]testserver.ToolFunc{"step": func(map[string]any) (any, *runsvcv1.ToolError) { return map[string]any{"ok": true}, nil }})
	srv.Publish(b, pageSpec(3, 32))
	run := srv.Settled(b, srv.Start(b, "page", "go").GetRunId())
	if run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED {
		b.Fatalf("the Run settled %v: %v", run.GetState(), run.GetFailure())
	}
	url := srv.ConsoleURL + "/runs/" + run.GetRunId()
	var server time.Duration
	var size int
	for b.Loop() {
		resp, err := http.Get(url)
		if err != nil {
			b.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			b.Fatalf("HTTP %d: %v", resp.StatusCode, err)
		}
		server += pageTime(b, resp.Header.Get("Server-Timing"))
		size = len(body)
	}
	b.ReportMetric(float64(run.GetLastSeq()), "records")
	b.ReportMetric(float64(size), "page-bytes")
	b.ReportMetric(float64(server)/float64(b.N)/float64(time.Millisecond), "server-ms/page")
}

// pageTime reads the "page" entry of a Server-Timing header.
func pageTime(tb testing.TB, h string) time.Duration {
	tb.Helper()
	for _, part := range strings.Split(h, ",") {
		if name, dur, ok := strings.Cut(strings.TrimSpace(part), ";dur="); ok && name == "page" {
			v, err := strconv.ParseFloat(dur, 64)
			if err != nil {
				tb.Fatal(err)
			}
			return time.Duration(v * float64(time.Millisecond))
		}
	}
	tb.Fatalf("no page time in Server-Timing %q", h)
	return 0
}
