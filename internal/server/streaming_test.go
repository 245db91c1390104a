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
	// failAfter, when set, makes the first request fail with an error
	// event after that many pieces.
	failAfter int
	requests  int
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
	m.requests++
	failing := m.failAfter > 0 && m.requests == 1
	m.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	if m.format == "anthropic" {
		m.event(w, "message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"usage":{"input_tokens":12,"output_tokens":1}}}`)
		m.event(w, "content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
		m.event(w, "ping", `{"type":"ping"}`)
	}
	for i := range streamDeltas {
		if failing && i == m.failAfter {
			m.event(w, "error", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)
			return
		}
		if i == joinAfter && !failing {
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

// readText reads a StreamText stream to its end; reached, when given,
// closes once the text holds n bytes.
func readText(t *testing.T, stream runsvcv1.RunService_StreamTextClient, reached ...chan struct{}) ([]textMsg, error) {
	var out []textMsg
	n := 0
	for {
		msg, err := stream.Recv()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, textMsg{msg: msg, at: time.Now()})
		if n += len(msg.GetText()); n >= joinAfter*pieceLen && len(reached) > 0 && reached[0] != nil {
			close(reached[0])
			reached[0] = nil
		}
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
			done, has := make(chan struct{}), make(chan struct{})
			go func() { defer close(done); firstMsgs, firstErr = readText(t, first, has) }()

			// Join once runsvc has the first joinAfter pieces (the first
			// watcher has them); the model holds the rest back till then.
			<-model.joined
			<-has
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
	if join.GetOffset() != 0 || join.GetText() != want()[:joinAfter*pieceLen] {
		t.Errorf("joiner's first message: offset %d, %q; want the first %d pieces from offset 0", join.GetOffset(), join.GetText(), joinAfter)
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

// watchMsg is a WatchRun message.
type watchMsg = *runsvcv1.WatchRunResponse

// readWatch reads a WatchRun stream to its end.
func readWatch(t *testing.T, stream runsvcv1.RunService_WatchRunClient) []watchMsg {
	t.Helper()
	var out []watchMsg
	for {
		msg, err := stream.Recv()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("WatchRun: %v", err)
		}
		out = append(out, msg)
	}
}

// deltaText concatenates the text of the deltas of call seq.
func deltaText(msgs []watchMsg, seq int64) string {
	var b strings.Builder
	for _, m := range msgs {
		if d := m.GetDelta(); d != nil && d.GetSeq() == seq {
			b.WriteString(d.GetText())
		}
	}
	return b.String()
}

func TestWatchRunDeltasAndResume(t *testing.T) {
	model := newStreamingModel(t, "openai")
	srv := testserver.Start(t)
	srv.Publish(t, `{"name":"streamer","model":{"provider":"openai","model":"m-test","baseUrl":"`+model.URL+`/v1"}}`)
	run := srv.Start(t, "streamer", "talk")
	ctx := testserver.Context(t)
	id := run.GetRunId()

	whole, err := srv.Runs.WatchRun(ctx, &runsvcv1.WatchRunRequest{RunId: id, IncludeDeltas: true})
	if err != nil {
		t.Fatal(err)
	}
	var all []watchMsg
	done := make(chan struct{})
	go func() { defer close(done); all = readWatch(t, whole) }()

	<-model.joined
	// The call being streamed is the last Record so far: ModelCallStarted.
	recs := srv.RecordsSoFar(t, id)
	started := recs[len(recs)-1]
	if started.GetModelCallStarted() == nil {
		t.Fatalf("last record so far is %v, want ModelCallStarted", started)
	}
	callSeq := started.GetSeq()
	const had = 10 * pieceLen // a reconnecting client that had 10 pieces
	resumedWatch, err := srv.Runs.WatchRun(ctx, &runsvcv1.WatchRunRequest{RunId: id, IncludeDeltas: true, FromSeq: callSeq + 1, FromOffset: had})
	if err != nil {
		t.Fatal(err)
	}
	first, err := resumedWatch.Recv()
	if err != nil {
		t.Fatal(err)
	}
	resumedText, err := srv.Runs.StreamText(ctx, &runsvcv1.StreamTextRequest{RunId: id, FromSeq: callSeq, FromOffset: had})
	if err != nil {
		t.Fatal(err)
	}
	close(model.resume)
	rest := readWatch(t, resumedWatch)
	texts, err := readText(t, resumedText)
	if err != nil {
		t.Fatal(err)
	}
	<-done

	t.Run("a watcher from the start gets the deltas between the call's Records", func(t *testing.T) { checkWholeWatch(t, all, callSeq) })
	t.Run("a WatchRun resumed from (seq, offset) gets the text from the offset", func(t *testing.T) {
		checkResumedWatch(t, first, rest, callSeq, had)
	})
	t.Run("a StreamText resumed from (seq, offset) gets the text from the offset", func(t *testing.T) {
		if len(texts) == 0 || texts[0].msg.GetOffset() != had || texts[0].msg.GetSeq() != callSeq {
			t.Fatalf("first message %v, want seq %d at offset %d", texts, callSeq, had)
		}
		if got := wholeText(texts); got != want()[had:] {
			t.Errorf("resumed text %q, want %q", got, want()[had:])
		}
	})
}

// checkWholeWatch: deltas come between the call's ModelCallStarted and
// ModelCallFinished, at least 45 of them, making the whole text.
func checkWholeWatch(t *testing.T, all []watchMsg, callSeq int64) {
	t.Helper()
	var kinds []string
	n := 0
	for _, m := range all {
		switch {
		case m.GetDelta() != nil:
			n++
			if len(kinds) == 0 || kinds[len(kinds)-1] != "delta" {
				kinds = append(kinds, "delta")
			}
		case m.GetRecord().GetModelCallStarted() != nil:
			kinds = append(kinds, "started")
		case m.GetRecord().GetModelCallFinished() != nil:
			kinds = append(kinds, "finished")
		}
	}
	if fmt.Sprint(kinds) != "[started delta finished]" {
		t.Errorf("order %v, want [started delta finished]", kinds)
	}
	if n < 45 || deltaText(all, callSeq) != want() {
		t.Errorf("%d deltas with text %q, want at least 45 making %q", n, deltaText(all, callSeq), want())
	}
}

// checkResumedWatch: the first message is the text from the offset, the
// rest follows, and no Record before from_seq comes again.
func checkResumedWatch(t *testing.T, first watchMsg, rest []watchMsg, callSeq, had int64) {
	t.Helper()
	d := first.GetDelta()
	if d == nil || d.GetOffset() != had || d.GetSeq() != callSeq {
		t.Fatalf("first message %v, want a delta of seq %d at offset %d", first, callSeq, had)
	}
	if got := deltaText(append([]watchMsg{first}, rest...), callSeq); got != want()[had:] {
		t.Errorf("resumed text %q, want %q", got, want()[had:])
	}
	for _, m := range rest {
		if r := m.GetRecord(); r != nil && r.GetSeq() <= callSeq {
			t.Errorf("record %d sent again", r.GetSeq())
		}
	}
}

// TestStreamedCallThatFailsIsDiscarded: a call that fails mid-stream and is
// retried tells watchers its pieces are void, then streams the new call.
func TestStreamedCallThatFailsIsDiscarded(t *testing.T) {
	model := newStreamingModel(t, "anthropic")
	model.failAfter = 10
	close(model.resume)
	srv := testserver.Start(t)
	srv.Publish(t, `{"name":"streamer","model":{"provider":"anthropic","model":"m-test","baseUrl":"`+model.URL+`"}}`)
	run := srv.Start(t, "streamer", "talk")
	ctx := testserver.Context(t)
	text, err := srv.Runs.StreamText(ctx, &runsvcv1.StreamTextRequest{RunId: run.GetRunId()})
	if err != nil {
		t.Fatal(err)
	}
	watch, err := srv.Runs.WatchRun(ctx, &runsvcv1.WatchRunRequest{RunId: run.GetRunId(), IncludeDeltas: true})
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := readText(t, text)
	if err != nil {
		t.Fatal(err)
	}
	watched := readWatch(t, watch)

	var failedSeq int64
	for _, m := range watched {
		if r := m.GetRecord(); r.GetModelCallFailed() != nil {
			failedSeq = r.GetSeq()
		}
	}
	if failedSeq == 0 {
		t.Fatal("no ModelCallFailed record: the first call did not fail")
	}
	// StreamText: the void pieces are told, and what follows discarding
	// them is the whole answer.
	last := -1
	for i, m := range msgs {
		if m.msg.GetDiscarded() {
			last = i
		}
	}
	if last < 0 {
		t.Fatalf("StreamText told no discard in %d messages", len(msgs))
	}
	if got := wholeText(msgs[last+1:]); got != want() {
		t.Errorf("text after the discard %q, want %q", got, want())
	}
	// WatchRun: a discarded delta right before the ModelCallFailed record.
	for i, m := range watched {
		if m.GetRecord().GetSeq() == failedSeq {
			if i == 0 || !watched[i-1].GetDelta().GetDiscarded() {
				t.Errorf("message before ModelCallFailed is %v, want a discarded delta", watched[max(i-1, 0)])
			}
		}
	}
}

// TestToolCallDeltasOnWatchRun: the pieces of a streamed tool call reach a
// WatchRun watcher before the turn's Record, and add up to the call the
// Record holds.
func TestToolCallDeltasOnWatchRun(t *testing.T) {
	release := make(chan struct{})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	model := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		send := func(delta, finish string) {
			_, _ = fmt.Fprintf(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":%s,\"finish_reason\":%s}]}\n\n", delta, finish)
			w.(http.Flusher).Flush()
		}
		if strings.Contains(string(body), `"role":"tool"`) {
			send(`{"content":"done"}`, `"stop"`)
			_, _ = io.WriteString(w, "data: [DONE]\n\n")
			return
		}
		<-release
		send(`{"tool_calls":[{"index":0,"id":"call_x","type":"function","function":{"name":"lookup","arguments":""}}]}`, "null")
		for _, part := range []string{`{\"q\":`, `\"we`, `ather\"}`} {
			time.Sleep(20 * time.Millisecond)
			send(`{"tool_calls":[{"index":0,"function":{"arguments":"`+part+`"}}]}`, "null")
		}
		send(`{}`, `"tool_calls"`)
		_, _ = io.WriteString(w, "data: [DONE]\n\n")
	}))
	_ = model.Listener.Close()
	model.Listener = l
	model.Start()
	t.Cleanup(model.Close)
	srv := testserver.Start(t)
	srv.StartWorker(t, "w", map[string]testserver.ToolFunc{"lookup": func(map[string]any) (any, *runsvcv1.ToolError) { return "sunny", nil }})
	srv.Publish(t, `{"name":"caller","model":{"provider":"openai","model":"m","baseUrl":"`+model.URL+`/v1"},"tools":[{"name":"lookup","kind":"TOOL_KIND_WORKER"}]}`)
	run := srv.Start(t, "caller", "weather?")
	open := sync.OnceFunc(func() { close(release) })
	defer open()
	stream, err := srv.Runs.WatchRun(testserver.Context(t), &runsvcv1.WatchRunRequest{RunId: run.GetRunId(), IncludeDeltas: true})
	if err != nil {
		t.Fatal(err)
	}
	var msgs []watchMsg
	for {
		msg, err := stream.Recv()
		if err != nil {
			break
		}
		msgs = append(msgs, msg)
		if msg.GetRecord().GetModelCallStarted() != nil {
			open() // the watcher follows the call: let it stream
		}
	}
	var id, name, args string
	var finished *runsvcv1.ToolCall
	for _, m := range msgs {
		if tc := m.GetDelta().GetToolCall(); tc != nil && finished == nil {
			id, name, args = id+tc.GetId(), name+tc.GetName(), args+tc.GetArguments()
		}
		if f := m.GetRecord().GetModelCallFinished(); f != nil && finished == nil && len(f.GetToolCalls()) > 0 {
			finished = f.GetToolCalls()[0]
		}
	}
	if finished == nil {
		t.Fatal("no ModelCallFinished with a tool call")
	}
	if id != "call_x" || name != "lookup" || args != `{"q":"weather"}` {
		t.Errorf("pieces before the Record make %q %q %q, want call_x lookup {\"q\":\"weather\"}", id, name, args)
	}
}
