package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"testing"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/model/openai"
)

func TestCompleteAnswers(t *testing.T) {
	tests := []struct {
		name string
		body string
		want model.Response
	}{
		{
			name: "plain answer",
			body: plainAnswer,
			want: model.Response{
				Text:  "The capital of France is Paris.",
				Usage: model.Usage{InputTokens: 19, OutputTokens: 8},
			},
		},
		{
			name: "tool calls with arguments parsed",
			body: toolCallAnswer,
			want: model.Response{
				ToolCalls: []model.ToolCall{
					{ID: "call_Ab12Cd34", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris","unit":"celsius"}`)},
					{ID: "call_Ef56Gh78", Name: "get_time", Arguments: json.RawMessage(`{}`)},
				},
				Usage: model.Usage{InputTokens: 82, OutputTokens: 37},
			},
		},
		{
			name: "arguments that are not JSON pass through as _raw",
			body: rawArgumentsAnswer,
			want: model.Response{
				ToolCalls: []model.ToolCall{
					{ID: "call_Trunc9", Name: "get_weather", Arguments: json.RawMessage(`{"_raw":"{\"city\": \"Par"}`)},
				},
				Usage: model.Usage{InputTokens: 82, OutputTokens: 5},
			},
		},
		{
			name: "missing call ids are made from the turn and index",
			body: missingIDsAnswer,
			want: model.Response{
				ToolCalls: []model.ToolCall{
					{ID: "call_3_0", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Oslo"}`)},
					{ID: "call_3_1", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Bergen"}`)},
				},
				Usage: model.Usage{InputTokens: 120, OutputTokens: 30},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t, reply(http.StatusOK, nil, tt.body))
			got, err := openai.New(openai.Options{}).Complete(context.Background(), request(srv.URL+"/v1"))
			if err != nil {
				t.Fatalf("Complete: %v", err)
			}
			if got.Text != tt.want.Text || got.Usage != tt.want.Usage {
				t.Errorf("got text %q usage %+v, want %q %+v", got.Text, got.Usage, tt.want.Text, tt.want.Usage)
			}
			if len(got.ToolCalls) != len(tt.want.ToolCalls) {
				t.Fatalf("got %d tool calls, want %d: %+v", len(got.ToolCalls), len(tt.want.ToolCalls), got.ToolCalls)
			}
			for i, w := range tt.want.ToolCalls {
				g := got.ToolCalls[i]
				if g.ID != w.ID || g.Name != w.Name {
					t.Errorf("call %d: got %s %s, want %s %s", i, g.ID, g.Name, w.ID, w.Name)
				}
				if !sameJSON(t, g.Arguments, w.Arguments) {
					t.Errorf("call %d: arguments %s, want %s", i, g.Arguments, w.Arguments)
				}
			}
		})
	}
}

// conversation is a turn after a round of tool calls.
var conversation = []model.Message{
	{Role: model.RoleSystem, Text: "You are a weather assistant."},
	{Role: model.RoleUser, Text: "What's the weather in Paris and Boston?"},
	{Role: model.RoleAssistant, ToolCalls: []model.ToolCall{
		{ID: "call_Ab12", Name: "get_weather", Arguments: json.RawMessage(`{"city": "Paris"}`)},
		{ID: "call_Cd34", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Boston"}`)},
	}},
	{Role: model.RoleTool, CallID: "call_Ab12", Name: "get_weather", Text: `{"temp_c":18}`},
	{Role: model.RoleTool, CallID: "call_Cd34", Name: "get_weather", Text: `{"temp_c":12}`},
	{Role: model.RoleAssistant, Text: "Paris is 18°C and Boston 12°C."},
	{Role: model.RoleUser, Text: "Thanks!"},
}

var tools = []model.Tool{
	{
		Name:        "get_weather",
		Description: "Current weather for a city.",
		Parameters:  json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`),
	},
	{Name: "get_time", Description: "The current time."},
}

const conversationBody = `{
  "model": "gpt-4o-mini",
  "stream": true,
  "stream_options": {"include_usage": true},
  "messages": [
    {"role": "system", "content": "You are a weather assistant."},
    {"role": "user", "content": "What's the weather in Paris and Boston?"},
    {"role": "assistant", "tool_calls": [
      {"id": "call_Ab12", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}},
      {"id": "call_Cd34", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Boston\"}"}}
    ]},
    {"role": "tool", "tool_call_id": "call_Ab12", "content": "{\"temp_c\":18}"},
    {"role": "tool", "tool_call_id": "call_Cd34", "content": "{\"temp_c\":12}"},
    {"role": "assistant", "content": "Paris is 18°C and Boston 12°C."},
    {"role": "user", "content": "Thanks!"}
  ],
  "tools": [
    {"type": "function", "function": {"name": "get_weather", "description": "Current weather for a city.",
      "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}},
    {"type": "function", "function": {"name": "get_time", "description": "The current time."}}
  ]
}`

func TestCompleteRequest(t *testing.T) {
	tests := []struct {
		name      string
		path      string
		apiKey    string
		messages  []model.Message
		tools     []model.Tool
		userAgent string
		wantBody  string
		wantAuth  []string
		wantUA    string
	}{
		{
			name:      "conversation with tool calls and results, with a key",
			path:      "/v1",
			apiKey:    testKey,
			messages:  conversation,
			tools:     tools,
			userAgent: "runsvc-test/1.0",
			wantBody:  conversationBody,
			wantAuth:  []string{"Bearer " + testKey},
			wantUA:    "runsvc-test/1.0",
		},
		{
			name:     "no key, no tools, trailing slash on the base URL",
			path:     "/v1/",
			messages: []model.Message{{Role: model.RoleUser, Text: "Hi"}},
			wantBody: `{"model":"gpt-4o-mini","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"Hi"}]}`,
			wantUA:   openai.DefaultUserAgent,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t, reply(http.StatusOK, nil, plainAnswer))
			req := request(srv.URL + tt.path)
			req.APIKey = tt.apiKey
			if tt.apiKey == "" {
				req.Model.APIKeyCredential = ""
			}
			req.Messages, req.Tools = tt.messages, tt.tools
			p := openai.New(openai.Options{UserAgent: tt.userAgent})
			if _, err := p.Complete(context.Background(), req); err != nil {
				t.Fatalf("Complete: %v", err)
			}
			got := srv.requests()
			if len(got) != 1 {
				t.Fatalf("server saw %d requests, want 1", len(got))
			}
			r := got[0]
			if r.Method != http.MethodPost || r.Path != "/v1/chat/completions" {
				t.Errorf("got %s %s, want POST /v1/chat/completions", r.Method, r.Path)
			}
			if r.ContentType != "application/json" {
				t.Errorf("Content-Type %q", r.ContentType)
			}
			if r.UserAgent != tt.wantUA {
				t.Errorf("User-Agent %q, want %q", r.UserAgent, tt.wantUA)
			}
			if !reflect.DeepEqual(r.Auth, tt.wantAuth) {
				t.Errorf("Authorization %q, want %q", r.Auth, tt.wantAuth)
			}
			if !sameJSON(t, r.Body, []byte(tt.wantBody)) {
				t.Errorf("body\n%s\nwant\n%s", r.Body, tt.wantBody)
			}
		})
	}
}

func TestCompleteUnresolvedCredential(t *testing.T) {
	srv := newServer(t, reply(http.StatusOK, nil, plainAnswer))
	req := request(srv.URL + "/v1")
	req.APIKey = ""
	_, err := openai.New(openai.Options{}).Complete(context.Background(), req)
	var cnf *errs.CredentialNotFound
	if !errors.As(err, &cnf) || cnf.Name != "openai-key" {
		t.Fatalf("got %v, want CredentialNotFound for openai-key", err)
	}
	if n := len(srv.requests()); n != 0 {
		t.Errorf("the server was called %d times without the key", n)
	}
}
