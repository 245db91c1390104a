package connectjs_test

import (
	"context"
	"net/http/httptest"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/browsertest"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

const (
	browserSpec = `{"name": "browser", "model": {"provider": "scripted", "script": {"turns": [{"text": "Hello from runsvc."}]}}}`
	// slowSpec's model takes longer than EventSource's reconnection delay,
	// so the stream the proxy cuts is cut, and resumed, mid-turn.
	slowSpec = `{"name": "slow", "model": {"provider": "scripted", "script": {"turns": [{"text": "Slow answer.", "delay": "5s"}]}}}`
)

// pageResult is what a page leaves in window.result.
type pageResult struct {
	OK    bool     `json:"ok"`
	RunID string   `json:"runId"`
	Text  string   `json:"text"`
	Error string   `json:"error"`
	IDs   []string `json:"ids"`
	Opens int      `json:"opens"`
}

// TestBrowser opens pages in headless Chromium on origins other than the
// API's: connect-web starts a Run and shows its streamed text from the
// origin --cors-origin allows, is refused by CORS from another, and an
// EventSource on the SSE path resumes a stream cut mid-turn.
func TestBrowser(t *testing.T) {
	site := pageSite(t)
	allowed, refused := httptest.NewServer(site), httptest.NewServer(site)
	t.Cleanup(allowed.Close)
	t.Cleanup(refused.Close)
	s := testserver.Start(t, testserver.WithHTTP(), func(c *server.Config) { c.HTTP.CORSOrigins = []string{allowed.URL} })
	s.Publish(t, browserSpec)
	s.Publish(t, slowSpec)
	ctx := browsertest.Start(t, 2*time.Minute)

	got := open(t, ctx, allowed.URL+"/?api="+s.HTTPURL)
	if !got.OK || got.Text != "Hello from runsvc." {
		t.Fatalf("the allowed origin's page: %+v, want ok and the Run's text", got)
	}
	got = open(t, ctx, refused.URL+"/?api="+s.HTTPURL)
	if got.OK {
		t.Fatalf("the page from %s, an origin not allowed, called the API: %+v", refused.URL, got)
	}
	t.Logf("refused origin's page reports: %s", got.Error)
	list, err := s.Runs.ListRuns(testserver.Context(t), &runsvcv1.ListRunsRequest{})
	if err != nil || len(list.GetRuns()) != 1 {
		t.Fatalf("ListRuns: %v, %d Runs, want the allowed page's one only", err, len(list.GetRuns()))
	}
	t.Run("EventSource resumes", func(t *testing.T) { testEventSource(t, ctx, s, allowed.URL) })
}

// testEventSource watches a slow Run through a proxy that ends the first
// stream after event 3: EventSource reconnects with Last-Event-ID 3 and
// sees every Record once, in order.
func testEventSource(t *testing.T, ctx context.Context, s *testserver.Server, origin string) {
	run := s.Start(t, "slow", "take your time")
	proxy := &cuttingProxy{upstream: s.HTTPURL, cutAfter: "3"}
	front := httptest.NewServer(proxy)
	t.Cleanup(front.Close)
	got := open(t, ctx, origin+"/sse?api="+front.URL+"&run="+run.GetRunId())
	if !got.OK {
		t.Fatalf("EventSource: %+v", got)
	}
	settled, err := s.Runs.GetRun(testserver.Context(t), &runsvcv1.GetRunRequest{RunId: run.GetRunId()})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for seq := int64(1); seq <= settled.GetRun().GetLastSeq(); seq++ {
		want = append(want, strconv.FormatInt(seq, 10))
	}
	if !slices.Equal(got.IDs, want) {
		t.Errorf("event ids %v, want %v: each Record once, in order", got.IDs, want)
	}
	if reqs := proxy.requests(); !slices.Equal(reqs, []string{"", "3"}) || got.Opens != 2 {
		t.Errorf("SSE requests' Last-Event-ID %q, opens %d; want [\"\" \"3\"] and 2", reqs, got.Opens)
	}
}

// open navigates the browser to url and waits for the page's result.
func open(t *testing.T, ctx context.Context, url string) pageResult {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("navigating to %s: %v", url, err)
	}
	wait, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	res, err := chromedp.Run(wait, chromedp.Poll[pageResult]("window.result", chromedp.WithPollingInterval(50*time.Millisecond)))
	if err != nil {
		t.Fatalf("%s: waiting for window.result: %v", url, err)
	}
	return res
}
