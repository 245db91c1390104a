package blackbox_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	epb "google.golang.org/genproto/googleapis/rpc/errdetails"
	statuspb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/protobuf/types/known/structpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/blackbox"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// endpoint is an http tool endpoint that counts POSTs by Idempotency-Key
// (checking it equals Runsvc-Call-Id) and can hold a call's first POST
// open until runsvc dies, so the call is in flight at the crash. Under
// /dedupe it deduplicates by Idempotency-Key, as the README asks of an
// at-least-once tool: a key it has seen is answered with its first
// answer, and the side effect is not made again.
type endpoint struct {
	t        testing.TB
	hangOnce bool
	mu       sync.Mutex
	posts    map[string]int
	// answered counts the POSTs answered in full by key; afterAnswer, the
	// POSTs that came after one was (the result reached runsvc, which did
	// not record it); effects, the side effects made by key.
	answered, afterAnswer, effects map[string]int
	held                           chan string
	release                        chan struct{}
	delay                          time.Duration // before each answer
	// inFlight counts the POSTs being answered now, but for those to the
	// deduplicating path: a kill during one of those proves nothing.
	inFlight atomic.Int64
}

// waitInFlight waits up to within for a POST being answered (but for one
// to the deduplicating path), and reports whether one is.
func (e *endpoint) waitInFlight(within time.Duration) bool {
	deadline := time.Now().Add(within)
	for e.inFlight.Load() == 0 {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
	return true
}

func newEndpoint(t testing.TB, hangOnce bool) (*endpoint, string) {
	e := &endpoint{t: t, hangOnce: hangOnce, posts: map[string]int{}, answered: map[string]int{}, afterAnswer: map[string]int{}, effects: map[string]int{}, held: make(chan string, 4096), release: make(chan struct{})}
	srv := httptest.NewServer(http.HandlerFunc(e.serve))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(e.release) })
	return e, srv.URL
}

