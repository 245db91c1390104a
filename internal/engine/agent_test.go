package engine_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

func toolFinished(recs []*runsvcv1.Record) []*runsvcv1.Record_ToolCallFinished {
	var out []*runsvcv1.Record_ToolCallFinished
	for _, r := range recs {
		if f := r.GetToolCallFinished(); f != nil {
			out = append(out, f)
		}
	}
	return out
}

// TestWorkerToolErrorIsolation: a worker tool that fails is the result
// the model sees and the Run goes on; with raise_on_error it fails the
// Run TOOL_FAILED.
func TestWorkerToolErrorIsolation(t *testing.T) {
	srv := testserver.Start(t)
	srv.StartWorker(t, "w1", map[string]testserver.ToolFunc{
		"upper": func(a map[string]any) (any, *runsvcv1.ToolError) { return strings.ToUpper(fmt.Sprint(a["text"])), nil },
		"flaky": func(map[string]any) (any, *runsvcv1.ToolError) {
			return nil, &runsvcv1.ToolError{Message: "upstream unavailable", Retryable: true}
		},
	})
	const script = `{"turns": [{"toolCalls": [{"name": "upper", "arguments": {"text": "hi"}}, {"name": "flaky", "arguments": {}}]}, {"text": "done"}]}`
	srv.Publish(t, `{"name": "isolated", "model": {"provider": "scripted", "script": `+script+`},
	  "tools": [{"name": "upper", "kind": "TOOL_KIND_WORKER"}, {"name": "flaky", "kind": "TOOL_KIND_WORKER"}]}`)
	srv.Publish(t, `{"name": "raising", "model": {"provider": "scripted", "script": `+script+`},
	  "tools": [{"name": "upper", "kind": "TOOL_KIND_WORKER"}, {"name": "flaky", "kind": "TOOL_KIND_WORKER", "raiseOnError": true}]}`)

	t.Run("isolated", func(t *testing.T) {
		run := srv.Settled(t, srv.Start(t, "isolated", "go").GetRunId())
		if run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED {
			t.Fatalf("state %v failure %v", run.GetState(), run.GetFailure())
		}
		done := toolFinished(srv.Records(t, run.GetRunId()))
		if len(done) != 2 || done[0].GetOutput().GetStringValue() != "HI" {
			t.Fatalf("tool results %v", done)
		}
		c := errdetails.ClassifyStatus(done[1].GetError())
		if c.Reason != "TOOL_FAILED" || !c.Retryable || c.Metadata["detail"] != "upstream unavailable" {
			t.Errorf("flaky's result %+v", c)
		}
	})
	t.Run("raise_on_error", func(t *testing.T) {
		run := srv.Settled(t, srv.Start(t, "raising", "go").GetRunId())
		c := errdetails.ClassifyStatus(run.GetFailure())
		if run.GetState() != runsvcv1.RunState_RUN_STATE_FAILED || c.Reason != "TOOL_FAILED" {
			t.Fatalf("state %v failure %+v", run.GetState(), c)
		}
	})
}

