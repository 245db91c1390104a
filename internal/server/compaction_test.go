package server_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/fakeopenai"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// requestBound is an upper bound of the tokens of a chat request as the
// server received it: every byte the model reads (a byte-level BPE token
// covers at least one), 4 tokens of framing a message or call, 8 a tool.
func requestBound(req map[string]any) int {
	n := 3
	for _, m := range fakeopenai.Messages(req) {
		n += 4 + len(fmt.Sprint(m["role"])) + len(textOf(m["content"])) + len(textOf(m["name"])) + len(textOf(m["tool_call_id"]))
		calls, _ := m["tool_calls"].([]any)
		for _, c := range calls {
			call, _ := c.(map[string]any)
			fn, _ := call["function"].(map[string]any)
			n += 4 + len(textOf(call["id"])) + len(textOf(fn["name"])) + len(textOf(fn["arguments"]))
		}
	}
	tools, _ := req["tools"].([]any)
	for _, tl := range tools {
		tool, _ := tl.(map[string]any)
		fn, _ := tool["function"].(map[string]any)
		params, _ := json.Marshal(fn["parameters"])
		n += 8 + len(textOf(fn["name"])) + len(textOf(fn["description"])) + len(params)
	}
	return n
}

func textOf(v any) string {
	s, _ := v.(string)
	return s
}

// compactingSpec is a Spec on the fake at url with the given context
// window, compacted by the fake at summariser, with a worker tool fetch.
func compactingSpec(name, url string, window int, summariser string) string {
	return fmt.Sprintf(`{"name": %q, "model": {"provider": "openai", "model": "fake", "baseUrl": %q, "contextWindow": %d},
	  "compaction": {"model": {"provider": "openai", "model": "fake-summariser", "baseUrl": %q}},
	  "tools": [{"name": "fetch", "kind": "TOOL_KIND_WORKER"}]}`, name, url, window, summariser)
}

func compactions(recs []*runsvcv1.Record) []*runsvcv1.Record_HistoryCompacted {
	var out []*runsvcv1.Record_HistoryCompacted
	for _, r := range recs {
		if c := r.GetHistoryCompacted(); c != nil {
			out = append(out, c)
		}
	}
	return out
}

// TestCompactionKeepsRequestsInTheWindow: seven turns, six of which fetch
// 200 bytes, with a 900-token window. Compaction records appear, every
// request the model's server sees stays under the window, and the Run
// completes; the requests after a compaction carry its summary.
func TestCompactionKeepsRequestsInTheWindow(t *testing.T) {
	const window = 900
	var turns []fakeopenai.Turn
	for i := range 6 {
		turns = append(turns, fakeopenai.Turn{Calls: []fakeopenai.Call{{ID: fmt.Sprintf("p%d", i), Name: "fetch", Args: fmt.Sprintf(`{"page":%d}`, i)}}})
	}
	main := fakeopenai.Start(t, append(turns, fakeopenai.Turn{Text: "all read"})...)
	summariser := fakeopenai.Start(t, fakeopenai.Turn{Text: "SUMMARY: pages were fetched, each a row of x."})
	s := testserver.Start(t)
	s.Publish(t, compactingSpec("compacts", main.URL, window, summariser.URL))
	s.StartWorker(t, "pages", map[string]testserver.ToolFunc{"fetch": func(map[string]any) (any, *runsvcv1.ToolError) {
		return strings.Repeat("x", 200), nil
	}})
	run := s.Settled(t, s.Start(t, "compacts", "read every page").GetRunId())
	if run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED || run.GetAnswer() != "all read" {
		t.Fatalf("run settled %v with %q", run.GetState(), run.GetAnswer())
	}
	done := compactions(s.Records(t, run.GetRunId()))
	if len(done) == 0 {
		t.Fatal("no history_compacted record")
	}
	for i, c := range done {
		if c.GetSummary() == "" || c.GetMessages() <= 0 || c.GetThroughTurn() <= 0 || c.GetAfterRefusal() {
			t.Errorf("compaction %d: %v", i, c)
		}
	}
	reqs := main.Requests()
	if len(reqs) != 7 {
		t.Errorf("the model got %d requests, want 7", len(reqs))
	}
	withSummary, largest := 0, 0
	for i, req := range reqs {
		n := requestBound(req)
		if n > window {
			t.Errorf("request %d is up to %d tokens, over the %d window", i+1, n, window)
		}
		largest = max(largest, n)
		if strings.Contains(fmt.Sprint(fakeopenai.Messages(req)), "SUMMARY: pages were fetched") {
			withSummary++
		}
	}
	t.Logf("%d requests, the largest up to %d tokens of a %d window; %d compactions; %d carry a summary", len(reqs), largest, window, len(done), withSummary)
	if withSummary == 0 || len(summariser.Requests()) != len(done) {
		t.Errorf("%d requests carry the summary; the summariser got %d requests for %d compactions", withSummary, len(summariser.Requests()), len(done))
	}
}

