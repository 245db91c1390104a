package httpapi

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"connectrpc.com/connect"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/durationpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errs"
)

// Server-Sent Events on the REST paths of WatchRun and StreamText (GET
// /v1/runs/{run_id}:watch and :streamText with Accept: text/event-stream).
// The request becomes a Connect server-streaming call of the same method
// through the same handler chain (so the same auth and error table), and
// each message an event whose id is the resume cursor: EventSource sends
// it back as Last-Event-ID when it reconnects and the stream goes on from
// there, nothing lost and nothing twice. Heartbeats are SSE comments. A
// stream that ends OK ends with "event: end" (so that EventSource is told
// to stop rather than reconnect); one that fails after events with
// "event: error" and the AIP-193 body of its status (with "retry:" when
// the status is retryable); one that fails before any event is a plain
// REST error with its HTTP status.

// ssePath matches the two streaming paths.
var ssePath = regexp.MustCompile(`^/v1/runs/([^/:]+):(watch|streamText)$`)

// wantsSSE reports whether r asks for an event stream of a streaming path.
func wantsSSE(r *http.Request) bool {
	return r.Method == http.MethodGet && strings.Contains(r.Header.Get("Accept"), "text/event-stream") && ssePath.MatchString(r.URL.Path)
}

// sseRequest is the Connect method and request an SSE request stands for,
// or the typed error of a query it cannot take.
func sseRequest(r *http.Request) (string, proto.Message, error) {
	m := ssePath.FindStringSubmatch(r.URL.Path)
	q := r.URL.Query()
	seq, offset, err := lastEventID(r.Header.Get("Last-Event-ID"))
	if err != nil {
		return "", nil, err
	}
	var beat *durationpb.Duration
	if v := q.Get("heartbeatInterval"); v != "" {
		beat = &durationpb.Duration{}
		if err := protojson.Unmarshal([]byte(strconv.Quote(v)), beat); err != nil {
			return "", nil, errs.BadField("heartbeatInterval", "is not a duration such as \"15s\": %q", v)
		}
	}
	if m[2] == "streamText" {
		return "StreamText", &runsvcv1.StreamTextRequest{RunId: m[1], HeartbeatInterval: beat, FromSeq: seq, FromOffset: offset}, nil
	}
	req := &runsvcv1.WatchRunRequest{RunId: m[1], HeartbeatInterval: beat, IncludeDeltas: q.Get("includeDeltas") == "true"}
	if seq > 0 {
		req.FromSeq, req.FromOffset = seq+1, offset
	}
	return "WatchRun", req, nil
}

// lastEventID parses an event id, "seq" or "seq:offset".
func lastEventID(id string) (int64, int64, error) {
	if id == "" {
		return 0, 0, nil
	}
	a, b, _ := strings.Cut(id, ":")
	seq, err1 := strconv.ParseInt(a, 10, 64)
	offset, err2 := int64(0), error(nil)
	if b != "" {
		offset, err2 = strconv.ParseInt(b, 10, 64)
	}
	if err1 != nil || err2 != nil || seq < 0 || offset < 0 {
		return 0, 0, errs.BadField("Last-Event-ID", "is not an event id this server sent: %q", id)
	}
	return seq, offset, nil
}

// serveSSE answers an SSE request through next, the transcoder.
func (n nativeGRPC) serveSSE(w http.ResponseWriter, r *http.Request) {
	method, req, err := sseRequest(r)
	if err != nil {
		writeREST(w, n.opts.Mapper.Map(r.Context(), err).Status.Proto())
		return
	}
	body, err := protojson.Marshal(req)
	if err != nil {
		writeREST(w, n.opts.Mapper.Map(r.Context(), err).Status.Proto())
		return
	}
	env := make([]byte, 5, 5+len(body))
	binary.BigEndian.PutUint32(env[1:], uint32(len(body)))
	inner, err := http.NewRequestWithContext(r.Context(), http.MethodPost, "/runsvc.v1.RunService/"+method, bytes.NewReader(append(env, body...)))
	if err != nil {
		writeREST(w, n.opts.Mapper.Map(r.Context(), err).Status.Proto())
		return
	}
	inner.Header = r.Header.Clone()
	inner.Header.Del("Accept")
	inner.Header.Set("Content-Type", "application/connect+json")
	inner.Header.Set("Connect-Protocol-Version", "1")
	inner.RemoteAddr, inner.TLS, inner.Host = r.RemoteAddr, r.TLS, r.Host
	sw := &sseWriter{w: w, text: method == "StreamText", header: http.Header{}}
	n.other.ServeHTTP(sw, inner)
	sw.finish()
}

// sseWriter turns a Connect server stream (enveloped JSON messages, then
// an end-of-stream envelope) written into it into events.
type sseWriter struct {
	w      http.ResponseWriter
	header http.Header
	code   int
	buf    bytes.Buffer
	text   bool // StreamText's messages, else WatchRun's
	events int
	ended  bool
	// lastSeq is WatchRun's last Record's seq, for the ids of deltas.
	lastSeq int64
}

func (s *sseWriter) Header() http.Header { return s.header }

func (s *sseWriter) WriteHeader(code int) {
	if s.code == 0 {
		s.code = code
	}
}