// TestWorkerDisconnectMovesTheCall: a call whose worker vanishes is given to
// another worker; calls are spread over the workers serving a tool.
func TestWorkerDisconnectMovesTheCall(t *testing.T) {
	srv := testserver.Start(t)
	var mu sync.Mutex
	stuck := make(chan struct{})
	var once sync.Once
	w1 := srv.StartWorker(t, "vanishing", map[string]testserver.ToolFunc{
		"work": func(map[string]any) (any, *runsvcv1.ToolError) {
			once.Do(func() { close(stuck) })
			select {} // never answers: its worker is about to disconnect
		},
	})
	srv.Publish(t, `{"name": "moves", "model": {"provider": "scripted", "script": {"turns": [{"toolCalls": [{"name": "work", "arguments": {}}]}, {"text": "done"}]}},
	  "tools": [{"name": "work", "kind": "TOOL_KIND_WORKER"}]}`)
	run := srv.Start(t, "moves", "go")
	<-stuck
	w2 := srv.StartWorker(t, "steady", map[string]testserver.ToolFunc{
		"work": func(map[string]any) (any, *runsvcv1.ToolError) { mu.Lock(); defer mu.Unlock(); return "ok", nil },
	})
	w1.Stop()
	got := srv.Settled(t, run.GetRunId())
	if got.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED || w2.Calls("work") != 1 {
		t.Fatalf("state %v, the steady worker got %d calls", got.GetState(), w2.Calls("work"))
	}

	t.Run("load is spread", func(t *testing.T) {
		w3 := srv.StartWorker(t, "third", map[string]testserver.ToolFunc{"work": func(map[string]any) (any, *runsvcv1.ToolError) { return "ok", nil }})
		var ids []string
		for i := 0; i < 20; i++ {
			ids = append(ids, srv.Start(t, "moves", "go").GetRunId())
		}
		for _, id := range ids {
			srv.Settled(t, id)
		}
		if w2.Calls("work") < 3 || w3.Calls("work") < 3 {
			t.Errorf("calls per worker: %d and %d; want both used", w2.Calls("work"), w3.Calls("work"))
		}
	})
}

func TestCircuitBreaker(t *testing.T) {
	srv := testserver.Start(t)
	srv.Publish(t, `{"name": "loop", "model": {"provider": "scripted", "script": {"turns": [
	  {"toolCalls": [{"name": "memory_set", "arguments": {"key": "a", "value": 1}}, {"name": "memory_set", "arguments": {"key": "b", "value": 2}}]},
	  {"toolCalls": [{"name": "memory_set", "arguments": {"key": "c", "value": 3}}]},
	  {"text": "never"}]}},
	  "tools": [{"name": "memory_set", "kind": "TOOL_KIND_BUILTIN"}], "limits": {"maxToolRounds": 2}}`)
	run := srv.Settled(t, srv.Start(t, "loop", "go").GetRunId())
	c := errdetails.ClassifyStatus(run.GetFailure())
	const want = "Circuit breaker triggered: 3 tool calls exceeded max_tool_rounds (2)"
	if run.GetState() != runsvcv1.RunState_RUN_STATE_FAILED || c.Reason != "TOOL_LOOP_LIMIT" || c.Message != want || c.Retryable {
		t.Fatalf("state %v failure %+v, want %q never retryable", run.GetState(), c, want)
	}
	if n := len(toolFinished(srv.Records(t, run.GetRunId()))); n != 2 {
		t.Errorf("%d calls ran; the breaker trips before the third", n)
	}
}

