// Package fakeopenai is an OpenAI-compatible chat-completions server for
// tests: it binds 127.0.0.1 on a free port, answers each request with the
// next scripted turn (as JSON, or as SSE chunks when the request asks to
// stream), keeps every request body, and stops when the test ends.
package fakeopenai

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"golang.org/x/time/rate"
)

// Call is a tool call a turn asks for; Args is the JSON arguments string.
type Call struct {
	ID, Name, Args string
}

// Turn is one response: text, tool calls, or both.
type Turn struct {
	Text  string
	Calls []Call
	// Refuse, when set, answers with this OpenAI error instead.
	Refuse *Refusal
}

// Refusal is an OpenAI error response: an HTTP status and the error's
// code and message, e.g. 400 context_length_exceeded.
type Refusal struct {
	Status        int
	Code, Message string
}

// Server is a running fake.
type Server struct {
	// URL is the base URL to give a Spec's model (…/v1).
	URL      string
	opts     Options
	limit    *rate.Limiter
	mu       sync.Mutex
	requests []map[string]any
	limited  int
}

// Options change how the fake answers.
type Options struct {
	// RequestsPer allows this many requests each Window (a token bucket
	// of that size, refilled over Window) and answers the rest 429 with
	// Retry-After, retry-after-ms and x-ratelimit-* headers, which every
	// answer carries. Zero allows every request.
	RequestsPer int
	// Window is the rate limit's "minute"; a test shortens it. Default
	// time.Minute.
	Window time.Duration
	// ByConversation picks the turn by the request's conversation rather
	// than the order of requests: a request holding n assistant messages
	// gets turns[n] (or the last), so concurrent Runs each go through
	// every turn.
	ByConversation bool
}

// Start serves turns until the test ends: the i-th request gets turns[i],
// and every request past the last gets the last.
func Start(t testing.TB, turns ...Turn) *Server {
	t.Helper()
	return StartWith(t, Options{}, turns...)
}

// StartWith serves turns as Start does, with opts.
func StartWith(t testing.TB, opts Options, turns ...Turn) *Server {
	t.Helper()
	if len(turns) == 0 {
		t.Fatal("fakeopenai: no turns")
	}
	f := &Server{opts: opts}
	if opts.RequestsPer > 0 {
		if opts.Window <= 0 {
			opts.Window = time.Minute
		}
		f.limit = rate.NewLimiter(rate.Limit(float64(opts.RequestsPer)/opts.Window.Seconds()), opts.RequestsPer)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req map[string]any
		if err := json.Unmarshal(body, &req); err != nil {
			http.Error(w, `{"error":{"message":"bad json"}}`, http.StatusBadRequest)
			return
		}
		if f.rateLimited(w) {
			return
		}
		f.mu.Lock()
		f.requests = append(f.requests, req)
		i := len(f.requests)
		if opts.ByConversation {
			i = assistantMessages(req) + 1
		}
		turn := turns[min(i, len(turns))-1]
		f.mu.Unlock()
		if r := turn.Refuse; r != nil {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(r.Status)
			_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": r.Message, "type": "invalid_request_error", "code": r.Code}})
			return
		}
		if stream, _ := req["stream"].(bool); stream {
			writeStream(w, turn)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-1", "object": "chat.completion", "created": 1764400000, "model": "fake",
			"choices": []any{map[string]any{"index": 0, "finish_reason": finish(turn), "message": turn.message(false)}},
			"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
		})
	}))
	t.Cleanup(srv.Close)
	f.URL = srv.URL + "/v1"
	return f
}

func finish(turn Turn) string {
	if len(turn.Calls) > 0 {
		return "tool_calls"
	}
	return "stop"
}

// message is the turn as an assistant message, or as a stream delta.
func (turn Turn) message(delta bool) map[string]any {
	m := map[string]any{"role": "assistant", "content": turn.Text}
	var calls []any
	for i, c := range turn.Calls {
		call := map[string]any{"id": c.ID, "type": "function", "function": map[string]any{"name": c.Name, "arguments": c.Args}}
		if delta {
			call["index"] = i
		}
		calls = append(calls, call)
	}
	if len(calls) > 0 {
		m["tool_calls"] = calls
	}
	return m
}

// writeStream sends the turn as chat.completion.chunk events, usage last.
func writeStream(w http.ResponseWriter, turn Turn) {
	w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(v map[string]any) {
		v["id"], v["object"], v["created"], v["model"] = "chatcmpl-1", "chat.completion.chunk", 1764400000, "fake"
		b, _ := json.Marshal(v)
		_, _ = fmt.Fprintf(w, "data: %s\n\n", b)
	}
	chunk(map[string]any{"choices": []any{map[string]any{"index": 0, "delta": turn.message(true)}}})
	chunk(map[string]any{"choices": []any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": finish(turn)}}})
	chunk(map[string]any{"choices": []any{}, "usage": map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})
	_, _ = io.WriteString(w, "data: [DONE]\n\n")
}

// Requests returns the request bodies received so far.
func (f *Server) Requests() []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]map[string]any(nil), f.requests...)
}

// Messages returns a request body's messages.
func Messages(req map[string]any) []map[string]any {
	raw, _ := req["messages"].([]any)
	out := make([]map[string]any, 0, len(raw))
	for _, m := range raw {
		mm, _ := m.(map[string]any)
		out = append(out, mm)
	}
	return out
}

// rateLimited answers 429 when the request is over the rate limit, and
// sets the x-ratelimit-* headers of every answer.
func (f *Server) rateLimited(w http.ResponseWriter) bool {
	if f.limit == nil {
		return false
	}
	now := time.Now()
	r := f.limit.ReserveN(now, 1)
	delay := r.DelayFrom(now)
	h := w.Header()
	h.Set("X-Ratelimit-Limit-Requests", strconv.Itoa(f.opts.RequestsPer))
	if delay <= 0 {
		h.Set("X-Ratelimit-Remaining-Requests", strconv.Itoa(int(f.limit.TokensAt(now))))
		h.Set("X-Ratelimit-Reset-Requests", time.Duration(float64(time.Second)/float64(f.limit.Limit())).String())
		return false
	}
	r.CancelAt(now)
	f.mu.Lock()
	f.limited++
	f.mu.Unlock()
	h.Set("X-Ratelimit-Remaining-Requests", "0")
	h.Set("X-Ratelimit-Reset-Requests", delay.String())
	h.Set("Retry-After-Ms", strconv.FormatInt(max(delay.Milliseconds(), 1), 10))
	h.Set("Retry-After", strconv.Itoa(int(math.Ceil(delay.Seconds()))))
	h.Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusTooManyRequests)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": "Rate limit reached for requests", "type": "requests", "code": "rate_limit_exceeded"}})
	return true
}

// RateLimited returns how many requests were answered 429 so far.
func (f *Server) RateLimited() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.limited
}

// assistantMessages counts a request's assistant messages.
func assistantMessages(req map[string]any) int {
	n := 0
	for _, m := range Messages(req) {
		if m["role"] == "assistant" {
			n++
		}
	}
	return n
}
