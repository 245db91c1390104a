package anthropic_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/model/anthropic"
	"github.com/runsvc/runsvc/internal/spec"
)

const testKey = "sk-ant-T3stK3y0123456789SECRET"

// fake is a Messages API server on 127.0.0.1 that keeps what it received.
type fake struct {
	*httptest.Server
	mu      sync.Mutex
	bodies  [][]byte
	headers []http.Header
}

func newFake(t *testing.T, h http.HandlerFunc) *fake {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &fake{}
	f.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		f.bodies, f.headers = append(f.bodies, b), append(f.headers, r.Header.Clone())
		f.mu.Unlock()
		if r.URL.Path != "/v1/messages" {
			http.NotFound(w, r)
			return
		}
		h(w, r)
	}))
	_ = f.Listener.Close()
	f.Listener = l
	f.Start()
	t.Cleanup(f.Close)
	return f
}

// events streams SSE events given as type, data pairs.
func events(pairs ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i := 0; i+1 < len(pairs); i += 2 {
			_, _ = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", pairs[i], pairs[i+1])
		}
	}
}

func reply(status int, header map[string]string, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

func request(base string) model.Request {
	return model.Request{
		RunID: "run-1", Turn: 2, Attempt: 1,
		Model:    spec.Model{Provider: spec.ProviderAnthropic, Model: "claude-test", BaseURL: base, APIKeyCredential: "ant", CallTimeout: 5 * time.Second},
		APIKey:   testKey,
		Messages: []model.Message{{Role: model.RoleUser, Text: "Hi"}},
	}
}

var (
	start     = `{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"claude-test","content":[],"usage":{"input_tokens":21,"output_tokens":1}}}`
	stop      = `{"type":"message_stop"}`
	msgDelta  = `{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":9}}`
	textStart = `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`
)

func textDelta(s string) string {
	return `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"` + s + `"}}`
}

func TestCompleteStreamsTextAndToolUse(t *testing.T) {
	srv := newFake(t, events(
		"message_start", start, "content_block_start", textStart, "ping", `{"type":"ping"}`,
		"content_block_delta", textDelta("Let me "), "content_block_delta", textDelta("check."),
		"content_block_stop", `{"type":"content_block_stop","index":0}`,
		"content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{}}}`,
		"content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"city\":"}}`,
		"content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"\"Paris\"}"}}`,
		"content_block_stop", `{"type":"content_block_stop","index":1}`,
		"message_delta", msgDelta, "message_stop", stop,
	))
	req := request(srv.URL)
	var got []model.Delta
	req.OnDelta = func(d model.Delta) { got = append(got, d) }
	resp, err := anthropic.New(anthropic.Options{}).Complete(context.Background(), req)
	if err != nil {
		t.Fatalf("Complete: %v", err)
	}
	want := model.Response{
		Text:      "Let me check.",
		ToolCalls: []model.ToolCall{{ID: "toolu_1", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)}},
		Usage:     model.Usage{InputTokens: 21, OutputTokens: 9},
	}
	if !reflect.DeepEqual(resp, want) {
		t.Errorf("got %+v, want %+v", resp, want)
	}
	wantDeltas := []model.Delta{
		{Text: "Let me "}, {Text: "check."},
		{ToolCall: &model.ToolCallDelta{Index: 0, ID: "toolu_1", Name: "get_weather"}},
		{ToolCall: &model.ToolCallDelta{Index: 0, Arguments: `{"city":`}},
		{ToolCall: &model.ToolCallDelta{Index: 0, Arguments: `"Paris"}`}},
	}
	if !reflect.DeepEqual(got, wantDeltas) {
		t.Errorf("deltas %+v, want %+v", got, wantDeltas)
	}
	if h := srv.headers[0]; h.Get("X-Api-Key") != testKey || h.Get("Anthropic-Version") == "" || h.Get("Authorization") != "" {
		t.Errorf("headers x-api-key %q, anthropic-version %q, authorization %q", h.Get("X-Api-Key"), h.Get("Anthropic-Version"), h.Get("Authorization"))
	}
}