func (e *endpoint) serve(w http.ResponseWriter, r *http.Request) {
	key, id := r.Header.Get("Idempotency-Key"), r.Header.Get("Runsvc-Call-Id")
	if key == "" || key != id {
		e.t.Errorf("Idempotency-Key %q, Runsvc-Call-Id %q: want both set and equal", key, id)
	}
	dedupe := strings.HasSuffix(r.URL.Path, "/dedupe")
	if !dedupe {
		e.inFlight.Add(1)
		defer e.inFlight.Add(-1)
	}
	e.mu.Lock()
	e.posts[key]++
	n := e.posts[key]
	if e.answered[key] > 0 {
		e.afterAnswer[key]++
	}
	replay := dedupe && n > 1
	if !replay {
		e.effects[key]++
	}
	e.mu.Unlock()
	if e.hangOnce && n == 1 {
		e.held <- key
		select { // until runsvc dies
		case <-r.Context().Done():
		case <-e.release:
		}
		return
	}
	if e.delay > 0 && !replay {
		select {
		case <-time.After(e.delay):
		case <-r.Context().Done():
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	if replay {
		n = 1 // the first answer, again
	}
	if _, err := fmt.Fprintf(w, `{"ok": true, "post": %d}`, n); err != nil {
		return
	}
	w.(http.Flusher).Flush()
	if r.Context().Err() == nil {
		e.mu.Lock()
		e.answered[key]++
		e.mu.Unlock()
	}
}

func (e *endpoint) count(key string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.posts[key]
}

// counts returns, for a key, the POSTs, those answered in full, those
// that came after an answer, and the side effects made.
func (e *endpoint) counts(key string) (posts, answered, afterAnswer, effects int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.posts[key], e.answered[key], e.afterAnswer[key], e.effects[key]
}

// inDoubtSpec is a Spec whose model calls the http tool charge once, then
// answers "done".
func inDoubtSpec(name, url, delivery, inDoubt string, raise bool) string {
	return fmt.Sprintf(`{"name": %q, "model": {"provider": "scripted", "script": {"turns": [
	  {"toolCalls": [{"name": "charge", "arguments": {"amount": 5}}]}, {"text": "done"}]}},
	 "tools": [{"name": "charge", "kind": "TOOL_KIND_HTTP", "http": {"url": %q}, "delivery": %q, "inDoubt": %q, "raiseOnError": %t}]}`,
		name, url+"/charge", delivery, inDoubt, raise)
}

// failureReason is the ErrorInfo reason of a Run's failure.
func failureReason(st *statuspb.Status) string {
	for _, d := range st.GetDetails() {
		var info epb.ErrorInfo
		if d.UnmarshalTo(&info) == nil {
			return info.GetReason()
		}
	}
	return ""
}

// finishedCall is the tool_call_finished record of a Run's only call.
func finishedCall(t *testing.T, runs runsvcv1.RunServiceClient, id string) *runsvcv1.Record_ToolCallFinished {
	t.Helper()
	var out *runsvcv1.Record_ToolCallFinished
	for _, r := range testserver.Records(t, runs, id) {
		if f := r.GetToolCallFinished(); f != nil {
			if out != nil {
				t.Fatalf("run %s: two tool_call_finished records", id)
			}
			out = f
		}
	}
	if out == nil {
		t.Fatalf("run %s: no tool_call_finished record", id)
	}
	return out
}

// inDoubtRun is one Run of TestCallsInDoubtAfterACrash.
type inDoubtRun struct {
	name, spec string
	answer     *runsvcv1.InDoubtAnswer // for amo-ask over gRPC
	cli        []string                // for amo-ask with the CLI: --in-doubt and after
	id         string
}

// inDoubtRuns are the Runs of TestCallsInDoubtAfterACrash.
func inDoubtRuns() []*inDoubtRun {
	return []*inDoubtRun{
		{name: "at least once is made again", spec: "alo"},
		{name: "at most once is closed in doubt", spec: "amo"},
		{name: "at most once with raise_on_error fails the run", spec: "amo-raise"},
		{name: "ask, happened with a result", spec: "amo-ask", answer: &runsvcv1.InDoubtAnswer{Outcome: runsvcv1.InDoubtOutcome_IN_DOUBT_OUTCOME_HAPPENED, Output: structpb.NewStringValue("charged by hand")}},
		{name: "ask, happened without a result", spec: "amo-ask", answer: &runsvcv1.InDoubtAnswer{Outcome: runsvcv1.InDoubtOutcome_IN_DOUBT_OUTCOME_HAPPENED}},
		{name: "ask, did not happen", spec: "amo-ask", answer: &runsvcv1.InDoubtAnswer{Outcome: runsvcv1.InDoubtOutcome_IN_DOUBT_OUTCOME_DID_NOT_HAPPEN}},
		{name: "ask, skip", spec: "amo-ask", answer: &runsvcv1.InDoubtAnswer{Outcome: runsvcv1.InDoubtOutcome_IN_DOUBT_OUTCOME_SKIP}},
		{name: "ask, happened, with the CLI", spec: "amo-ask", cli: []string{"happened", "--output", `{"charged": 5}`}},
		{name: "ask, did not happen, with the CLI", spec: "amo-ask", cli: []string{"did_not_happen"}},
		{name: "ask, skip, with the CLI", spec: "amo-ask", cli: []string{"skip"}},
	}
}

// TestCallsInDoubtAfterACrash: runsvc is kill -9'd while every Run's http
// call is in flight; after a restart the Runs are taken over. An
// at-least-once call is made again with the same idempotency key; an
// at-most-once call is not: it is closed in doubt (the model sees it and
// answers), fails the Run with TOOL_IN_DOUBT when raise_on_error, or asks
// a person, whose answer happened / did_not_happen / skip leads on.
func TestCallsInDoubtAfterACrash(t *testing.T) {
	ep, url := newEndpoint(t, true)
	data, addr := t.TempDir(), blackbox.FreePort(t)
	args := []string{"--data", data, "--lease-ttl", "2s"}
	p := blackbox.Serve(t, addr, args...)
	conn := p.Dial(t)
	specs, runs := runsvcv1.NewSpecServiceClient(conn), runsvcv1.NewRunServiceClient(conn)
	ctx := testserver.Context(t)
	for _, s := range []string{
		inDoubtSpec("alo", url, "DELIVERY_AT_LEAST_ONCE", "IN_DOUBT_UNSPECIFIED", false),
		inDoubtSpec("amo", url, "DELIVERY_AT_MOST_ONCE", "IN_DOUBT_TELL_MODEL", false),
		inDoubtSpec("amo-raise", url, "DELIVERY_AT_MOST_ONCE", "IN_DOUBT_UNSPECIFIED", true),
		inDoubtSpec("amo-ask", url, "DELIVERY_AT_MOST_ONCE", "IN_DOUBT_ASK", false),
	} {
		testserver.Publish(t, specs, s)
	}
	cases := inDoubtRuns()
	for _, c := range cases {
		resp, err := runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: c.spec, Input: c.name})
		if err != nil {
			t.Fatal(err)
		}
		c.id = resp.GetRun().GetRunId()
	}
	for range cases {
		select {
		case <-ep.held:
		case <-time.After(60 * time.Second):
			t.Fatal("not every call reached the endpoint")
		}
	}
	p.Kill()
	p = blackbox.Serve(t, addr, args...)
	runs = runsvcv1.NewRunServiceClient(p.Dial(t))

	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			key := c.id + "/call_1_1"
			switch {
			case c.spec == "alo":
				got := waitState(t, runs, c.id, runsvcv1.RunState_RUN_STATE_COMPLETED)
				f := finishedCall(t, runs, c.id)
				if n := ep.count(key); n != 2 || f.GetInDoubt() || got.GetAnswer() != "done" {
					t.Errorf("%d POSTs, in_doubt %t, answer %q: want 2 with one key, false, done", n, f.GetInDoubt(), got.GetAnswer())
				}
			case c.spec == "amo":
				got := waitState(t, runs, c.id, runsvcv1.RunState_RUN_STATE_COMPLETED)
				f := finishedCall(t, runs, c.id)
				if n := ep.count(key); n != 1 || !f.GetInDoubt() || failureReason(f.GetError()) != "TOOL_IN_DOUBT" || got.GetAnswer() != "done" {
					t.Errorf("%d POSTs, in_doubt %t, error %v, answer %q: want 1, true, TOOL_IN_DOUBT, done", n, f.GetInDoubt(), f.GetError(), got.GetAnswer())
				}
				checkInDoubtShown(t, p.Addr, runs, c.id)
			case c.spec == "amo-raise":
				got := waitState(t, runs, c.id, runsvcv1.RunState_RUN_STATE_FAILED)
				if n, r := ep.count(key), failureReason(got.GetFailure()); n != 1 || r != "TOOL_IN_DOUBT" || got.GetFailure().GetCode() != 9 {
					t.Errorf("%d POSTs, failure %v: want 1, FAILED_PRECONDITION TOOL_IN_DOUBT", n, got.GetFailure())
				}
			case c.cli != nil:
				resolveWithCLI(t, p.Addr, runs, ep, c.id, key, c.cli)
			default:
				resolveInDoubt(t, runs, ep, c.id, key, c.answer)
			}
		})
	}
}