func TestBudgets(t *testing.T) {
	srv := testserver.Start(t)
	srv.Publish(t, `{"name": "refused", "model": {"provider": "scripted", "script": {"turns": [
	  {"toolCalls": [{"name": "memory_set", "arguments": {"key": "a", "value": 1}}], "usage": {"inputTokens": 90, "outputTokens": 5}},
	  {"text": "never", "usage": {"inputTokens": 1, "outputTokens": 1}}]}},
	  "tools": [{"name": "memory_set", "kind": "TOOL_KIND_BUILTIN"}], "limits": {"tokenBudget": "100"}}`)
	srv.Publish(t, `{"name": "overrun", "model": {"provider": "scripted", "script": {"turns": [{"text": "long", "usage": {"inputTokens": 50, "outputTokens": 10}}]}}, "limits": {"tokenBudget": "40"}}`)
	srv.Publish(t, `{"name": "costly", "model": {"provider": "scripted", "pricing": {"inputPerMillion": 5, "outputPerMillion": 15},
	  "script": {"turns": [{"text": "long", "usage": {"inputTokens": 80000, "outputTokens": 10000}}]}}, "limits": {"costBudget": 0.5}}`)
	cases := []struct {
		spec, reason, message string
		retryable             bool
		modelCalls            int32
	}{
		{spec: "refused", reason: "BUDGET_EXCEEDED", modelCalls: 1},
		{spec: "overrun", reason: "BUDGET_OVERRUN", message: "Token budget exceeded: 60 tokens used, budget is 40", retryable: true, modelCalls: 1},
		{spec: "costly", reason: "BUDGET_OVERRUN", message: "Cost budget exceeded: $0.550000 used, budget is $0.500000", retryable: true, modelCalls: 1},
	}
	for _, tc := range cases {
		t.Run(tc.spec, func(t *testing.T) {
			run := srv.Settled(t, srv.Start(t, tc.spec, "go").GetRunId())
			c := errdetails.ClassifyStatus(run.GetFailure())
			if c.Reason != tc.reason || c.Retryable != tc.retryable || (tc.message != "" && c.Message != tc.message) {
				t.Errorf("failure %+v, want %s %q retryable=%v", c, tc.reason, tc.message, tc.retryable)
			}
			if got := run.GetUsage().GetModelCalls(); got != tc.modelCalls {
				t.Errorf("%d model calls, want %d: a refusal spends nothing", got, tc.modelCalls)
			}
			if tc.reason == "BUDGET_EXCEEDED" && !strings.HasPrefix(c.Message, "budget exceeded for tokens: ") {
				t.Errorf("refusal message %q", c.Message)
			}
		})
	}
}

func TestTransientRetries(t *testing.T) {
	srv := testserver.Start(t)
	srv.Publish(t, `{"name": "recovers", "model": {"provider": "scripted", "script": {"turns": [{"text": "ok", "fail": {"httpStatus": 503, "times": 2}}]}}, "limits": {"transientRetryBudget": 3}}`)
	srv.Publish(t, `{"name": "spent", "model": {"provider": "scripted", "script": {"turns": [{"text": "ok", "fail": {"httpStatus": 429, "retryAfter": "0.05s", "times": 9}}]}}, "limits": {"transientRetryBudget": 2}}`)
	t.Run("recovers", func(t *testing.T) {
		run := srv.Settled(t, srv.Start(t, "recovers", "go").GetRunId())
		if run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED || run.GetUsage().GetTransientRetries() != 2 {
			t.Fatalf("state %v retries %d", run.GetState(), run.GetUsage().GetTransientRetries())
		}
	})
	t.Run("budget spent", func(t *testing.T) {
		run := srv.Settled(t, srv.Start(t, "spent", "go").GetRunId())
		c := errdetails.ClassifyStatus(run.GetFailure())
		if c.Reason != "INFERENCE_RATE_LIMITED" || !c.Retryable || c.Code != codes.ResourceExhausted {
			t.Fatalf("failure %+v: the last transient failure, with RetryInfo", c)
		}
		if run.GetUsage().GetTransientRetries() != 2 || run.GetUsage().GetModelCalls() != 3 {
			t.Errorf("usage %v", run.GetUsage())
		}
	})
}

// fakeOpenAI is a loopback server speaking chat completions; respond
// decides each answer from the request number.
type fakeOpenAI struct {
	mu       sync.Mutex
	requests []time.Time
	auth     []string
	srv      *httptest.Server
}

func newFakeOpenAI(t *testing.T, respond func(n int, w http.ResponseWriter)) *fakeOpenAI {
	f := &fakeOpenAI{}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		f.mu.Lock()
		f.requests = append(f.requests, time.Now())
		f.auth = append(f.auth, r.Header.Get("Authorization"))
		n := len(f.requests)
		f.mu.Unlock()
		respond(n, w)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeOpenAI) calls() ([]time.Time, []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]time.Time(nil), f.requests...), append([]string(nil), f.auth...)
}

const completion = `{"id": "chatcmpl-1", "object": "chat.completion", "created": 1764400000, "model": "gpt-4o-mini",
 "choices": [{"index": 0, "message": {"role": "assistant", "content": "Hello from the model."}, "finish_reason": "stop"}],
 "usage": {"prompt_tokens": 12, "completion_tokens": 5, "total_tokens": 17}}`

