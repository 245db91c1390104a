package httpapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
)

// streamEnds watches a Connect streaming response's envelopes and hands
// its end-of-stream message to fix, which rewrites an error without
// ErrorInfo (one vanguard made itself: an envelope cut short, a second
// request message) through the table. Messages pass through as each
// envelope completes.
type streamEnds struct {
	pending []byte
	fix     func(payload []byte) []byte
}

// write passes b's complete envelopes on to w, keeping a partial one.
func (s *streamEnds) write(w http.ResponseWriter, b []byte) (int, error) {
	s.pending = append(s.pending, b...)
	for len(s.pending) >= 5 {
		n := int(s.pending[1])<<24 | int(s.pending[2])<<16 | int(s.pending[3])<<8 | int(s.pending[4])
		if len(s.pending) < 5+n {
			break
		}
		env := s.pending[:5+n]
		if env[0] == 2 { // end-of-stream, not compressed
			env = s.fix(env[5:])
		}
		if _, err := w.Write(env); err != nil {
			return 0, err
		}
		s.pending = s.pending[5+n:]
	}
	return len(b), nil
}

// connectStreaming reports whether a request's Content-Type is the
// Connect streaming protocol's.
func connectStreaming(h http.Header) bool {
	return strings.HasPrefix(strings.ToLower(h.Get("Content-Type")), "application/connect+")
}

// endError is an end-of-stream message's error: its code, its message and
// whether it carries an ErrorInfo; ok is false when it has none.
func endError(payload []byte) (code, message string, info, ok bool) {
	var end struct {
		Error *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
			Details []struct {
				Type string `json:"type"`
			} `json:"details"`
		} `json:"error"`
	}
	if json.Unmarshal(payload, &end) != nil || end.Error == nil {
		return "", "", false, false
	}
	e := end.Error
	return e.Code, e.Message, len(e.Details) > 0 && e.Details[0].Type == "google.rpc.ErrorInfo", true
}

// fixEnd is streamEnds' fix for a call: an end-of-stream error without
// ErrorInfo becomes the envelope connect's ErrorWriter writes for the
// table's status of it.
func (h rpcErrors) fixEnd(r *http.Request, body *countingBody) func([]byte) []byte {
	return func(payload []byte) []byte {
		code, msg, info, ok := endError(payload)
		env := append([]byte{2, byte(len(payload) >> 24), byte(len(payload) >> 16), byte(len(payload) >> 8), byte(len(payload))}, payload...)
		if !ok || info || code == "canceled" || code == "deadline_exceeded" {
			return env
		}
		st := h.mapper.Map(r.Context(), h.typed(r, http.StatusOK, code, msg, body.n)).Status.Proto()
		var out bytes.Buffer
		if errorWriter.Write(&bufferWriter{header: http.Header{}, body: &out}, r, connectError(st)) != nil {
			return env
		}
		return out.Bytes()
	}
}
