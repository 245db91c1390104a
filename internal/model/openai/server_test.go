package openai_test

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
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

// Bodies in the shape OpenAI's API sends, kept as JSON files under
// testdata/answers.
var (
	plainAnswer        = answerBody("plain.json")
	toolCallAnswer     = answerBody("tool_calls.json")
	rawArgumentsAnswer = answerBody("raw_arguments.json")
	missingIDsAnswer   = answerBody("missing_ids.json")
)

// answerBody reads the answer body testdata/answers/name; the tests cannot
// run without it, so a missing one stops them at once.
func answerBody(name string) string {
	b, err := os.ReadFile(filepath.Join("testdata", "answers", name))
	if err != nil {
		panic(err)
	}
	return string(b)
}