func TestCompleteRequestBody(t *testing.T) {
	temp, parallel := 0.3, false
	srv := newFake(t, events("message_start", start, "message_delta", msgDelta, "message_stop", stop))
	req := request(srv.URL)
	req.Messages = []model.Message{
		{Role: model.RoleSystem, Text: "Be brief."},
		{Role: model.RoleUser, Text: "Weather in Paris?"},
		{Role: model.RoleAssistant, Text: "Checking.", ToolCalls: []model.ToolCall{{ID: "toolu_1", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)}}},
		{Role: model.RoleTool, CallID: "toolu_1", Name: "get_weather", Text: `{"temp_c":18}`},
		{Role: model.RoleUser, Text: "Thanks"},
	}
	req.Tools = []model.Tool{{Name: "get_weather", Description: "Weather.", Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}`)}}
	req.Model.Temperature, req.Model.ParallelToolCalls = &temp, &parallel
	req.Model.Stop, req.Model.ToolChoice = []string{"END"}, "get_weather"
	req.MaxTokens = 777
	req.OutputSchema = json.RawMessage(`{"type":"object"}`)
	if _, err := anthropic.New(anthropic.Options{}).Complete(context.Background(), req); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	wantBody := `{
	  "model": "claude-test", "max_tokens": 777, "stream": true, "temperature": 0.3, "stop_sequences": ["END"],
	  "system": [{"type": "text", "text": "Be brief."}],
	  "messages": [
	    {"role": "user", "content": [{"type": "text", "text": "Weather in Paris?"}]},
	    {"role": "assistant", "content": [{"type": "text", "text": "Checking."}, {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}}]},
	    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": [{"type": "text", "text": "{\"temp_c\":18}"}], "is_error": false}, {"type": "text", "text": "Thanks"}]}
	  ],
	  "tools": [{"name": "get_weather", "description": "Weather.", "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"], "additionalProperties": false}}],
	  "tool_choice": {"type": "tool", "name": "get_weather", "disable_parallel_tool_use": true},
	  "output_config": {"format": {"type": "json_schema", "schema": {"type": "object"}}}
	}`
	var got, want any
	_ = json.Unmarshal(srv.bodies[0], &got)
	_ = json.Unmarshal([]byte(wantBody), &want)
	if !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		t.Errorf("body\n%s\nwant\n%s", g, wantBody)
	}
}

func TestCompleteFailures(t *testing.T) {
	overloaded := `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`
	tests := []struct {
		name       string
		handler    http.HandlerFunc
		check      func(error) bool
		want       string
		retryAfter time.Duration
	}{
		{name: "429 is a rate limit with Retry-After", handler: reply(429, map[string]string{"Retry-After": "7"}, `{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`),
			check: is[*errs.InferenceRateLimited], want: "rate_limit_error: slow down", retryAfter: 7 * time.Second},
		{name: "529 overloaded is retryable", handler: reply(529, nil, overloaded), check: is[*errs.InferenceFailed], want: "overloaded_error: Overloaded"},
		{name: "500 is retryable", handler: reply(500, nil, `{"type":"error","error":{"type":"api_error","message":"oops"}}`), check: is[*errs.InferenceFailed], want: "api_error: oops"},
		{name: "400 is refused as made", handler: reply(400, nil, `{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: too big"}}`),
			check: is[*errs.InferenceRejected], want: "invalid_request_error: max_tokens: too big"},
		{name: "404 unknown model is refused", handler: reply(404, nil, `{"type":"error","error":{"type":"not_found_error","message":"model: claude-nope"}}`), check: is[*errs.InferenceRejected], want: "claude-nope"},
		{name: "401 is a configuration problem and hides an echoed key", handler: reply(401, nil, `{"type":"error","error":{"type":"authentication_error","message":"bad key `+testKey+`"}}`),
			check: is[*errs.ConfigurationInvalid], want: "[redacted]"},
		{name: "overloaded_error in the stream is retryable", handler: events("message_start", start, "content_block_delta", textDelta("Hel"), "error", overloaded),
			check: is[*errs.InferenceFailed], want: "overloaded_error: Overloaded"},
		{name: "rate_limit_error in the stream is a rate limit", handler: events("message_start", start, "error", `{"type":"error","error":{"type":"rate_limit_error","message":"later"}}`),
			check: is[*errs.InferenceRateLimited], want: "later"},
		{name: "a stream cut before message_stop is retryable", handler: events("message_start", start, "content_block_delta", textDelta("Hel")),
			check: is[*errs.InferenceFailed], want: "ended before the answer was finished"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newFake(t, tt.handler)
			_, err := anthropic.New(anthropic.Options{}).Complete(context.Background(), request(srv.URL))
			if !tt.check(err) {
				t.Fatalf("got %T %v", err, err)
			}
			if !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), testKey) {
				t.Errorf("error %q, want it to hold %q and not the key", err, tt.want)
			}
			var rl *errs.InferenceRateLimited
			if errors.As(err, &rl) && rl.RetryAfter != tt.retryAfter {
				t.Errorf("retry after %v, want %v", rl.RetryAfter, tt.retryAfter)
			}
			if n := len(srv.bodies); n != 1 {
				t.Errorf("the server saw %d requests, want 1 (no SDK retries)", n)
			}
		})
	}
}

func TestCompleteWithoutServer(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	_, err = anthropic.New(anthropic.Options{}).Complete(context.Background(), request("http://"+addr))
	if !is[*errs.InferenceFailed](err) {
		t.Fatalf("connection refused: got %T %v, want *errs.InferenceFailed", err, err)
	}
	req := request("http://" + addr)
	req.APIKey = ""
	if _, err := anthropic.New(anthropic.Options{}).Complete(context.Background(), req); !is[*errs.CredentialNotFound](err) {
		t.Fatalf("unresolved key: got %T %v, want *errs.CredentialNotFound", err, err)
	}
}

// is reports whether err is a T.
func is[T error](err error) bool {
	var target T
	return errors.As(err, &target)
}
