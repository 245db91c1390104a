package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/runsvc/runsvc/internal/server"
)

// consoleResult is the web console's Run page for a Run of about 200
// Records (issue 21): its server time, from the page's Server-Timing
// header, and its wall time and size as a browser on loopback gets them.
type consoleResult struct {
	Records  int64 `json:"records"`
	Requests int   `json:"requests"`
	// ServerP50Ms.. are the console's own time per page: reading the Run
	// (GetRun, GetSpec, WatchRun over the in-process connection) and
	// rendering it.
	ServerP50Ms float64 `json:"serverP50Ms"`
	ServerP99Ms float64 `json:"serverP99Ms"`
	ServerMaxMs float64 `json:"serverMaxMs"`
	// WallP50Ms and WallP99Ms are request to last byte, at the client.
	WallP50Ms float64 `json:"wallP50Ms"`
	WallP99Ms float64 `json:"wallP99Ms"`
	// PageBytes is the HTML with its response headers; AssetBytes the
	// stylesheet and script it loads; TotalBytes both.
	PageBytes  int `json:"pageBytes"`
	AssetBytes int `json:"assetBytes"`
	TotalBytes int `json:"totalBytes"`
}

// pageSpec is a Spec whose Run logs about 200 Records: turns of many
// worker-tool calls, then an answer.
func pageSpec(turns, calls int) string {
	var b strings.Builder
	b.WriteString(`{"name": "bench-page", "limits": {"maxToolRounds": 500}, "model": {"provider": "scripted", "script": {"turns": [`)
	for t := range turns {
		b.WriteString(`{"text": "Working through the list, part ` + strconv.Itoa(t+1) + `.", "usage": {"inputTokens": 900, "outputTokens": 40}, "toolCalls": [`)
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

// runConsole measures the Run page of one settled 200-Record Run.
func runConsole(ctx context.Context, cfg config) (*consoleResult, error) {
	progress("console: Run page of a 200-record Run")
	p, err := startToolsInprocWith(ctx, "", func(c *server.Config) { c.Console.Listen = "127.0.0.1:0" })
	if err != nil {
		return nil, err
	}
	defer p.stop()
	if err := publish(ctx, p.specs, pageSpec(3, 32)); err != nil {
		return nil, err
	}
	run, err := startAndSettle(ctx, p.runs, "bench-page")
	if err != nil {
		return nil, err
	}
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, Timeout: 30 * time.Second}
	res := &consoleResult{Records: run.GetLastSeq(), Requests: 50}
	if cfg.measure < 3*time.Second {
		res.Requests = 20
	}
	url := p.consoleURL + "/runs/" + run.GetRunId()
	var server, wall []time.Duration
	for i := range res.Requests + 5 {
		start := time.Now()
		body, hdr, err := get(ctx, client, url)
		if err != nil {
			return nil, err
		}
		took := time.Since(start)
		if !strings.Contains(body, "All items checked.") {
			return nil, fmt.Errorf("the Run page lacks the answer (%d bytes)", len(body))
		}
		if i < 5 { // warm-up
			continue
		}
		page, err := pageTiming(hdr.Get("Server-Timing"))
		if err != nil {
			return nil, err
		}
		server, wall = append(server, page), append(wall, took)
		res.PageBytes = len(body) + headerBytes(hdr)
	}
	for _, asset := range []string{"/static/console.css", "/static/live.js"} {
		body, hdr, err := get(ctx, client, p.consoleURL+asset)
		if err != nil {
			return nil, err
		}
		res.AssetBytes += len(body) + headerBytes(hdr)
	}
	res.TotalBytes = res.PageBytes + res.AssetBytes
	slices.Sort(server)
	slices.Sort(wall)
	res.ServerP50Ms, res.ServerP99Ms, res.ServerMaxMs = ms(quantile(server, 0.5)), ms(quantile(server, 0.99)), ms(server[len(server)-1])
	res.WallP50Ms, res.WallP99Ms = ms(quantile(wall, 0.5)), ms(quantile(wall, 0.99))
	return res, nil
}

// get fetches url and returns its body and headers; anything but 200 is
// an error.
func get(ctx context.Context, client *http.Client, url string) (string, http.Header, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return "", nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return "", nil, fmt.Errorf("GET %s: HTTP %d", url, resp.StatusCode)
	}
	return string(b), resp.Header, nil
}

// headerBytes is about what the headers weigh on the wire.
func headerBytes(h http.Header) int {
	n := len("HTTP/1.1 200 OK\r\n\r\n")
	for k, vs := range h {
		for _, v := range vs {
			n += len(k) + len(": \r\n") + len(v)
		}
	}
	return n
}

// pageTiming reads the "page" duration of a Server-Timing header.
func pageTiming(h string) (time.Duration, error) {
	for _, part := range strings.Split(h, ",") {
		name, dur, ok := strings.Cut(strings.TrimSpace(part), ";dur=")
		if ok && name == "page" {
			v, err := strconv.ParseFloat(dur, 64)
			if err != nil {
				return 0, err
			}
			return time.Duration(v * float64(time.Millisecond)), nil
		}
	}
	return 0, fmt.Errorf("no page time in Server-Timing %q", h)
}

// printConsole writes the console section.
func printConsole(w io.Writer, c *consoleResult) {
	section(w, fmt.Sprintf("8. CONSOLE: GET /runs/{id} of a settled Run of %d Records, sequential, %d requests after 5 warm-up", c.Records, c.Requests))
	tw := tabs(w)
	fmt.Fprintln(tw, "server p50 ms\tserver p99 ms\tserver max ms\twall p50 ms\twall p99 ms\tpage bytes\tassets bytes\ttotal bytes\t")
	fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t\n", fmtMs(c.ServerP50Ms), fmtMs(c.ServerP99Ms), fmtMs(c.ServerMaxMs), fmtMs(c.WallP50Ms), fmtMs(c.WallP99Ms), c.PageBytes, c.AssetBytes, c.TotalBytes)
	tw.Flush()
	fmt.Fprintln(w, "  server: the page's Server-Timing (reading the Run over the in-process gRPC connection, and rendering); bytes: uncompressed, headers included.")
}

// consoleTargets are the console's judged targets.
func consoleTargets(c *consoleResult) []target {
	where := fmt.Sprintf("%d records", c.Records)
	return []target{
		judge(target{Name: "console Run page server time p99", Op: "<=", Limit: 200, Measured: c.ServerP99Ms, Unit: "ms", Where: where}),
		judge(target{Name: "console Run page transferred (page + assets)", Op: "<=", Limit: 300, Measured: float64(c.TotalBytes) / 1024, Unit: "KB", Where: where}),
	}
}

// ms is d in milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