func TestOpenAIRetryAfterAndCredentials(t *testing.T) {
	t.Setenv("RUNSVC_SECRET_OPENAI_TEST_KEY", "sk-test-very-secret-4242")
	srv := testserver.Start(t)
	limited := newFakeOpenAI(t, func(n int, w http.ResponseWriter) {
		if n == 1 {
			w.Header().Set("Retry-After", "2")
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = io.WriteString(w, `{"error": {"message": "Rate limit reached for gpt-4o-mini", "type": "requests", "code": "rate_limit_exceeded"}}`)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, completion)
	})
	srv.Publish(t, fmt.Sprintf(`{"name": "openai", "model": {"provider": "openai", "model": "gpt-4o-mini", "baseUrl": %q, "apiKeyCredential": "openai_test_key"},
	  "credentials": [{"name": "openai_test_key"}]}`, limited.srv.URL+"/v1"))

	t.Run("429 retried after Retry-After", func(t *testing.T) {
		run := srv.Settled(t, srv.Start(t, "openai", "hello").GetRunId())
		if run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED || run.GetAnswer() != "Hello from the model." {
			t.Fatalf("state %v answer %q failure %v", run.GetState(), run.GetAnswer(), run.GetFailure())
		}
		times, auth := limited.calls()
		if len(times) != 2 {
			t.Fatalf("%d requests, want 2", len(times))
		}
		if gap := times[1].Sub(times[0]); gap < 2*time.Second {
			t.Errorf("retried after %v, before the 2s Retry-After", gap)
		}
		if auth[0] != "Bearer sk-test-very-secret-4242" {
			t.Errorf("Authorization %q", auth[0])
		}
	})

	t.Run("missing credential fails before any request", func(t *testing.T) {
		untouched := newFakeOpenAI(t, func(int, http.ResponseWriter) {})
		srv.Publish(t, fmt.Sprintf(`{"name": "nokey", "model": {"provider": "openai", "model": "gpt-4o-mini", "baseUrl": %q, "apiKeyCredential": "nobody_set_this"},
		  "credentials": [{"name": "nobody_set_this"}]}`, untouched.srv.URL+"/v1"))
		run := srv.Settled(t, srv.Start(t, "nokey", "hello").GetRunId())
		c := errdetails.ClassifyStatus(run.GetFailure())
		if c.Reason != "CREDENTIAL_NOT_FOUND" || c.Message != "no credential named 'nobody_set_this' resolved for tenants/default/specs/nokey" {
			t.Fatalf("failure %+v", c)
		}
		if times, _ := untouched.calls(); len(times) != 0 {
			t.Errorf("%d requests reached the model server", len(times))
		}
	})

	t.Run("no secret in logs, records or errors", func(t *testing.T) {
		echo := newFakeOpenAI(t, func(_ int, w http.ResponseWriter) {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, `{"error": {"message": "Incorrect API key provided: sk-test-very-secret-4242", "type": "invalid_request_error", "code": "invalid_api_key"}}`)
		})
		srv.Publish(t, fmt.Sprintf(`{"name": "echoes", "model": {"provider": "openai", "model": "gpt-4o-mini", "baseUrl": %q, "apiKeyCredential": "openai_test_key"},
		  "credentials": [{"name": "openai_test_key"}]}`, echo.srv.URL+"/v1"))
		run := srv.Settled(t, srv.Start(t, "echoes", "hello").GetRunId())
		if c := errdetails.ClassifyStatus(run.GetFailure()); c.Reason != "CONFIGURATION_INVALID" {
			t.Errorf("failure %+v", c)
		}
		var everything strings.Builder
		everything.WriteString(srv.Log.String())
		for _, id := range []string{run.GetRunId()} {
			b, _ := json.Marshal(srv.Records(t, id))
			everything.Write(b)
		}
		b, _ := json.Marshal(run)
		everything.Write(b)
		if strings.Contains(everything.String(), "very-secret-4242") {
			t.Fatal("the secret appears in a log line, a record or an error")
		}
	})
}

