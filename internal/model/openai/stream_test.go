package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/model/openai"
)

// sse answers with the events as an OpenAI chat-completions stream,
// "data: [DONE]" last when done is set.
func sse(events []string, done bool) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		for _, e := range events {
			_, _ = fmt.Fprintf(w, "data: %s\n\n", e)
			w.(http.Flusher).Flush()
		}
		if done {
			_, _ = io.WriteString(w, "data: [DONE]\n\n")
		}
	}
}

// chunk is one chat.completion.chunk with a choice delta.
func chunk(delta, finish string) string {
	fr := "null"
	if finish != "" {
		fr = `"` + finish + `"`
	}
	return `{"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + fr + `}]}`
}

const usageChunk = `{"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini","choices":[],"usage":{"prompt_tokens":11,"completion_tokens":7,"total_tokens":18}}`

func TestCompleteStreams(t *testing.T) {
	tests := []struct {
		name       string
		events     []string
		wantText   string
		wantCalls  []model.ToolCall
		wantDeltas []model.Delta
	}{
		{
			name: "text deltas then usage",
			events: []string{
				chunk(`{"role":"assistant","content":""}`, ""),
				chunk(`{"content":"Hel"}`, ""), chunk(`{"content":"lo"}`, ""), chunk(`{}`, "stop"), usageChunk,
			},
			wantText:   "Hello",
			wantDeltas: []model.Delta{{Text: "Hel"}, {Text: "lo"}},
		},
		{
			name: "tool call pieces",
			events: []string{
				chunk(`{"tool_calls":[{"index":0,"id":"call_A","type":"function","function":{"name":"get_weather","arguments":""}}]}`, ""),
				chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\":"}}]}`, ""),
				chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"\"Paris\"}"}}]}`, ""),
				chunk(`{}`, "tool_calls"), usageChunk,
			},
			wantCalls: []model.ToolCall{{ID: "call_A", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)}},
			wantDeltas: []model.Delta{
				{ToolCall: &model.ToolCallDelta{Index: 0, ID: "call_A", Name: "get_weather"}},
				{ToolCall: &model.ToolCallDelta{Index: 0, Arguments: `{"city":`}},
				{ToolCall: &model.ToolCallDelta{Index: 0, Arguments: `"Paris"}`}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t, sse(tt.events, true))
			req := request(srv.URL + "/v1")
			var got []model.Delta
			req.OnDelta = func(d model.Delta) { got = append(got, d) }
			resp, err := openai.New(openai.Options{}).Complete(context.Background(), req)
			if err != nil {
				t.Fatalf("Complete: %v", err)
			}
			if resp.Text != tt.wantText || !reflect.DeepEqual(resp.ToolCalls, tt.wantCalls) {
				t.Errorf("got %q %+v, want %q %+v", resp.Text, resp.ToolCalls, tt.wantText, tt.wantCalls)
			}
			if resp.Usage != (model.Usage{InputTokens: 11, OutputTokens: 7}) {
				t.Errorf("usage %+v", resp.Usage)
			}
			if !reflect.DeepEqual(got, tt.wantDeltas) {
				t.Errorf("deltas %+v, want %+v", got, tt.wantDeltas)
			}
		})
	}
}

func TestCompleteStreamFailures(t *testing.T) {
	tests := []struct {
		name    string
		events  []string
		done    bool
		wantMsg string
	}{
		{name: "a stream cut before finish_reason", events: []string{chunk(`{"content":"Hel"}`, "")}, wantMsg: "ended before the answer was finished"},
		{name: "an error event mid-stream", events: []string{chunk(`{"content":"Hel"}`, ""), `{"error":{"message":"upstream overloaded","type":"server_error"}}`}, wantMsg: "upstream overloaded"},
		{name: "a chunk that is not JSON", events: []string{`{"choices":[`}, wantMsg: "malformed stream"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t, sse(tt.events, tt.done))
			_, err := openai.New(openai.Options{}).Complete(context.Background(), request(srv.URL))
			var failed *errs.InferenceFailed
			if !errors.As(err, &failed) {
				t.Fatalf("got %T %v, want *errs.InferenceFailed", err, err)
			}
			if !strings.Contains(failed.Message, tt.wantMsg) {
				t.Errorf("message %q, want it to hold %q", failed.Message, tt.wantMsg)
			}
		})
	}
}

func TestCompleteSendsControls(t *testing.T) {
	temp, topP, parallel := 0.2, 0.9, false
	tests := []struct {
		name   string
		modify func(*model.Request)
		want   map[string]any
		absent []string
	}{
		{
			name: "every control, a named tool and an output schema",
			modify: func(r *model.Request) {
				r.Model.Temperature, r.Model.TopP, r.Model.ParallelToolCalls = &temp, &topP, &parallel
				r.Model.Stop, r.Model.ToolChoice = []string{"END"}, "get_time"
				r.Tools = []model.Tool{{Name: "get_time"}}
				r.MaxTokens = 321
				r.OutputSchema = json.RawMessage(`{"type":"object"}`)
			},
			want: map[string]any{
				"temperature": 0.2, "top_p": 0.9, "parallel_tool_calls": false, "stop": []any{"END"}, "max_tokens": 321.0,
				"tool_choice":     map[string]any{"type": "function", "function": map[string]any{"name": "get_time"}},
				"response_format": map[string]any{"type": "json_schema", "json_schema": map[string]any{"name": "answer", "schema": map[string]any{"type": "object"}}},
			},
		},
		{
			name:   "no controls: none sent",
			modify: func(*model.Request) {},
			absent: []string{"temperature", "top_p", "parallel_tool_calls", "stop", "max_tokens", "tool_choice", "response_format"},
		},
		{
			name:   "a tool choice word",
			modify: func(r *model.Request) { r.Model.ToolChoice = "required"; r.MaxTokens = 5 },
			want:   map[string]any{"tool_choice": "required", "max_tokens": 5.0},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t, sse([]string{chunk(`{"content":"ok"}`, "stop")}, true))
			req := request(srv.URL)
			tt.modify(&req)
			if _, err := openai.New(openai.Options{}).Complete(context.Background(), req); err != nil {
				t.Fatalf("Complete: %v", err)
			}
			var body map[string]any
			if err := json.Unmarshal(srv.requests()[0].Body, &body); err != nil {
				t.Fatal(err)
			}
			for k, v := range tt.want {
				if !reflect.DeepEqual(body[k], v) {
					t.Errorf("%s = %#v, want %#v", k, body[k], v)
				}
			}
			for _, k := range tt.absent {
				if _, ok := body[k]; ok {
					t.Errorf("%s sent: %v", k, body[k])
				}
			}
		})
	}
}
