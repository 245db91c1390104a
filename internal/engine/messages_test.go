package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/model/scripted"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestConcurrentMessagesAllRecorded: 100 SendMessage calls at once on one
// suspended Run all succeed, and the log holds each message once, in 100
// distinct Records: contention between outsiders never reaches a caller.
func TestConcurrentMessagesAllRecorded(t *testing.T) {
	srv := testserver.Start(t)
	srv.Publish(t, clientSpec)
	run := srv.Wait(t, srv.Start(t, "weather", "hi").GetRunId())
	if run.GetState() != runsvcv1.RunState_RUN_STATE_SUSPENDED {
		t.Fatalf("run is %v, want suspended", run.GetState())
	}
	const n = 100
	ctx := testserver.Context(t)
	seqs := make(chan int64, n)
	var wg sync.WaitGroup
	var failures sync.Map
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := srv.Runs.SendMessage(ctx, &runsvcv1.SendMessageRequest{RunId: run.GetRunId(), Text: fmt.Sprint("note ", i)})
			if err != nil {
				failures.Store(i, err)
				return
			}
			seqs <- resp.GetSeq()
		}()
	}
	wg.Wait()
	close(seqs)
	errors := 0
	failures.Range(func(k, v any) bool {
		errors++
		t.Errorf("message %v: %v", k, v)
		return true
	})
	distinct := map[int64]bool{}
	for s := range seqs {
		distinct[s] = true
	}
	recorded := map[string]int{}
	for _, r := range srv.RecordsSoFar(t, run.GetRunId()) {
		if m := r.GetMessageQueued(); m != nil {
			recorded[m.GetText()]++
		}
	}
	t.Logf("%d sent, %d errors, %d distinct seqs returned, %d messages recorded", n, errors, len(distinct), len(recorded))
	if len(distinct) != n || len(recorded) != n {
		t.Errorf("%d distinct seqs and %d messages recorded, want %d each", len(distinct), len(recorded), n)
	}
	for text, c := range recorded {
		if c != 1 {
			t.Errorf("%q recorded %d times", text, c)
		}
	}
}

// recordingModel is the scripted model with every request kept, and a
// signal when a call of the watched turn starts.
type recordingModel struct {
	inner   model.Model
	watch   int
	started chan struct{}
	mu      sync.Mutex
	reqs    []model.Request
}

func (m *recordingModel) Complete(ctx context.Context, req model.Request) (model.Response, error) {
	m.mu.Lock()
	m.reqs = append(m.reqs, req)
	m.mu.Unlock()
	if req.Turn == m.watch {
		select {
		case m.started <- struct{}{}:
		default:
		}
	}
	return m.inner.Complete(ctx, req)
}

func (m *recordingModel) requests() []model.Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]model.Request(nil), m.reqs...)
}

// lastUserTexts returns the user messages of a request.
func userTexts(req model.Request) []string {
	var out []string
	for _, m := range req.Messages {
		if m.Role == model.RoleUser {
			out = append(out, m.Text)
		}
	}
	return out
}

var messageModes = []struct {
	name string
	mode runsvcv1.MessageMode
}{
	{"follow-up", runsvcv1.MessageMode_MESSAGE_MODE_FOLLOW_UP},
	{"steer", runsvcv1.MessageMode_MESSAGE_MODE_STEER},
}