// resolveInDoubt answers a Run suspended on a call in doubt and checks
// what became of the call.
func resolveInDoubt(t *testing.T, runs runsvcv1.RunServiceClient, ep *endpoint, id, key string, answer *runsvcv1.InDoubtAnswer) {
	t.Helper()
	ctx := testserver.Context(t)
	sus := waitState(t, runs, id, runsvcv1.RunState_RUN_STATE_SUSPENDED).GetSuspension()
	if sus.GetReason() != runsvcv1.SuspensionReason_SUSPENSION_REASON_APPROVAL || !sus.GetInDoubt() || sus.GetApprovalCall().GetName() != "charge" {
		t.Fatalf("suspension %v: want APPROVAL in doubt on charge", sus)
	}
	if n := ep.count(key); n != 1 {
		t.Fatalf("%d POSTs before the answer, want 1", n)
	}
	if _, err := runs.ResumeRun(ctx, &runsvcv1.ResumeRunRequest{RunId: id, Approved: ptr(true)}); err == nil || !strings.Contains(err.Error(), "in_doubt") {
		t.Errorf("resume with approved = %v, want INVALID_REQUEST naming in_doubt", err)
	}
	if _, err := runs.ResumeRun(ctx, &runsvcv1.ResumeRunRequest{RunId: id, InDoubt: &runsvcv1.InDoubtAnswer{}}); err == nil || !strings.Contains(err.Error(), "in_doubt.outcome") {
		t.Errorf("resume without an outcome = %v, want INVALID_REQUEST naming in_doubt.outcome", err)
	}
	if _, err := runs.ResumeRun(ctx, &runsvcv1.ResumeRunRequest{RunId: id, InDoubt: answer}); err != nil {
		t.Fatalf("resume: %v", err)
	}
	got := waitState(t, runs, id, runsvcv1.RunState_RUN_STATE_COMPLETED)
	f := finishedCall(t, runs, id)
	out, _ := json.Marshal(f.GetOutput().AsInterface())
	wantPosts, check := 1, ""
	switch answer.GetOutcome() {
	case runsvcv1.InDoubtOutcome_IN_DOUBT_OUTCOME_HAPPENED:
		if answer.GetOutput() != nil && string(out) != `"charged by hand"` {
			check = "output " + string(out) + `, want "charged by hand"`
		}
		if answer.GetOutput() == nil && !strings.Contains(string(out), `"happened":true`) {
			check = "output " + string(out) + ", want happened: true"
		}
	case runsvcv1.InDoubtOutcome_IN_DOUBT_OUTCOME_DID_NOT_HAPPEN:
		wantPosts = 2
		if !strings.Contains(string(out), `"post":2`) {
			check = "output " + string(out) + ", want the second POST's answer"
		}
	case runsvcv1.InDoubtOutcome_IN_DOUBT_OUTCOME_SKIP:
		if !strings.Contains(f.GetError().GetMessage(), "skipped") {
			check = fmt.Sprintf("error %v, want a skipped call", f.GetError())
		}
	}
	if check != "" {
		t.Error(check)
	}
	if n := ep.count(key); n != wantPosts || got.GetAnswer() != "done" {
		t.Errorf("%d POSTs, answer %q: want %d, done", n, got.GetAnswer(), wantPosts)
	}
}

