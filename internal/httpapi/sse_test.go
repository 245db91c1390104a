package httpapi_test

import (
	"bufio"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/runsvc/runsvc/client"
	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// event is one Server-Sent Event.
type event struct{ id, name, data string }

// readSSE GETs path as an event stream, with lastID as Last-Event-ID when
// set, and returns the HTTP status, the events and the body when it was
// no event stream.
func readSSE(t *testing.T, base, key, path, lastID string) (int, []event, restReply) {
	t.Helper()
	r, err := http.NewRequestWithContext(ctxT(t), http.MethodGet, base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	r.Header.Set("Accept", "text/event-stream")
	if lastID != "" {
		r.Header.Set("Last-Event-ID", lastID)
	}
	if key != "" {
		r.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Header.Get("Content-Type") != "text/event-stream" {
		return resp.StatusCode, nil, doRESTBody(t, resp)
	}
	defer func() { _ = resp.Body.Close() }()
	var out []event
	var cur event
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur != (event{}) {
				out = append(out, cur)
			}
			cur = event{}
		case strings.HasPrefix(line, "id: "):
			cur.id = line[4:]
		case strings.HasPrefix(line, "event: "):
			cur.name = line[7:]
		case strings.HasPrefix(line, "data: "):
			cur.data = line[6:]
		}
	}
	return resp.StatusCode, out, restReply{}
}

// TestSSE: WatchRun as Server-Sent Events gives every Record gRPC gives,
// each with its seq as the event id, then "event: end"; reconnecting with
// Last-Event-ID goes on after it, with no gap and no duplicate; a Run that
// does not exist is a REST 404 with its ErrorInfo; a stream that fails
// after events ends with "event: error" and the AIP-193 body of gRPC's
// status.
func TestSSE(t *testing.T) {
	s := testserver.Start(t, testserver.WithHTTP())
	s.Publish(t, answerSpec)
	run := s.Start(t, "answer", "hi")
	s.Settled(t, run.GetRunId())
	want := grpcWatch(t, s, run.GetRunId())
	code, events, _ := readSSE(t, s.HTTPURL, "", "/v1/runs/"+run.GetRunId()+":watch", "")
	if code != http.StatusOK || len(events) != want.records+1 || events[len(events)-1].name != "end" {
		t.Fatalf("HTTP %d, %d events (%v), want %d Records and the end", code, len(events), events, want.records)
	}
	for i, e := range events[:want.records] {
		if e.id != strconv.Itoa(i+1) {
			t.Errorf("event %d has id %q, want %d", i, e.id, i+1)
		}
	}
	_, rest, _ := readSSE(t, s.HTTPURL, "", "/v1/runs/"+run.GetRunId()+":watch", "2")
	if len(rest) != want.records-2+1 || rest[0].id != "3" {
		t.Errorf("resumed after 2: %v, want from 3 on", rest)
	}
	code, _, reply := readSSE(t, s.HTTPURL, "", "/v1/runs/run_does_not_exist:watch", "")
	if c := client.ClassifyStatus(reply.status); code != http.StatusNotFound || c.Reason != "RUN_NOT_FOUND" {
		t.Errorf("a missing Run: HTTP %d %s", code, c.Reason)
	}
	checkSSEFailure(t, s)
}

// checkSSEFailure: StreamText of an interrupted Run sends its text, then
// "event: error" with RUN_ABORTED as gRPC ends with it.
func checkSSEFailure(t *testing.T, s *testserver.Server) {
	s.Publish(t, helloSpec)
	run := s.Start(t, "hello", "hi")
	s.Wait(t, run.GetRunId())
	if _, err := s.Runs.InterruptRun(ctxT(t), &runsvcv1.InterruptRunRequest{RunId: run.GetRunId(), Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	s.Settled(t, run.GetRunId())
	want := readStream(t, s, "RunService/StreamText", &runsvcv1.StreamTextRequest{RunId: run.GetRunId()}, nil)
	_, events, _ := readSSE(t, s.HTTPURL, "", "/v1/runs/"+run.GetRunId()+":streamText", "")
	if len(events) != want.records+1 || events[len(events)-1].name != "error" {
		t.Fatalf("%d events %v, want %d texts and an error", len(events), events, want.records)
	}
	same(t, "sse", aip193Status(t, []byte(events[len(events)-1].data)), want.err)
}

// TestSSENeedsKey: the event stream is authenticated as every call is.
func TestSSENeedsKey(t *testing.T) {
	k := startKeyed(t)
	code, _, reply := readSSE(t, k.srv.HTTPURL, "", "/v1/runs/run_x:watch", "")
	if c := client.ClassifyStatus(reply.status); code != http.StatusUnauthorized || c.Reason != "UNAUTHENTICATED" {
		t.Errorf("no key: HTTP %d %s", code, c.Reason)
	}
	code, _, reply = readSSE(t, k.srv.HTTPURL, k.keys["reader"], "/v1/runs/run_x:watch", "")
	if c := client.ClassifyStatus(reply.status); code != http.StatusNotFound || c.Reason != "RUN_NOT_FOUND" {
		t.Errorf("a reader's key: HTTP %d %s", code, c.Reason)
	}
}