// TestMessageDuringLastModelCallScripted: a message accepted while the
// model call that would end the Run is in flight (a scripted turn with a
// delay) gets another turn, in both modes: the next request to the model
// carries its text, and the Run completes with that turn's answer.
func TestMessageDuringLastModelCallScripted(t *testing.T) {
	rec := &recordingModel{inner: scripted.New(clock.Real{}), watch: 1, started: make(chan struct{}, 1)}
	srv := testserver.Start(t, func(c *server.Config) { c.Models = model.Providers{"scripted": rec} })
	srv.Publish(t, `{"name": "slow-answer", "model": {"provider": "scripted", "script": {"turns": [
	  {"text": "first answer", "delay": "1s"}, {"text": "answer after the message"}]}}}`)
	for _, tc := range messageModes {
		t.Run(tc.name, func(t *testing.T) {
			run := srv.Start(t, "slow-answer", "hello")
			<-rec.started
			text := "also consider " + tc.name + " " + run.GetRunId()
			if _, err := srv.Runs.SendMessage(testserver.Context(t), &runsvcv1.SendMessageRequest{RunId: run.GetRunId(), Text: text, Mode: tc.mode}); err != nil {
				t.Fatal(err)
			}
			got := srv.Settled(t, run.GetRunId())
			if got.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED || got.GetAnswer() != "answer after the message" {
				t.Fatalf("state %v answer %q: the message got no turn", got.GetState(), got.GetAnswer())
			}
			var next *model.Request
			for _, r := range rec.requests() {
				if r.RunID == run.GetRunId() && r.Turn == 2 {
					next = &r
				}
			}
			if next == nil {
				t.Fatal("no second model call")
			}
			if texts := userTexts(*next); texts[len(texts)-1] != text {
				t.Errorf("the next model request's user messages are %q, want the message last", texts)
			}
		})
	}
}

// TestMessageDuringLastModelCallOpenAI: the same over an OpenAI-compatible
// server on 127.0.0.1 that holds its first answer until the message was
// accepted: the message's text is in the body of the next request.
func TestMessageDuringLastModelCallOpenAI(t *testing.T) {
	t.Setenv("RUNSVC_SECRET_OPENAI_TEST_KEY", "sk-test-key")
	srv := testserver.Start(t)
	for _, tc := range messageModes {
		t.Run(tc.name, func(t *testing.T) {
			inFlight, release := make(chan struct{}), make(chan struct{})
			var mu sync.Mutex
			var bodies []string
			fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				mu.Lock()
				bodies = append(bodies, string(body))
				n := len(bodies)
				mu.Unlock()
				answer := "answer after the message"
				if n == 1 {
					answer = "first answer"
					close(inFlight)
					<-release
				}
				w.Header().Set("Content-Type", "application/json")
				_, _ = io.WriteString(w, chatCompletion(answer))
			}))
			t.Cleanup(fake.Close)
			name := "openai-" + tc.name
			srv.Publish(t, fmt.Sprintf(`{"name": %q, "model": {"provider": "openai", "model": "gpt-4o-mini", "baseUrl": %q, "apiKeyCredential": "openai_test_key"},
			  "credentials": [{"name": "openai_test_key"}]}`, name, fake.URL+"/v1"))
			run := srv.Start(t, name, "hello")
			<-inFlight
			text := "please also cover " + tc.name
			_, err := srv.Runs.SendMessage(testserver.Context(t), &runsvcv1.SendMessageRequest{RunId: run.GetRunId(), Text: text, Mode: tc.mode})
			close(release)
			if err != nil {
				t.Fatal(err)
			}
			got := srv.Settled(t, run.GetRunId())
			if got.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED || got.GetAnswer() != "answer after the message" {
				t.Fatalf("state %v answer %q: the message got no turn", got.GetState(), got.GetAnswer())
			}
			mu.Lock()
			defer mu.Unlock()
			if len(bodies) != 2 {
				t.Fatalf("%d requests reached the model server, want 2", len(bodies))
			}
			var req struct {
				Messages []struct{ Role, Content string } `json:"messages"`
			}
			if err := json.Unmarshal([]byte(bodies[1]), &req); err != nil {
				t.Fatal(err)
			}
			last := req.Messages[len(req.Messages)-1]
			if last.Role != "user" || last.Content != text || !strings.Contains(bodies[1], "first answer") {
				t.Errorf("the next request ends with %+v, want the message after the first answer: %s", last, bodies[1])
			}
		})
	}
}

func chatCompletion(text string) string {
	b, _ := json.Marshal(text)
	return `{"id": "chatcmpl-1", "object": "chat.completion", "created": 1764400000, "model": "gpt-4o-mini",
 "choices": [{"index": 0, "message": {"role": "assistant", "content": ` + string(b) + `}, "finish_reason": "stop"}],
 "usage": {"prompt_tokens": 12, "completion_tokens": 5, "total_tokens": 17}}`
}
