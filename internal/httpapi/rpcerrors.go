package httpapi

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"connectrpc.com/connect"

	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/errs"
)

// rpcErrors does for Connect and gRPC-Web calls what restErrors does for
// REST: what vanguard refuses by itself, before or instead of any handler
// (a header it cannot parse, a compression it does not have, a gRPC-Web
// envelope cut short), it answers as plain text, or as a status without
// ErrorInfo, even as INTERNAL; rpcErrors answers it through the table in
// the caller's protocol instead. A handler's errors (which carry their
// ErrorInfo) and grpc's own services' statuses pass through.
type rpcErrors struct {
	next   http.Handler
	mapper *errdetails.Mapper
	// maxBytes is the largest request body decoded (Options.MaxRequestBytes).
	maxBytes int
}

func (h rpcErrors) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !isRPC(r) || ownService(r.URL.Path) {
		h.next.ServeHTTP(w, r)
		return
	}
	// vanguard rewrites the request's headers for the gRPC leg; an error
	// written here must go by the caller's.
	saved := r.Header.Clone()
	body := &countingBody{ReadCloser: r.Body}
	r.Body = body
	rw := &rpcWriter{ResponseWriter: w}
	if connectStreaming(saved) {
		orig := r.Clone(r.Context())
		orig.Header = saved
		rw.ends = &streamEnds{fix: h.fixEnd(orig, body)}
	}
	h.next.ServeHTTP(rw, r)
	if !rw.failed {
		return
	}
	r.Header = saved
	code := rw.rpcCode()
	if code == "canceled" || code == "deadline_exceeded" || passConnectJSON(rw.body.Bytes()) {
		// The caller's own end of the call, or a handler's error.
		w.WriteHeader(rw.code)
		_, _ = w.Write(rw.body.Bytes())
		return
	}
	typed := h.typed(r, rw.code, code, rw.text(), body.n)
	hdr := w.Header()
	for k := range hdr {
		if strings.HasPrefix(k, "Grpc-") || k == "Content-Length" || k == "X-Content-Type-Options" || k == "Content-Type" {
			delete(hdr, k)
		}
	}
	writeError(w, r, h.mapper.Map(r.Context(), typed).Status.Proto())
}

// typed is the error the table answers for a refusal of vanguard's. A
// body read past the limit (a chunked one, whose size nativeGRPC could not
// see; vanguard refuses it as "unavailable: resource_exhausted: max buffer
// size", which is neither retryable nor detailed) is INVALID_REQUEST with
// the size, as a body with Content-Length is.
func (h rpcErrors) typed(r *http.Request, httpCode int, rpcCode, text string, read int64) error {
	if h.maxBytes > 0 && read > int64(h.maxBytes) {
		return errs.BadField("", "the request is over %d bytes; at most %d are accepted", read, h.maxBytes)
	}
	if rpcCode == "unavailable" {
		return &errs.TransientFailure{Operation: "the call", Message: text, RetryAfter: time.Second}
	}
	return refusal(r, httpCode, text)
}

// countingBody counts the bytes read from a request body.
type countingBody struct {
	io.ReadCloser
	n int64
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n += int64(n)
	return n, err
}

// ownService reports whether a path is one of grpc's own services'.
func ownService(path string) bool { return strings.HasPrefix(path, "/grpc.") }

// rpcWriter passes a response through unless, when its headers go out, it
// is an error without ErrorInfo: plain text, Connect's error JSON without
// details, or a gRPC-Web Trailers-Only status without
// grpc-status-details-bin.
type rpcWriter struct {
	http.ResponseWriter
	wrote, failed bool
	code          int
	body          bytes.Buffer
	// ends, for a Connect streaming call, rewrites its end-of-stream error.
	ends *streamEnds
}

func (w *rpcWriter) WriteHeader(code int) {
	if w.wrote {
		return
	}
	w.wrote, w.code = true, code
	h := w.Header()
	switch {
	case code >= http.StatusBadRequest:
		// Plain text, or Connect's error JSON, whose details decide.
		w.failed = true
	case h.Get("Grpc-Status") != "" && h.Get("Grpc-Status") != "0" && h.Get("Grpc-Status-Details-Bin") == "":
		w.failed = true
	}
	if !w.failed {
		w.ResponseWriter.WriteHeader(code)
	}
}

func (w *rpcWriter) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	if w.failed {
		return w.body.Write(b)
	}
	if w.ends != nil {
		return w.ends.write(w.ResponseWriter, b)
	}
	return w.ResponseWriter.Write(b)
}

// Flush implements http.Flusher.
func (w *rpcWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok && !w.failed {
		f.Flush()
	}
}

// text is what the refused response said.
func (w *rpcWriter) text() string {
	if m := w.Header().Get("Grpc-Message"); m != "" {
		return m
	}
	var e struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(w.body.Bytes(), &e) == nil && e.Message != "" {
		return e.Message
	}
	return strings.TrimSpace(w.body.String())
}

// rpcCode is the refused response's code as Connect names it
// ("unavailable"), or "" when it has none.
func (w *rpcWriter) rpcCode() string {
	if n, err := strconv.Atoi(w.Header().Get("Grpc-Status")); err == nil {
		return connect.Code(n).String()
	}
	var e struct {
		Code string `json:"code"`
	}
	_ = json.Unmarshal(w.body.Bytes(), &e)
	return e.Code
}

// passConnectJSON reports whether a Connect error JSON carries an
// ErrorInfo (so came through the table) and is passed on as it is.
func passConnectJSON(body []byte) bool {
	var e struct {
		Details []struct {
			Type string `json:"type"`
		} `json:"details"`
	}
	return json.Unmarshal(body, &e) == nil && len(e.Details) > 0 && e.Details[0].Type == "google.rpc.ErrorInfo"
}
