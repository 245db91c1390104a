package server_test

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// Shape of the streamed answer in these tests.
const (
	streamDeltas   = 50
	streamInterval = 20 * time.Millisecond
	joinAfter      = 20
	pieceLen       = 4 // every piece is "wNN "
)

// piece is the text of delta i.
func piece(i int) string { return fmt.Sprintf("w%02d ", i) }

// streamingModel is a model server on 127.0.0.1 that streams streamDeltas
// pieces streamInterval apart, in OpenAI's or Anthropic's SSE format, and
// notes when it sent each piece (just before writing it).
type streamingModel struct {
	*httptest.Server
	format string // "openai" or "anthropic"
	mu     sync.Mutex
	sentAt []time.Time
	// joined closes once joinAfter pieces have gone out; resume waits
	// for the test to let the rest go.
	joined chan struct{}
	resume chan struct{}
	bodies []string
}

func newStreamingModel(t *testing.T, format string) *streamingModel {
	t.Helper()
	m := &streamingModel{format: format, joined: make(chan struct{}), resume: make(chan struct{})}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	m.Server = httptest.NewUnstartedServer(http.HandlerFunc(m.serve))
	_ = m.Listener.Close()
	m.Listener = l
	m.Start()
	t.Cleanup(m.Close)
	return m
}

// event writes one SSE event and flushes it.
func (m *streamingModel) event(w http.ResponseWriter, typ, data string) {
	if typ != "" {
		_, _ = fmt.Fprintf(w, "event: %s\n", typ)
	}
	_, _ = fmt.Fprintf(w, "data: %s\n\n", data)
	w.(http.Flusher).Flush()
}

