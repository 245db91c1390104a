package openai_test

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/spec"
)

// testKey is the API key every test sends; no error may ever show it.
const testKey = "sk-proj-T3stK3y0123456789abcdefghijSECRET"

// seen is a request the fake server received.
type seen struct {
	Method, Path, ContentType, UserAgent string
	Auth                                 []string
	Body                                 []byte
}

// fakeServer is an OpenAI-compatible server on 127.0.0.1 that records
// every request before handing it to its handler.
type fakeServer struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []seen
}

func newServer(t *testing.T, h http.HandlerFunc) *fakeServer {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	fs := &fakeServer{}
	fs.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		fs.mu.Lock()
		fs.reqs = append(fs.reqs, seen{
			Method: r.Method, Path: r.URL.Path,
			ContentType: r.Header.Get("Content-Type"), UserAgent: r.Header.Get("User-Agent"),
			Auth: r.Header.Values("Authorization"), Body: body,
		})
		fs.mu.Unlock()
		h(w, r)
	}))
	_ = fs.Listener.Close()
	fs.Listener = l
	fs.Start()
	t.Cleanup(fs.Close)
	return fs
}

// requests returns what the server has received so far.
func (fs *fakeServer) requests() []seen {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return append([]seen(nil), fs.reqs...)
}

// reply answers with status, headers and body.
func reply(status int, header map[string]string, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		if body != "" {
			w.Header().Set("Content-Type", "application/json")
		}
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

// request is a call of turn 3 to gpt-4o-mini at base.
func request(base string) model.Request {
	return model.Request{
		RunID:   "run-7f3a",
		Turn:    3,
		Attempt: 1,
		Model: spec.Model{
			Provider:         spec.ProviderOpenAI,
			Model:            "gpt-4o-mini",
			BaseURL:          base,
			APIKeyCredential: "openai-key",
			CallTimeout:      5 * time.Second,
		},
		APIKey:   testKey,
		Messages: []model.Message{{Role: model.RoleUser, Text: "What is the capital of France?"}},
	}
}

// sameJSON reports whether a and b hold the same JSON value.
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Fatalf("not JSON: %v: %s", err, a)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatalf("not JSON: %v: %s", err, b)
	}
	ja, _ := json.Marshal(va)
	jb, _ := json.Marshal(vb)
	return string(ja) == string(jb)
}

// Bodies in the shape OpenAI's API sends.
const (
	plainAnswer = `{
  "id": "chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT",
  "object": "chat.completion",
  "created": 1741569952,
  "model": "gpt-4o-mini-2024-07-18",
  "choices": [
    {
      "index": 0,
      "message": {
        "role": "assistant",
        "content": "The capital of France is Paris.",
        "refusal": null,
        "annotations": []
      },
      "logprobs": null,
      "finish_reason": "stop"
    }
  ],
  "usage": {
    "prompt_tokens": 19,
    "completion_tokens": 8,
    "total_tokens": 27,
    "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
    "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 0, "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0}
  },
  "service_tier": "default",
  "system_fingerprint": "fp_06737a9306"
}`

	toolCallAnswer = `{
  "id": "chatcmpl-AbC123xyzToolCalls",
  "object": "chat.completion",
  "created": 1699896916,
  "model": "gpt-4o-mini-2024-07-18",
  "choices": [
    {
      "index": 0,
      "message": {
        "role": "assistant",
        "content": null,
        "tool_calls": [
          {"id": "call_Ab12Cd34", "type": "function", "function": {"name": "get_weather", "arguments": "{\n\"city\": \"Paris\",\n\"unit\": \"celsius\"\n}"}},
          {"id": "call_Ef56Gh78", "type": "function", "function": {"name": "get_time", "arguments": "{}"}}
        ],
        "refusal": null
      },
      "logprobs": null,
      "finish_reason": "tool_calls"
    }
  ],
  "usage": {"prompt_tokens": 82, "completion_tokens": 37, "total_tokens": 119},
  "system_fingerprint": "fp_44709d6fcb"
}`

	rawArgumentsAnswer = `{
  "id": "chatcmpl-RawArgs0001",
  "object": "chat.completion",
  "created": 1699896917,
  "model": "gpt-4o-mini-2024-07-18",
  "choices": [
    {
      "index": 0,
      "message": {
        "role": "assistant",
        "content": null,
        "tool_calls": [
          {"id": "call_Trunc9", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Par"}}
        ]
      },
      "logprobs": null,
      "finish_reason": "length"
    }
  ],
  "usage": {"prompt_tokens": 82, "completion_tokens": 5, "total_tokens": 87}
}`

	missingIDsAnswer = `{
  "id": "chatcmpl-local-42",
  "object": "chat.completion",
  "created": 1718000000,
  "model": "llama3.1:8b",
  "choices": [
    {
      "index": 0,
      "message": {
        "role": "assistant",
        "content": "",
        "tool_calls": [
          {"type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Oslo\"}"}},
          {"type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Bergen\"}"}}
        ]
      },
      "finish_reason": "tool_calls"
    }
  ],
  "usage": {"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150}
}`
)
