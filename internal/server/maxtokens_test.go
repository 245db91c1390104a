package server_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// toolThenAnswer is an OpenAI-compatible server on 127.0.0.1 that streams
// a tool call while the conversation holds no tool result, then an
// answer, each with usage; it keeps every request's max_tokens.
type toolThenAnswer struct {
	*httptest.Server
	mu        sync.Mutex
	maxTokens []any
}

func newToolThenAnswer(t *testing.T) *toolThenAnswer {
	t.Helper()
	s := &toolThenAnswer{}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(s.serve))
	_ = s.Listener.Close()
	s.Listener = l
	s.Start()
	t.Cleanup(s.Close)
	return s
}

func (s *toolThenAnswer) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	var body map[string]any
	_ = json.Unmarshal(raw, &body)
	s.mu.Lock()
	s.maxTokens = append(s.maxTokens, body["max_tokens"])
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	delta := `{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"lookup","arguments":"{}"}}]}`
	finish := "tool_calls"
	if strings.Contains(string(raw), `"role":"tool"`) {
		delta, finish = `{"content":"done"}`, "stop"
	}
	for _, e := range []string{
		`{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":` + delta + `,"finish_reason":"` + finish + `"}]}`,
		`{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":40,"completion_tokens":25,"total_tokens":65}}`,
		`[DONE]`,
	} {
		_, _ = fmt.Fprintf(w, "data: %s\n\n", e)
	}
}

// TestMaxTokensOnEveryRequest: every request carries max_tokens, equal to
// the smaller of the Spec's max_output_tokens and what the token budget
// leaves (budget - tokens used - the call's reserved input).
func TestMaxTokensOnEveryRequest(t *testing.T) {
	tests := []struct {
		name          string
		limit, budget int64
	}{
		{name: "the spec limit is smaller", limit: 50, budget: 100000},
		{name: "the budget left is smaller", limit: 5000, budget: 5100},
		{name: "no spec limit: the budget bounds", limit: 0, budget: 3000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			model := newToolThenAnswer(t)
			srv := testserver.Start(t)
			srv.StartWorker(t, "w", map[string]testserver.ToolFunc{"lookup": func(map[string]any) (any, *runsvcv1.ToolError) { return "ok", nil }})
			limit := ""
			if tt.limit > 0 {
				limit = fmt.Sprintf(`,"maxOutputTokens":%d`, tt.limit)
			}
			srv.Publish(t, fmt.Sprintf(`{"name":"bounded","model":{"provider":"openai","model":"m","baseUrl":"%s/v1"%s},
				"tools":[{"name":"lookup","kind":"TOOL_KIND_WORKER"}],"limits":{"tokenBudget":%d}}`, model.URL, limit, tt.budget))
			run := srv.Start(t, "bounded", strings.Repeat("a long question ", 200))
			if got := srv.Settled(t, run.GetRunId()); got.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED {
				t.Fatalf("run %v: %v", got.GetState(), got.GetFailure())
			}
			var want []any
			var used int64
			for _, r := range srv.Records(t, run.GetRunId()) {
				if st := r.GetModelCallStarted(); st != nil {
					bound := tt.budget - used - st.GetReservedTokens()
					if tt.limit > 0 {
						bound = min(bound, tt.limit)
					}
					want = append(want, float64(bound))
				}
				if f := r.GetModelCallFinished(); f != nil {
					used += f.GetInputTokens() + f.GetOutputTokens()
				}
			}
			model.mu.Lock()
			got := model.maxTokens
			model.mu.Unlock()
			if len(got) != 2 || fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("max_tokens sent %v, want %v", got, want)
			}
		})
	}
}
