package httpapi_test

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/protobuf/types/known/structpb"

	"github.com/runsvc/runsvc/client"
	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// runsvcAt runs a server on data with its HTTP API at httpAddr, and
// returns its RunService and a stop that shuts it down gracefully (as
// SIGTERM does) and waits for it.
func runsvcAt(t *testing.T, data, httpAddr string) (runsvcv1.RunServiceClient, runsvcv1.SpecServiceClient, func()) {
	t.Helper()
	s := testserver.Start(t, testserver.WithData(data), func(c *server.Config) { c.HTTP.Listen = httpAddr })
	return s.Runs, s.Specs, s.Stop
}

// sseEvents GETs an event stream and sends its events on the channel,
// which closes when the stream ends, however it ends.
func sseEvents(ctx context.Context, t *testing.T, url, lastID string) <-chan event {
	t.Helper()
	r, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	r.Header.Set("Accept", "text/event-stream")
	if lastID != "" {
		r.Header.Set("Last-Event-ID", lastID)
	}
	ch := make(chan event)
	go func() {
		defer close(ch)
		// Not before the first event: the headers may wait for it.
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Error(err)
			return
		}
		defer func() { _ = resp.Body.Close() }()
		var cur event
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "" && cur != (event{}):
				ch <- cur
				cur = event{}
			case strings.HasPrefix(line, "id: "):
				cur.id = line[4:]
			case strings.HasPrefix(line, "event: "):
				cur.name = line[7:]
			case strings.HasPrefix(line, "data: "):
				cur.data = line[6:]
			}
		}
	}()
	return ch
}

// TestSSEResumesAcrossRestart: runsvc itself ends a Run's event stream
// mid-turn (a graceful stop, as SIGTERM does, with the Run suspended on
// a client tool); a client reconnecting with Last-Event-ID to the server
// restarted on the same address and data gets every event id after it,
// the stream's last event being the drain's retryable "event: error",
// through the Run's end: with the first stream's, each id exactly once.
func TestSSEResumesAcrossRestart(t *testing.T) {
	data := t.TempDir()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := lis.Addr().String()
	_ = lis.Close()
	runs, specs, stop := runsvcAt(t, data, addr)
	testserver.Publish(t, specs, helloSpec)
	started, err := runs.StartRun(ctxT(t), &runsvcv1.StartRunRequest{Spec: "hello", Input: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	id := started.GetRun().GetRunId()
	if _, err := runs.WaitRun(ctxT(t), &runsvcv1.WaitRunRequest{RunId: id}); err != nil {
		t.Fatal(err)
	}
	got, err := runs.GetRun(ctxT(t), &runsvcv1.GetRunRequest{RunId: id})
	if err != nil {
		t.Fatal(err)
	}
	before := int(got.GetRun().GetLastSeq())
	url := "http://" + addr + "/v1/runs/" + id + ":watch"
	first := sseEvents(ctxT(t), t, url, "")
	var ids []string
	for range before {
		ids = append(ids, (<-first).id)
	}
	stop()
	for e := range first {
		// The drain's last word: retryable, with the cursor to resume at.
		if c := client.ClassifyStatus(aip193Status(t, []byte(e.data))); e.name != "error" || c.Reason != "TRANSIENT_FAILURE" || !c.Retryable {
			t.Errorf("after the stop: %v", e)
		}
		t.Logf("the stop ended the stream with: %s", e.data)
	}
	runs, _, _ = runsvcAt(t, data, addr)
	ctx, cancel := context.WithCancel(ctxT(t))
	defer cancel()
	second := sseEvents(ctx, t, url, ids[len(ids)-1])
	if _, err := runs.ResumeRun(ctxT(t), &runsvcv1.ResumeRunRequest{RunId: id, ToolResults: []*runsvcv1.ToolResult{{CallId: "call_1_1", Output: structpb.NewStringValue("sunny")}}}); err != nil {
		t.Fatal(err)
	}
	ended := false
	for e := range second {
		if e.name == "end" {
			ended = true
			cancel()
			continue
		}
		ids = append(ids, e.id)
	}
	all := testserver.Records(t, runs, id)
	if !ended || len(ids) != len(all) {
		t.Fatalf("ended %v, ids %v, want %d Records", ended, ids, len(all))
	}
	for i, got := range ids {
		if got != strconv.Itoa(i+1) {
			t.Fatalf("ids %v: want 1..%d, each once", ids, len(all))
		}
	}
	t.Logf("first stream: ids 1..%d, cut by the stop; resumed after %d: %v", before, before, ids[before:])
}