// TestCompactionAfterContextLengthRefusal: the server refuses turn 2 once
// with 400 context_length_exceeded; the Run compacts once, asks again
// with the summary, and completes.
func TestCompactionAfterContextLengthRefusal(t *testing.T) {
	main := fakeopenai.Start(t,
		fakeopenai.Turn{Calls: []fakeopenai.Call{{ID: "p0", Name: "fetch", Args: `{}`}}},
		fakeopenai.Turn{Refuse: &fakeopenai.Refusal{Status: 400, Code: "context_length_exceeded", Message: "This model's maximum context length is 10 tokens."}},
		fakeopenai.Turn{Text: "done after compaction"})
	summariser := fakeopenai.Start(t, fakeopenai.Turn{Text: "SUMMARY: the user asked to fetch."})
	s := testserver.Start(t)
	s.Publish(t, compactingSpec("refused", main.URL, 128000, summariser.URL))
	s.StartWorker(t, "pages", map[string]testserver.ToolFunc{"fetch": func(map[string]any) (any, *runsvcv1.ToolError) { return "page", nil }})
	run := s.Settled(t, s.Start(t, "refused", "fetch it").GetRunId())
	if run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED || run.GetAnswer() != "done after compaction" {
		t.Fatalf("run settled %v with %q (%v)", run.GetState(), run.GetAnswer(), run.GetFailure())
	}
	done := compactions(s.Records(t, run.GetRunId()))
	if len(done) != 1 || !done[0].GetAfterRefusal() || done[0].GetTurn() != 2 {
		t.Fatalf("compactions %v, want one after the refusal of turn 2", done)
	}
	reqs := main.Requests()
	if len(reqs) != 3 || !strings.Contains(fmt.Sprint(fakeopenai.Messages(reqs[2])), "SUMMARY: the user asked to fetch.") {
		t.Errorf("the model got %d requests; the retry after the refusal lacks the summary", len(reqs))
	}
}

// TestCompactionRefusedAtPublish: a Spec asking for compaction that
// cannot have it is SPEC_INVALID, each problem named.
func TestCompactionRefusedAtPublish(t *testing.T) {
	s := testserver.Start(t)
	for _, tc := range []struct {
		name, spec, field string
	}{
		{"unknown window", `{"name": "a", "model": {"provider": "openai", "model": "house-model", "baseUrl": "http://127.0.0.1:1/v1"}, "compaction": {}}`, "model.context_window"},
		{"unknown summariser", `{"name": "b", "model": {"provider": "openai", "model": "gpt-4o", "baseUrl": "http://127.0.0.1:1/v1"}, "compaction": {"model": {"provider": "nope"}}}`, "compaction.model.provider"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sp := &runsvcv1.Spec{}
			if err := protojson.Unmarshal([]byte(tc.spec), sp); err != nil {
				t.Fatal(err)
			}
			_, err := s.Specs.PublishSpec(testserver.Context(t), &runsvcv1.PublishSpecRequest{Spec: sp})
			if reasonOf(err) != "SPEC_INVALID" || !hasViolation(err, tc.field) {
				t.Errorf("publish: %v, want SPEC_INVALID naming %s", err, tc.field)
			}
		})
	}
	s.Publish(t, `{"name": "ok", "model": {"provider": "openai", "model": "gpt-4o", "baseUrl": "http://127.0.0.1:1/v1"}, "compaction": {}}`)
}