// TestApproval: a destructive tool suspends for approval naming the call;
// approval runs it, denial answers the model and the Run goes on.
func TestApproval(t *testing.T) {
	srv := testserver.Start(t, func(c *server.Config) { c.PolicyFile = "../../testdata/policy.json" })
	w := srv.StartWorker(t, "disks", map[string]testserver.ToolFunc{
		"wipe_disk": func(a map[string]any) (any, *runsvcv1.ToolError) { return "wiped " + fmt.Sprint(a["disk"]), nil },
	})
	srv.Publish(t, `{"name": "admin", "model": {"provider": "scripted", "script": {"turns": [
	  {"toolCalls": [{"name": "wipe_disk", "arguments": {"disk": "/dev/sdb"}}]}, {"text": "done"}]}},
	  "tools": [{"name": "wipe_disk", "kind": "TOOL_KIND_WORKER"}]}`)
	ctx := testserver.Context(t)
	for _, approve := range []bool{true, false} {
		t.Run(fmt.Sprintf("approved=%v", approve), func(t *testing.T) {
			before := w.Calls("wipe_disk")
			run := srv.Wait(t, srv.Start(t, "admin", "wipe it").GetRunId())
			sus := run.GetSuspension()
			if sus.GetReason() != runsvcv1.SuspensionReason_SUSPENSION_REASON_APPROVAL || sus.GetApprovalCall().GetName() != "wipe_disk" ||
				sus.GetApprovalCall().GetArguments().GetFields()["disk"].GetStringValue() != "/dev/sdb" || sus.GetApprovalReason() == "" {
				t.Fatalf("suspension %v", sus)
			}
			if _, err := srv.Runs.ResumeRun(ctx, &runsvcv1.ResumeRunRequest{RunId: run.GetRunId(), Approved: &approve, Note: "not today"}); err != nil {
				t.Fatal(err)
			}
			got := srv.Settled(t, run.GetRunId())
			if got.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED {
				t.Fatalf("state %v failure %v: a denial is an answer, not a failure", got.GetState(), got.GetFailure())
			}
			done := toolFinished(srv.Records(t, run.GetRunId()))[0]
			if approve {
				if done.GetOutput().GetStringValue() != "wiped /dev/sdb" || w.Calls("wipe_disk") != before+1 {
					t.Errorf("approved call: %v", done)
				}
				return
			}
			if w.Calls("wipe_disk") != before {
				t.Error("a denied call reached the worker")
			}
			if c := errdetails.ClassifyStatus(done.GetError()); !strings.Contains(c.Message, "not today") {
				t.Errorf("denial %+v", c)
			}
		})
	}
}

func TestToolNotFoundIsTheModelsResult(t *testing.T) {
	srv := testserver.Start(t)
	srv.Publish(t, `{"name": "typo", "model": {"provider": "scripted", "script": {"turns": [{"toolCalls": [{"name": "serach", "arguments": {}}]}, {"text": "sorry"}]}},
	  "tools": [{"name": "search", "kind": "TOOL_KIND_CLIENT"}, {"name": "fetch", "kind": "TOOL_KIND_CLIENT"}]}`)
	run := srv.Settled(t, srv.Start(t, "typo", "go").GetRunId())
	done := toolFinished(srv.Records(t, run.GetRunId()))
	if run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED || len(done) != 1 {
		t.Fatalf("state %v results %v", run.GetState(), done)
	}
	if c := errdetails.ClassifyStatus(done[0].GetError()); c.Reason != "TOOL_NOT_FOUND" || c.Message != "Tool not found: serach. Available tools: fetch, search" {
		t.Errorf("result %+v", c)
	}
}
