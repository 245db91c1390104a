package httpapi

import (
	"bytes"
	"encoding/json"
	"math"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	edpb "google.golang.org/genproto/googleapis/rpc/errdetails"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/errs"
)

// isRPC reports whether a request is Connect, gRPC or gRPC-Web rather than
// REST: an RPC content type, or a Connect unary call (JSON or protobuf, or
// a GET with ?connect=) of a path naming a method
// ("/runsvc.v1.RunService/GetRun"). Anything else, even to such a path,
// is answered as REST.
func isRPC(r *http.Request) bool {
	ct, _, _ := strings.Cut(r.Header.Get("Content-Type"), ";")
	ct = strings.TrimSpace(strings.ToLower(ct))
	if strings.HasPrefix(ct, "application/grpc") || strings.HasPrefix(ct, "application/connect+") {
		return true
	}
	first, _, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	if !strings.Contains(first, ".") {
		return false
	}
	return ct == "application/json" || ct == "application/proto" || (r.Method == http.MethodGet && r.URL.Query().Has("connect"))
}

// restErrors answers every REST error in AIP-193's shape:
//
//	{"error": {"code": 404, "message": ..., "status": "NOT_FOUND", "details": [{"@type": ...}, ...]}}
//
// with the HTTP status AIP-193 maps the code to, and Retry-After (whole
// seconds, rounded up) exactly when the status carries RetryInfo. vanguard
// sends a handler's error as the bare google.rpc.Status; what vanguard
// refuses by itself (an unknown route, a wrong method or content type, a
// query parameter that does not parse) it sends as plain text or as a
// status without ErrorInfo, and restErrors maps those through the table.
// Successful responses pass through untouched and unbuffered.
type restErrors struct {
	next   http.Handler
	mapper *errdetails.Mapper
}

func (h restErrors) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if isRPC(r) {
		h.next.ServeHTTP(w, r)
		return
	}
	rw := &restWriter{ResponseWriter: w}
	h.next.ServeHTTP(rw, r)
	if rw.failed {
		st := h.tableStatus(r, rw.code, rw.body.Bytes())
		writeREST(w, st)
	}
}

// restWriter passes a successful response through and keeps an error
// response (status 400 or more) back for restErrors to reshape.
type restWriter struct {
	http.ResponseWriter
	wrote, failed bool
	code          int
	body          bytes.Buffer
}

func (w *restWriter) WriteHeader(code int) {
	if w.wrote {
		return
	}
	w.wrote, w.code = true, code
	if code >= http.StatusBadRequest {
		w.failed = true
		return
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *restWriter) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	if w.failed {
		return w.body.Write(b)
	}
	return w.ResponseWriter.Write(b)
}

// Flush implements http.Flusher for streamed successful responses.
func (w *restWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok && !w.failed {
		f.Flush()
	}
}

// tableStatus is the google.rpc.Status of an error response: the
// handler's own when it carries an ErrorInfo (it came through the table),
// else what the table makes of vanguard's refusal.
func (h restErrors) tableStatus(r *http.Request, code int, body []byte) *spb.Status {
	st := &spb.Status{}
	// vanguard's error bodies are JSON, but it may leave the gRPC leg's
	// Content-Type on them: try the body whatever it says.
	if protojson.Unmarshal(body, st) != nil || st.GetCode() == 0 {
		st = &spb.Status{Message: strings.TrimSpace(string(body))}
	}
	if hasErrorInfo(st) {
		return st
	}
	return h.mapper.Map(r.Context(), refusal(r, code, st.GetMessage())).Status.Proto()
}

func hasErrorInfo(st *spb.Status) bool {
	d := st.GetDetails()
	return len(d) > 0 && d[0].MessageIs(&edpb.ErrorInfo{})
}

// refusal is the typed error for what vanguard refused before any handler
// ran: a route or method it does not serve is METHOD_NOT_FOUND, anything
// else a request it could not take, INVALID_REQUEST.
func refusal(r *http.Request, code int, text string) error {
	switch code {
	case http.StatusNotFound, http.StatusMethodNotAllowed, http.StatusNotImplemented:
		return &errs.MethodNotFound{Method: r.Method + " " + r.URL.Path}
	}
	field := ""
	if g := namedParam.FindStringSubmatch(text); g != nil {
		field = g[1]
	} else if code == http.StatusUnsupportedMediaType && strings.Contains(text, "format") {
		field = "Content-Type"
	}
	if text == "" {
		text = http.StatusText(code)
	}
	return errs.BadField(field, "%s", strings.TrimPrefix(text, "protocol error: "))
}

// namedParam finds the query parameter or path field vanguard names in
// its refusals ("invalid parameter \"states\": ...").
var namedParam = regexp.MustCompile(`(?:parameter|field path) "([^"]+)"`)

// restBody is AIP-193's error body.
type restBody struct {
	Error restError `json:"error"`
}

type restError struct {
	Code    int               `json:"code"`
	Message string            `json:"message"`
	Status  string            `json:"status"`
	Details []json.RawMessage `json:"details"`
}

// writeREST writes st as AIP-193 with its HTTP status and Retry-After.
func writeREST(w http.ResponseWriter, st *spb.Status) {
	code := codes.Code(st.GetCode())
	body := restBody{Error: restError{Code: HTTPStatus(code), Message: st.GetMessage(), Status: codeName(code), Details: []json.RawMessage{}}}
	hdr := w.Header()
	for k := range hdr {
		if strings.HasPrefix(k, "Grpc-") || strings.HasPrefix(k, http.TrailerPrefix) || k == "Content-Length" || k == "Trailer" || k == "Content-Encoding" || k == "X-Content-Type-Options" {
			delete(hdr, k)
		}
	}
	for _, a := range st.GetDetails() {
		b, err := protojson.Marshal(a)
		if err != nil {
			continue
		}
		body.Error.Details = append(body.Error.Details, b)
		ri := &edpb.RetryInfo{}
		if a.MessageIs(ri) && a.UnmarshalTo(ri) == nil {
			hdr.Set("Retry-After", strconv.FormatInt(int64(math.Ceil(ri.GetRetryDelay().AsDuration().Seconds())), 10))
		}
	}
	out, _ := json.Marshal(body)
	hdr.Set("Content-Type", "application/json")
	w.WriteHeader(body.Error.Code)
	_, _ = w.Write(out)
}

// HTTPStatus is the HTTP status AIP-193 gives a code: errdetails.HTTPStatus,
// the table's mapping, which the catalogue publishes too.
func HTTPStatus(c codes.Code) int { return errdetails.HTTPStatus(c) }

// codeName is a code's google.rpc.Code name, "NOT_FOUND".
func codeName(c codes.Code) string {
	switch c {
	case codes.OK:
		return "OK"
	case codes.Canceled:
		return "CANCELLED"
	}
	var b strings.Builder
	for i, r := range c.String() {
		if i > 0 && r >= 'A' && r <= 'Z' {
			b.WriteByte('_')
		}
		b.WriteRune(r)
	}
	return strings.ToUpper(b.String())
}