// Flush implements http.Flusher; events are flushed as they are written.
func (s *sseWriter) Flush() {}

func (s *sseWriter) Write(b []byte) (int, error) {
	s.WriteHeader(http.StatusOK)
	s.buf.Write(b)
	for !s.ended && s.buf.Len() >= 5 {
		head := s.buf.Bytes()[:5]
		size := int(binary.BigEndian.Uint32(head[1:]))
		if s.buf.Len() < 5+size {
			break
		}
		flags := head[0]
		payload := append([]byte(nil), s.buf.Bytes()[5:5+size]...)
		s.buf.Next(5 + size)
		if flags&0x02 != 0 {
			s.end(payload)
		} else {
			s.message(payload)
		}
	}
	return len(b), nil
}

// start sends the event stream's headers, once.
func (s *sseWriter) start() {
	if s.events > 0 {
		return
	}
	h := s.w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no") // nginx: do not buffer the stream
	s.w.WriteHeader(http.StatusOK)
	s.events++
}

// message writes one message as an event, or a heartbeat as a comment.
func (s *sseWriter) message(payload []byte) {
	s.start()
	id, beat := s.eventID(payload)
	switch {
	case beat:
		fmt.Fprint(s.w, ": heartbeat\n\n")
	case id != "":
		fmt.Fprintf(s.w, "id: %s\ndata: %s\n\n", id, payload)
	default:
		fmt.Fprintf(s.w, "data: %s\n\n", payload)
	}
	s.flush()
}

// eventID is a message's resume cursor, and whether it is a heartbeat.
func (s *sseWriter) eventID(payload []byte) (string, bool) {
	if s.text {
		var m runsvcv1.StreamTextResponse
		if protojson.Unmarshal(payload, &m) != nil {
			return "", false
		}
		if m.GetHeartbeatTime() != nil {
			return "", true
		}
		return fmt.Sprintf("%d:%d", m.GetSeq(), m.GetOffset()+int64(len(m.GetText()))), false
	}
	var m runsvcv1.WatchRunResponse
	if (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(payload, &m) != nil {
		return "", false
	}
	switch {
	case m.GetHeartbeatTime() != nil:
		return "", true
	case m.GetRecord() != nil:
		s.lastSeq = m.GetRecord().GetSeq()
		return strconv.FormatInt(s.lastSeq, 10), false
	case m.GetDelta() != nil:
		d := m.GetDelta()
		return fmt.Sprintf("%d:%d", s.lastSeq, d.GetOffset()+int64(len(d.GetText()))), false
	}
	return "", false
}

// end handles the end-of-stream envelope: "event: end", or the error.
func (s *sseWriter) end(payload []byte) {
	s.ended = true
	var e struct {
		Error *connectWireError `json:"error"`
	}
	_ = json.Unmarshal(payload, &e)
	if e.Error == nil {
		s.start()
		fmt.Fprint(s.w, "event: end\ndata: {}\n\n")
		s.flush()
		return
	}
	st := e.Error.status()
	if s.events == 0 {
		writeREST(s.w, st)
		return
	}
	var out bytes.Buffer
	rec := &bufferWriter{header: http.Header{}, body: &out}
	writeREST(rec, st)
	if after := rec.header.Get("Retry-After"); after != "" {
		sec, _ := strconv.Atoi(after)
		fmt.Fprintf(s.w, "retry: %d\n", sec*1000)
	}
	fmt.Fprintf(s.w, "event: error\ndata: %s\n\n", out.Bytes())
	s.flush()
}

// finish answers a response that was no event stream at all (vanguard
// refused the call before it started).
func (s *sseWriter) finish() {
	if s.ended || s.events > 0 {
		return
	}
	if s.code == 0 || s.code == http.StatusOK {
		s.start()
		return
	}
	st := &spb.Status{}
	if protojson.Unmarshal(s.buf.Bytes(), st) != nil || !hasErrorInfo(st) {
		st = &spb.Status{Code: int32(connect.CodeUnavailable), Message: strings.TrimSpace(s.buf.String())}
	}
	writeREST(s.w, st)
}

func (s *sseWriter) flush() {
	if f, ok := s.w.(http.Flusher); ok {
		f.Flush()
	}
}

// connectWireError is the Connect protocol's error JSON.
type connectWireError struct {
	Code    connect.Code `json:"code"`
	Message string       `json:"message"`
	Details []struct {
		Type  string `json:"type"`
		Value string `json:"value"`
	} `json:"details"`
}

// status is the error as a google.rpc.Status.
func (e *connectWireError) status() *spb.Status {
	st := &spb.Status{Code: int32(e.Code), Message: e.Message}
	for _, d := range e.Details {
		v, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(d.Value, "="))
		if err == nil {
			st.Details = append(st.Details, &anypb.Any{TypeUrl: "type.googleapis.com/" + d.Type, Value: v})
		}
	}
	return st
}

// bufferWriter is an http.ResponseWriter into a buffer.
type bufferWriter struct {
	header http.Header
	body   *bytes.Buffer
}

func (b *bufferWriter) Header() http.Header         { return b.header }
func (b *bufferWriter) WriteHeader(int)             {}
func (b *bufferWriter) Write(p []byte) (int, error) { return b.body.Write(p) }
