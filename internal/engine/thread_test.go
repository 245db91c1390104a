package engine_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// chatMessage is a message of a chat completions request as the provider
// sees it.
type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// recordingOpenAI is an OpenAI-compatible server on 127.0.0.1 that keeps
// the messages of every request and answers the nth with "answer n".
type recordingOpenAI struct {
	mu       sync.Mutex
	requests [][]chatMessage
	srv      *httptest.Server
	// hold, when set, says to answer a request only when its caller gives
	// up (the Run was interrupted).
	hold func([]chatMessage) bool
}

func newRecordingOpenAI(t *testing.T) *recordingOpenAI {
	return newHoldingOpenAI(t, nil)
}

func newHoldingOpenAI(t *testing.T, hold func([]chatMessage) bool) *recordingOpenAI {
	f := &recordingOpenAI{hold: hold}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			Messages []chatMessage `json:"messages"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		f.mu.Lock()
		f.requests = append(f.requests, req.Messages)
		n := len(f.requests)
		f.mu.Unlock()
		if f.hold != nil && f.hold(req.Messages) {
			<-r.Context().Done()
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = fmt.Fprintf(w, `{"id": "chatcmpl-%d", "object": "chat.completion", "created": 1764400000, "model": "gpt-4o-mini",
		  "choices": [{"index": 0, "message": {"role": "assistant", "content": "answer %d"}, "finish_reason": "stop"}],
		  "usage": {"prompt_tokens": 12, "completion_tokens": 5, "total_tokens": 17}}`, n, n)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *recordingOpenAI) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.requests)
}

func (f *recordingOpenAI) request(n int) []chatMessage {
	f.mu.Lock()
	defer f.mu.Unlock()
	if n >= len(f.requests) {
		return nil
	}
	return f.requests[n]
}

// TestThreadCarriesTheConversation starts three Runs on one thread over
// gRPC: the third's model request, as an OpenAI-compatible server sees it,
// carries the first two exchanges; ListRuns by thread returns the Runs in
// order, each continuing the one before.
func TestThreadCarriesTheConversation(t *testing.T) {
	t.Setenv("RUNSVC_SECRET_OPENAI_TEST_KEY", "sk-test-thread-4242")
	srv := testserver.Start(t)
	model := newRecordingOpenAI(t)
	srv.Publish(t, fmt.Sprintf(`{"name": "chat", "instructions": "Be brief.", "model": {"provider": "openai", "model": "gpt-4o-mini", "baseUrl": %q, "apiKeyCredential": "openai_test_key"},
	  "credentials": [{"name": "openai_test_key"}]}`, model.srv.URL+"/v1"))
	ctx := testserver.Context(t)
	var ids []string
	for i, input := range []string{"first question", "second question", "third question"} {
		resp, err := srv.Runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "chat", Input: input, ThreadId: "conv-1"})
		if err != nil {
			t.Fatalf("StartRun %d: %v", i, err)
		}
		run := srv.Settled(t, resp.GetRun().GetRunId())
		if run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED || run.GetAnswer() != fmt.Sprintf("answer %d", i+1) {
			t.Fatalf("run %d = %v %q", i, run.GetState(), run.GetAnswer())
		}
		ids = append(ids, run.GetRunId())
	}
	want := []chatMessage{
		{"system", "Be brief."},
		{"user", "first question"}, {"assistant", "answer 1"},
		{"user", "second question"}, {"assistant", "answer 2"},
		{"user", "third question"},
	}
	got := model.request(2)
	if len(got) != len(want) {
		t.Fatalf("third request's messages = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("third request message %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if first := model.request(0); len(first) != 2 {
		t.Errorf("first request carried %d messages, want instructions and input only: %+v", len(first), first)
	}
	list, err := srv.Runs.ListRuns(ctx, &runsvcv1.ListRunsRequest{ThreadId: "conv-1"})
	if err != nil || len(list.GetRuns()) != 3 {
		t.Fatalf("ListRuns(thread) = %v, %v", list, err)
	}
	for i, r := range list.GetRuns() {
		wantPrev := ""
		if i > 0 {
			wantPrev = ids[i-1]
		}
		if r.GetRunId() != ids[i] || r.GetThreadId() != "conv-1" || r.GetContinuesRunId() != wantPrev {
			t.Errorf("thread run %d = %s continues %q; want %s continuing %q", i, r.GetRunId(), r.GetContinuesRunId(), ids[i], wantPrev)
		}
	}
	th, err := srv.Runs.GetThread(ctx, &runsvcv1.GetThreadRequest{ThreadId: "conv-1"})
	if err != nil || th.GetThread().GetRunCount() != 3 || th.GetThread().GetLastRunId() != ids[2] || th.GetThread().GetActiveRunId() != "" {
		t.Errorf("GetThread = %v, %v", th, err)
	}
	threads, err := srv.Runs.ListThreads(ctx, &runsvcv1.ListThreadsRequest{})
	if err != nil || len(threads.GetThreads()) != 1 || threads.GetThreads()[0].GetThreadId() != "conv-1" {
		t.Errorf("ListThreads = %v, %v", threads, err)
	}
}

// TestThreadInterruptContinues: a Run on a thread is in the middle of a
// model call when a StartRun with the strategy interrupt arrives; the first
// settles ABORTED/INTERRUPTED and the second's model request carries the
// first's input before its own.
func TestThreadInterruptContinues(t *testing.T) {
	t.Setenv("RUNSVC_SECRET_OPENAI_TEST_KEY", "sk-test-thread-4242")
	srv := testserver.Start(t)
	model := newHoldingOpenAI(t, func(msgs []chatMessage) bool { return msgs[len(msgs)-1].Content == "a long task" })
	srv.Publish(t, fmt.Sprintf(`{"name": "chat", "model": {"provider": "openai", "model": "gpt-4o-mini", "baseUrl": %q, "apiKeyCredential": "openai_test_key"},
	  "credentials": [{"name": "openai_test_key"}]}`, model.srv.URL+"/v1"))
	ctx := testserver.Context(t)
	first, err := srv.Runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "chat", Input: "a long task", ThreadId: "int"})
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); model.count() == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the first run never called the model")
		}
	}
	second, err := srv.Runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "chat", Input: "never mind", ThreadId: "int",
		ThreadStrategy: runsvcv1.ThreadStrategy_THREAD_STRATEGY_INTERRUPT})
	if err != nil {
		t.Fatal(err)
	}
	if !second.GetRun().GetWaiting() {
		t.Errorf("the interrupting run is not waiting for the first: %v", second.GetRun())
	}
	aborted := srv.Settled(t, first.GetRun().GetRunId())
	if aborted.GetState() != runsvcv1.RunState_RUN_STATE_ABORTED || aborted.GetAbortCause() != runsvcv1.AbortCause_ABORT_CAUSE_INTERRUPTED {
		t.Errorf("first run = %v %v; want ABORTED INTERRUPTED", aborted.GetState(), aborted.GetAbortCause())
	}
	done := srv.Settled(t, second.GetRun().GetRunId())
	if done.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED || done.GetContinuesRunId() != aborted.GetRunId() {
		t.Fatalf("second run = %v continuing %q", done.GetState(), done.GetContinuesRunId())
	}
	want := []chatMessage{{"user", "a long task"}, {"user", "never mind"}}
	got := model.request(1)
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("the second run's request = %+v, want %+v", got, want)
	}
}

// TestSpecThreadStrategyDefault: a Spec's thread_strategy applies when a
// start names none, and a start's own strategy wins over it.
func TestSpecThreadStrategyDefault(t *testing.T) {
	srv := testserver.Start(t)
	published := srv.Publish(t, `{"name": "queues", "threadStrategy": "THREAD_STRATEGY_ENQUEUE",
	  "model": {"provider": "scripted", "script": {"turns": [{"text": "done", "delay": "1s"}]}}}`)
	if published.GetThreadStrategy() != runsvcv1.ThreadStrategy_THREAD_STRATEGY_ENQUEUE {
		t.Fatalf("published Spec's strategy = %v", published.GetThreadStrategy())
	}
	ctx := testserver.Context(t)
	start := func(strategy runsvcv1.ThreadStrategy) (*runsvcv1.StartRunResponse, error) {
		return srv.Runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "queues", Input: "hi", ThreadId: "d", ThreadStrategy: strategy})
	}
	first, err := start(runsvcv1.ThreadStrategy_THREAD_STRATEGY_UNSPECIFIED)
	if err != nil {
		t.Fatal(err)
	}
	second, err := start(runsvcv1.ThreadStrategy_THREAD_STRATEGY_UNSPECIFIED)
	if err != nil || !second.GetRun().GetWaiting() {
		t.Fatalf("a start with the Spec's default = %v, %v; want it enqueued", second, err)
	}
	if _, err := start(runsvcv1.ThreadStrategy_THREAD_STRATEGY_REJECT); status.Code(err) != codes.FailedPrecondition {
		t.Errorf("a start with reject = %v; want FAILED_PRECONDITION", err)
	}
	srv.Settled(t, first.GetRun().GetRunId())
	if done := srv.Settled(t, second.GetRun().GetRunId()); done.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED {
		t.Errorf("the enqueued run ended %v", done.GetState())
	}
}