func ptr[T any](v T) *T { return &v }

// cli runs the runsvc CLI against addr.
func cli(t *testing.T, addr string, args ...string) string {
	t.Helper()
	cmd := exec.Command(blackbox.Binary(t), append([]string{"--addr", addr}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("runsvc %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// checkInDoubtShown: the watch view and the report show the call in doubt.
func checkInDoubtShown(t *testing.T, addr string, runs runsvcv1.RunServiceClient, id string) {
	t.Helper()
	if out := cli(t, addr, "run", "watch", id); !strings.Contains(out, "tool charge [call_1_1] IN DOUBT, not made again: ") || !strings.Contains(out, "TOOL_IN_DOUBT") {
		t.Errorf("run watch does not show the call in doubt:\n%s", out)
	}
	rep, err := runs.GetReport(testserver.Context(t), &runsvcv1.GetReportRequest{RunId: id})
	if err != nil {
		t.Fatal(err)
	}
	calls := rep.GetReport().GetToolCalls()
	if len(calls) != 1 || !calls[0].GetInDoubt() || failureReason(calls[0].GetError()) != "TOOL_IN_DOUBT" {
		t.Errorf("report tool calls %v: want one, in doubt", calls)
	}
}

// resolveWithCLI: `run watch` shows the in-doubt suspension and the
// commands answering it; `run resume --in-doubt ...` answers it: happened
// with the given result, did_not_happen by making the call (a second
// POST), skip by telling the model it was skipped.
func resolveWithCLI(t *testing.T, addr string, runs runsvcv1.RunServiceClient, ep *endpoint, id, key string, inDoubt []string) {
	t.Helper()
	waitState(t, runs, id, runsvcv1.RunState_RUN_STATE_SUSPENDED)
	out := cli(t, addr, "run", "watch", id, "--until-suspended")
	for _, want := range []string{"waiting for word on whether a tool call in doubt happened", "--in-doubt did_not_happen", "--in-doubt skip"} {
		if !strings.Contains(out, want) {
			t.Errorf("run watch lacks %q:\n%s", want, out)
		}
	}
	want := map[string]struct {
		lines []string
		posts int
	}{
		"happened":       {[]string{"resumed: the call in doubt happened", `tool charge [call_1_1] returned`, `{"charged":5}`}, 1},
		"did_not_happen": {[]string{"resumed: the call in doubt did not happen; making it now", `tool charge [call_1_1] returned`, `"post":2`}, 2},
		"skip":           {[]string{"resumed: the call in doubt is skipped", "skipped this call after it was in doubt"}, 1},
	}[inDoubt[0]]
	out = cli(t, addr, append([]string{"run", "resume", id, "--in-doubt"}, append(inDoubt, "--watch")...)...)
	for _, line := range append(want.lines, "completed: done") {
		if !strings.Contains(out, line) {
			t.Errorf("run resume --watch lacks %q:\n%s", line, out)
		}
	}
	if n := ep.count(key); n != want.posts {
		t.Errorf("%d POSTs, want %d", n, want.posts)
	}
}