func (m *streamingModel) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	m.mu.Lock()
	m.bodies = append(m.bodies, string(body))
	m.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	if m.format == "anthropic" {
		m.event(w, "message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"usage":{"input_tokens":12,"output_tokens":1}}}`)
		m.event(w, "content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
		m.event(w, "ping", `{"type":"ping"}`)
	}
	for i := range streamDeltas {
		if i == joinAfter {
			close(m.joined)
			select {
			case <-m.resume:
			case <-r.Context().Done():
				return
			}
		}
		time.Sleep(streamInterval)
		m.mu.Lock()
		m.sentAt = append(m.sentAt, time.Now())
		m.mu.Unlock()
		if m.format == "anthropic" {
			m.event(w, "content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"`+piece(i)+`"}}`)
		} else {
			m.event(w, "", `{"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-test","choices":[{"index":0,"delta":{"content":"`+piece(i)+`"},"finish_reason":null}]}`)
		}
	}
	if m.format == "anthropic" {
		m.event(w, "content_block_stop", `{"type":"content_block_stop","index":0}`)
		m.event(w, "message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":50}}`)
		m.event(w, "message_stop", `{"type":"message_stop"}`)
		return
	}
	m.event(w, "", `{"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-test","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`)
	m.event(w, "", `{"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-test","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":50,"total_tokens":62}}`)
	_, _ = io.WriteString(w, "data: [DONE]\n\n")
}

// sent returns when piece i went out.
func (m *streamingModel) sent(i int) time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	if i < len(m.sentAt) {
		return m.sentAt[i]
	}
	return time.Time{}
}

// textMsg is a StreamText message and when it arrived.
type textMsg struct {
	msg *runsvcv1.StreamTextResponse
	at  time.Time
}

// readText reads a StreamText stream to its end.
func readText(t *testing.T, stream runsvcv1.RunService_StreamTextClient) ([]textMsg, error) {
	var out []textMsg
	for {
		msg, err := stream.Recv()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, textMsg{msg: msg, at: time.Now()})
	}
}

// wholeText is the concatenation of the messages' texts.
func wholeText(msgs []textMsg) string {
	var b strings.Builder
	for _, m := range msgs {
		b.WriteString(m.msg.GetText())
	}
	return b.String()
}

func TestStreamTextIsLive(t *testing.T) {
	for _, format := range []string{"openai", "anthropic"} {
		t.Run(format, func(t *testing.T) {
			model := newStreamingModel(t, format)
			srv := testserver.Start(t)
			base := model.URL + "/v1"
			if format == "anthropic" {
				base = model.URL
			}
			srv.Publish(t, `{"name":"streamer","model":{"provider":"`+format+`","model":"m-test","baseUrl":"`+base+`","maxOutputTokens":300},"limits":{"tokenBudget":100000}}`)
			run := srv.Start(t, "streamer", "talk")
			ctx := testserver.Context(t)

			first, err := srv.Runs.StreamText(ctx, &runsvcv1.StreamTextRequest{RunId: run.GetRunId()})
			if err != nil {
				t.Fatal(err)
			}
			var firstMsgs []textMsg
			var firstErr error
			done := make(chan struct{})
			go func() { defer close(done); firstMsgs, firstErr = readText(t, first) }()

			<-model.joined
			second, err := srv.Runs.StreamText(ctx, &runsvcv1.StreamTextRequest{RunId: run.GetRunId()})
			if err != nil {
				t.Fatal(err)
			}
			// The second watcher's first message is the text so far.
			joinMsg, err := second.Recv()
			if err != nil {
				t.Fatal(err)
			}
			close(model.resume)
			rest, err := readText(t, second)
			<-done
			if err != nil || firstErr != nil {
				t.Fatalf("streams ended with %v, %v", firstErr, err)
			}
			checkFirstWatcher(t, model, firstMsgs)
			checkJoiner(t, joinMsg, rest)
			checkOneRecord(t, srv, run.GetRunId())
		})
	}
}

// want is the whole answer.
func want() string {
	var b strings.Builder
	for i := range streamDeltas {
		b.WriteString(piece(i))
	}
	return b.String()
}

// checkFirstWatcher: at least 45 messages before the final one, the first
// within 50 ms of the server sending it, the whole text once.
func checkFirstWatcher(t *testing.T, model *streamingModel, msgs []textMsg) {
	t.Helper()
	if len(msgs) == 0 || !msgs[len(msgs)-1].msg.GetCommitted() || !msgs[len(msgs)-1].msg.GetFinal() {
		t.Fatalf("the stream did not end with the committed final message: %d messages", len(msgs))
	}
	before := len(msgs) - 1
	if before < 45 {
		t.Errorf("%d messages before the final one, want at least 45", before)
	}
	if got := wholeText(msgs); got != want() {
		t.Errorf("text %q, want %q", got, want())
	}
	var lat []time.Duration
	for _, m := range msgs[:before] {
		i := int(m.msg.GetOffset()+int64(len(m.msg.GetText())))/pieceLen - 1
		if sent := model.sent(i); !sent.IsZero() {
			lat = append(lat, m.at.Sub(sent))
		}
	}
	if len(lat) == 0 {
		t.Fatal("no message could be matched to a piece")
	}
	if lat[0] > 50*time.Millisecond {
		t.Errorf("the first message arrived %v after the server sent it, want at most 50ms", lat[0])
	}
	slices.Sort(lat)
	t.Logf("delta to client: %d messages, p50 %v, p99 %v, max %v", len(lat), lat[len(lat)/2], lat[len(lat)*99/100], lat[len(lat)-1])
}

// checkJoiner: the text so far first, as one message from offset 0, then
// the rest.
func checkJoiner(t *testing.T, join *runsvcv1.StreamTextResponse, rest []textMsg) {
	t.Helper()
	if join.GetOffset() != 0 || len(join.GetText()) < joinAfter*pieceLen || !strings.HasPrefix(want(), join.GetText()) {
		t.Errorf("joiner's first message: offset %d, %q; want the first %d pieces or more from offset 0", join.GetOffset(), join.GetText(), joinAfter)
	}
	if got := join.GetText() + wholeText(rest); got != want() {
		t.Errorf("joiner's text %q, want %q", got, want())
	}
	if len(rest) < streamDeltas-joinAfter-5 {
		t.Errorf("joiner got %d messages after the text so far, want about %d", len(rest), streamDeltas-joinAfter)
	}
}

// checkOneRecord: the turn is one ModelCallFinished Record holding the whole
// text; no piece is a Record.
func checkOneRecord(t *testing.T, srv *testserver.Server, runID string) {
	t.Helper()
	var finished []*runsvcv1.Record
	recs := srv.Records(t, runID)
	for _, r := range recs {
		if r.GetModelCallFinished() != nil {
			finished = append(finished, r)
		}
	}
	if len(finished) != 1 || finished[0].GetModelCallFinished().GetText() != want() {
		t.Fatalf("%d ModelCallFinished Records (of %d), want one with the whole text", len(finished), len(recs))
	}
	if len(recs) > 10 {
		t.Errorf("the log has %d Records for a one-turn Run", len(recs))
	}
}