// hasViolation reports whether err's BadRequest names field.
func hasViolation(err error, field string) bool {
	for _, d := range status.Convert(err).Details() {
		if br, ok := d.(*errdetails.BadRequest); ok {
			for _, v := range br.GetFieldViolations() {
				if v.GetField() == field {
					return true
				}
			}
		}
	}
	return false
}

// TestCompactionCoversThreadHistory: five Runs on one thread, each
// fetching 300 bytes then answering, with a 1000-token window. The later
// Runs' requests carry the earlier Runs' conversation, which alone
// outgrows the window: compaction summarises thread history
// (history_messages > 0), every request the model's server sees stays
// under the window, and every Run completes with its answer.
func TestCompactionCoversThreadHistory(t *testing.T) {
	const window, runs = 1000, 5
	var turns []fakeopenai.Turn
	for i := range runs {
		turns = append(turns,
			fakeopenai.Turn{Calls: []fakeopenai.Call{{ID: fmt.Sprintf("p%d", i), Name: "fetch", Args: fmt.Sprintf(`{"page":%d}`, i)}}},
			fakeopenai.Turn{Text: fmt.Sprintf("page %d read", i)})
	}
	main := fakeopenai.Start(t, turns...)
	summariser := fakeopenai.Start(t, fakeopenai.Turn{Text: "SUMMARY: earlier pages were fetched, each a row of y."})
	s := testserver.Start(t)
	s.Publish(t, compactingSpec("thread-compacts", main.URL, window, summariser.URL))
	s.StartWorker(t, "pages", map[string]testserver.ToolFunc{"fetch": func(map[string]any) (any, *runsvcv1.ToolError) {
		return strings.Repeat("y", 300), nil
	}})
	historyCompactions := 0
	for i := range runs {
		resp, err := s.Runs.StartRun(testserver.Context(t), &runsvcv1.StartRunRequest{
			Spec: "thread-compacts", Input: fmt.Sprintf("read page %d", i), ThreadId: "long-thread",
		})
		if err != nil {
			t.Fatalf("StartRun %d: %v", i, err)
		}
		run := s.Settled(t, resp.GetRun().GetRunId())
		if want := fmt.Sprintf("page %d read", i); run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED || run.GetAnswer() != want {
			t.Fatalf("run %d settled %v with %q (%v), want COMPLETED with %q", i, run.GetState(), run.GetAnswer(), run.GetFailure(), want)
		}
		for _, c := range compactions(s.Records(t, run.GetRunId())) {
			if c.GetSummary() == "" || c.GetHistoryMessages() < 0 || c.GetMessages() < 0 || c.GetHistoryMessages()+c.GetMessages() == 0 {
				t.Errorf("run %d compaction %v", i, c)
			}
			if c.GetHistoryMessages() > 0 {
				historyCompactions++
			}
		}
	}
	reqs := main.Requests()
	if len(reqs) != 2*runs {
		t.Errorf("the model got %d requests, want %d", len(reqs), 2*runs)
	}
	largest, withSummary := 0, 0
	for i, req := range reqs {
		n := requestBound(req)
		if n > window {
			t.Errorf("request %d is up to %d tokens, over the %d window", i+1, n, window)
		}
		largest = max(largest, n)
		if strings.Contains(fmt.Sprint(fakeopenai.Messages(req)), "SUMMARY: earlier pages were fetched") {
			withSummary++
		}
	}
	t.Logf("%d requests, the largest up to %d tokens of a %d window; %d compactions cover thread history; %d requests carry a summary; the summariser got %d",
		len(reqs), largest, window, historyCompactions, withSummary, len(summariser.Requests()))
	if historyCompactions == 0 || withSummary == 0 {
		t.Errorf("%d compactions covered thread history, %d requests carry the summary; want both > 0", historyCompactions, withSummary)
	}
}
