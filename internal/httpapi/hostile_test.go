package httpapi_test

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/runsvc/runsvc/client"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// hostile is a raw HTTP request and what the table must make of it.
type hostile struct {
	name, method, path, contentType, body string
	reason                                string
	field                                 string // the BadRequest violation's field, when there is one
}

var hostileREST = []hostile{
	{"malformed JSON", "POST", "/v1/runs", "application/json", `{"spec": "x",`, "INVALID_REQUEST", ""},
	{"a wrong type", "POST", "/v1/runs", "application/json", `{"spec": 5}`, "INVALID_REQUEST", "spec"},
	{"an unknown field", "POST", "/v1/runs", "application/json", `{"spek": "x"}`, "INVALID_REQUEST", "spek"},
	{"a wrong type in a Spec", "POST", "/v1/specs", "application/json", `{"name": ["x"]}`, "INVALID_REQUEST", "name"},
	{"invalid UTF-8", "POST", "/v1/runs", "application/json", "{\"spec\": \"\xff\xfe\"}", "INVALID_REQUEST", ""},
	{"nesting past any limit", "POST", "/v1/runs", "application/json", `{"spec": "x", "input": ` + strings.Repeat("[", 20000) + `}`, "INVALID_REQUEST", "input"},
	{"a 5 MB body", "POST", "/v1/runs", "application/json", `{"spec": "x", "input": "` + strings.Repeat("a", 5<<20) + `"}`, "INVALID_REQUEST", ""},
	{"a 20 MB body", "POST", "/v1/runs", "application/json", `{"spec": "x", "input": "` + strings.Repeat("a", 20<<20) + `"}`, "INVALID_REQUEST", ""},
	{"a body that is not JSON at all", "POST", "/v1/runs", "application/json", "\x00\x01\x02garbage", "INVALID_REQUEST", ""},
	{"text/plain", "POST", "/v1/runs", "text/plain", `{"spec": "x"}`, "INVALID_REQUEST", "Content-Type"},
	{"a form", "POST", "/v1/runs", "application/x-www-form-urlencoded", `spec=x`, "INVALID_REQUEST", "Content-Type"},
	{"XML to a method's path", "POST", "/runsvc.v1.RunService/GetRun", "application/xml", `<x/>`, "METHOD_NOT_FOUND", ""},
	{"an unknown enum in the query", "GET", "/v1/runs?states=BOGUS", "", "", "INVALID_REQUEST", "states"},
	{"an unknown query parameter", "GET", "/v1/runs?bogus=1", "", "", "INVALID_REQUEST", "bogus"},
	{"a body on a GET", "GET", "/v1/runs/run_x", "application/json", `{"runId": "run_y"}`, "INVALID_REQUEST", ""},
	{"path traversal, escaped", "GET", "/v1/runs/..%2F..%2Fetc%2Fpasswd", "", "", "METHOD_NOT_FOUND", ""},
	{"path traversal", "GET", "/v1/runs/../../etc/passwd", "", "", "METHOD_NOT_FOUND", ""},
	{"a traversal id", "GET", "/v1/runs/..", "", "", "RUN_NOT_FOUND", ""},
	{"a NUL in an id", "GET", "/v1/runs/run%00x", "", "", "RUN_NOT_FOUND", ""},
	{"an unknown route", "GET", "/v1/nothing", "", "", "METHOD_NOT_FOUND", ""},
	{"the root", "GET", "/", "", "", "METHOD_NOT_FOUND", ""},
	{"a wrong verb", "PUT", "/v1/runs/run_x", "application/json", `{}`, "METHOD_NOT_FOUND", ""},
	{"a stream over plain REST", "GET", "/v1/runs/run_x:watch", "", "", "INVALID_REQUEST", ""},
}

// TestHostileREST: hostile REST input never gets INTERNAL, and every
// error is AIP-193 with an ErrorInfo from the table first, the HTTP
// status its code maps to, and, for a request that does not decode, a
// BadRequest naming the field when there is one.
func TestHostileREST(t *testing.T) {
	s := testserver.Start(t, testserver.WithHTTP())
	for _, h := range hostileREST {
		t.Run(h.name, func(t *testing.T) {
			r, err := http.NewRequestWithContext(ctxT(t), h.method, s.HTTPURL+h.path, strings.NewReader(h.body))
			if err != nil {
				t.Fatal(err)
			}
			if h.contentType != "" {
				r.Header.Set("Content-Type", h.contentType)
			}
			got := doREST(t, r)
			checkHostile(t, h, got)
		})
	}
}

func checkHostile(t *testing.T, h hostile, got restReply) {
	t.Helper()
	if got.status == nil {
		t.Fatalf("HTTP %d, want an error", got.httpStatus)
	}
	c := client.ClassifyStatus(got.status)
	if c.Code == codes.Internal || c.Reason != h.reason {
		t.Fatalf("%v %s (%s), want %s", c.Code, c.Reason, c.Message, h.reason)
	}
	if h.field == "" {
		return
	}
	if !strings.Contains(string(got.body), `"field":"`+h.field+`"`) {
		t.Errorf("no violation of field %q: %s", h.field, got.body)
	}
}

var hostileConnect = []hostile{
	{"malformed JSON", "POST", "/runsvc.v1.RunService/StartRun", "application/json", `{"spec": "x",`, "INVALID_REQUEST", ""},
	{"a wrong type", "POST", "/runsvc.v1.RunService/StartRun", "application/json", `{"spec": 5}`, "INVALID_REQUEST", "spec"},
	{"an unknown field", "POST", "/runsvc.v1.RunService/StartRun", "application/json", `{"spek": "x"}`, "INVALID_REQUEST", "spek"},
	{"garbage protobuf", "POST", "/runsvc.v1.RunService/StartRun", "application/proto", "\xff\xff\xff\xff", "INVALID_REQUEST", ""},
	{"a 5 MB body", "POST", "/runsvc.v1.RunService/StartRun", "application/json", `{"spec": "x", "input": "` + strings.Repeat("a", 5<<20) + `"}`, "INVALID_REQUEST", ""},
	{"a 20 MB body", "POST", "/runsvc.v1.RunService/StartRun", "application/json", `{"spec": "x", "input": "` + strings.Repeat("a", 20<<20) + `"}`, "INVALID_REQUEST", ""},
	{"an unknown method", "POST", "/runsvc.v1.RunService/Nope", "application/json", `{}`, "METHOD_NOT_FOUND", ""},
	{"an unknown service", "POST", "/runsvc.v1.Nothing/Nope", "application/json", `{}`, "METHOD_NOT_FOUND", ""},
}

// TestHostileConnect: the same for Connect unary calls made by hand:
// the Connect error JSON, with an ErrorInfo first, never INTERNAL.
func TestHostileConnect(t *testing.T) {
	s := testserver.Start(t, testserver.WithHTTP())
	for _, h := range hostileConnect {
		t.Run(h.name, func(t *testing.T) {
			r, err := http.NewRequestWithContext(ctxT(t), h.method, s.HTTPURL+h.path, strings.NewReader(h.body))
			if err != nil {
				t.Fatal(err)
			}
			r.Header.Set("Content-Type", h.contentType)
			resp, err := http.DefaultClient.Do(r)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = resp.Body.Close() }()
			b, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			checkHostile(t, h, restReply{httpStatus: resp.StatusCode, status: connectJSONStatus(t, b), body: b})
		})
	}
}

// connectJSONStatus reads the Connect protocol's error JSON.
func connectJSONStatus(t *testing.T, b []byte) *spb.Status {
	t.Helper()
	var e struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Details []struct {
			Type  string          `json:"type"`
			Value string          `json:"value"`
			Debug json.RawMessage `json:"debug"`
		} `json:"details"`
	}
	if err := json.Unmarshal(b, &e); err != nil || e.Code == "" {
		t.Fatalf("not a Connect error (%v): %s", err, b)
	}
	code, ok := codeByName[strings.ToUpper(e.Code)]
	if !ok {
		t.Fatalf("code %q: %s", e.Code, b)
	}
	st := &spb.Status{Code: int32(code), Message: e.Message}
	for _, d := range e.Details {
		v, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(d.Value, "="))
		if err != nil || len(d.Debug) == 0 {
			t.Fatalf("detail %s: value %v, debug %s", d.Type, err, d.Debug)
		}
		st.Details = append(st.Details, &anypb.Any{TypeUrl: "type.googleapis.com/" + d.Type, Value: v})
	}
	return st
}

// TestHostileRPCHeaders: what vanguard refuses by itself on the RPC
// protocols (a header it cannot parse, a compression it lacks, a gRPC-Web
// envelope cut short) comes through the table in the caller's protocol,
// never INTERNAL, never without ErrorInfo.
func TestHostileRPCHeaders(t *testing.T) {
	s := testserver.Start(t, testserver.WithHTTP())
	cases := []struct {
		name, contentType, header, value, body string
	}{
		{"a Connect timeout that is no number", "application/json", "Connect-Timeout-Ms", "abc", `{"runId": "x"}`},
		{"a compression runsvc lacks", "application/json", "Content-Encoding", "br", `{"runId": "x"}`},
		{"a gRPC-Web envelope cut short", "application/grpc-web+proto", "X-Nothing", "", "\x00\x00\x00\x00\x09garbage"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := http.NewRequestWithContext(ctxT(t), http.MethodPost, s.HTTPURL+"/runsvc.v1.RunService/GetRun", strings.NewReader(c.body))
			if err != nil {
				t.Fatal(err)
			}
			r.Header.Set("Content-Type", c.contentType)
			r.Header.Set(c.header, c.value)
			resp, err := http.DefaultClient.Do(r)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = resp.Body.Close() }()
			b, _ := io.ReadAll(resp.Body)
			var st *spb.Status
			if bin := resp.Header.Get("Grpc-Status-Details-Bin"); bin != "" {
				raw, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(bin, "="))
				st = &spb.Status{}
				if err != nil || proto.Unmarshal(raw, st) != nil {
					t.Fatalf("grpc-status-details-bin %q: %v", bin, err)
				}
			} else {
				st = connectJSONStatus(t, b)
			}
			checkHostile(t, hostile{reason: "INVALID_REQUEST"}, restReply{httpStatus: resp.StatusCode, status: st, body: b})
		})
	}
}

// TestHostileConnectChunked: a Connect body over the limit sent without
// Content-Length (chunked), which vanguard refuses by itself when its
// buffer fills, still comes through the table: INVALID_REQUEST with an
// ErrorInfo, never a bare resource_exhausted.
func TestHostileConnectChunked(t *testing.T) {
	s := testserver.Start(t, testserver.WithHTTP())
	for _, size := range []int{5 << 20, 20 << 20} {
		body := `{"spec": "x", "input": "` + strings.Repeat("a", size) + `"}`
		// io.MultiReader hides the length, so the request goes chunked.
		r, err := http.NewRequestWithContext(ctxT(t), http.MethodPost, s.HTTPURL+"/runsvc.v1.RunService/StartRun", io.MultiReader(strings.NewReader(body)))
		if err != nil {
			t.Fatal(err)
		}
		r.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		t.Logf("%d bytes chunked: HTTP %d %s", size, resp.StatusCode, truncate(b))
		checkHostile(t, hostile{reason: "INVALID_REQUEST"}, restReply{httpStatus: resp.StatusCode, status: connectJSONStatus(t, b), body: b})
	}
}

func truncate(b []byte) []byte {
	if len(b) > 400 {
		return b[:400]
	}
	return b
}

// envelope frames a Connect or gRPC-Web streaming message.
func envelope(flags byte, msg string) string {
	n := len(msg)
	return string([]byte{flags, byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}) + msg
}

// TestHostileConnectStream: what vanguard refuses by itself on a Connect
// server-streaming call (an envelope cut short, a body that does not
// decode, a compressed message without a compression) ends the stream
// with an end-of-stream error carrying an ErrorInfo, never without. In
// the first, sixth and seventh cases vanguard's refusal races the gRPC
// handler's failed read of the request; either way the reason is
// INVALID_REQUEST (the service turns grpc-go's INTERNAL for a broken
// request stream into it).
func TestHostileConnectStream(t *testing.T) {
	s := testserver.Start(t, testserver.WithHTTP())
	cases := []struct {
		name, contentType, body, reason string
	}{
		{"an envelope cut short", "application/connect+json", "\x00\x00\x00\x00\x09{}", "INVALID_REQUEST"},
		{"malformed JSON", "application/connect+json", envelope(0, `{"runId": `), "INVALID_REQUEST"},
		{"an unknown field", "application/connect+json", envelope(0, `{"runIt": "x"}`), "INVALID_REQUEST"},
		{"garbage protobuf", "application/connect+proto", envelope(0, "\xff\xff\xff\xff"), "INVALID_REQUEST"},
		{"a compressed flag on identity", "application/connect+json", envelope(1, `{"runId": "x"}`), "RUN_NOT_FOUND"},
		{"two request messages", "application/connect+json", envelope(0, `{"runId": "x"}`) + envelope(0, `{"runId": "y"}`), "INVALID_REQUEST"},
		{"no request message", "application/connect+json", "", "INVALID_REQUEST"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := http.NewRequestWithContext(ctxT(t), http.MethodPost, s.HTTPURL+"/runsvc.v1.RunService/WatchRun", strings.NewReader(c.body))
			if err != nil {
				t.Fatal(err)
			}
			r.Header.Set("Content-Type", c.contentType)
			resp, err := http.DefaultClient.Do(r)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = resp.Body.Close() }()
			b, _ := io.ReadAll(resp.Body)
			st := endOfStream(t, resp.StatusCode, b)
			checkHostile(t, hostile{reason: c.reason}, restReply{httpStatus: resp.StatusCode, status: st, body: b})
		})
	}
}

// endOfStream is the error of a Connect streaming response: its
// end-of-stream message's, or, when the call failed before the stream
// began, the body's error JSON.
func endOfStream(t *testing.T, code int, b []byte) *spb.Status {
	t.Helper()
	if code != http.StatusOK {
		return connectJSONStatus(t, b)
	}
	for len(b) >= 5 {
		n := int(b[1])<<24 | int(b[2])<<16 | int(b[3])<<8 | int(b[4])
		if len(b) < 5+n {
			t.Fatalf("envelope cut short: %q", b)
		}
		if b[0]&2 != 0 {
			var end struct {
				Error json.RawMessage `json:"error"`
			}
			if err := json.Unmarshal(b[5:5+n], &end); err != nil || end.Error == nil {
				t.Fatalf("end-of-stream without an error (%v): %s", err, b[5:5+n])
			}
			return connectJSONStatus(t, end.Error)
		}
		b = b[5+n:]
	}
	t.Fatalf("no end-of-stream message")
	return nil
}

// TestHostileGRPCWeb: every gRPC-Web error, whoever writes it (the
// handler, vanguard, connect's ErrorWriter here), has the trailers a gRPC
// error has: grpc-status-details-bin with an ErrorInfo and the pushback
// trailer, in the headers (Trailers-Only) or the body's trailer frame.
func TestHostileGRPCWeb(t *testing.T) {
	s := testserver.Start(t, testserver.WithHTTP())
	big := envelope(0, strings.Repeat("\x0a", 5<<20))
	cases := []struct {
		name, path, body string
		chunked          bool
	}{
		{"an unknown method", "/runsvc.v1.RunService/Nope", envelope(0, ""), false},
		{"an envelope cut short", "/runsvc.v1.RunService/GetRun", "\x00\x00\x00\x00\x09garbage", false},
		{"garbage protobuf", "/runsvc.v1.RunService/GetRun", envelope(0, "\xff\xff\xff\xff"), false},
		{"a run not found", "/runsvc.v1.RunService/GetRun", envelope(0, "\x0a\x01x"), false},
		{"a 5 MB body", "/runsvc.v1.RunService/GetRun", big, false},
		{"a 5 MB body, chunked", "/runsvc.v1.RunService/GetRun", big, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var body io.Reader = strings.NewReader(c.body)
			if c.chunked {
				body = io.MultiReader(body)
			}
			r, err := http.NewRequestWithContext(ctxT(t), http.MethodPost, s.HTTPURL+c.path, body)
			if err != nil {
				t.Fatal(err)
			}
			r.Header.Set("Content-Type", "application/grpc-web+proto")
			resp, err := http.DefaultClient.Do(r)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = resp.Body.Close() }()
			b, _ := io.ReadAll(resp.Body)
			tr := grpcWebTrailers(resp.Header, b)
			t.Logf("HTTP %d, trailers %v", resp.StatusCode, tr)
			if tr.Get("Grpc-Status") == "" || tr.Get("Grpc-Status") == "0" {
				t.Fatalf("no error status: %v", tr)
			}
			if tr.Get("Grpc-Retry-Pushback-Ms") == "" {
				t.Errorf("no pushback trailer: %v", tr)
			}
			raw, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(tr.Get("Grpc-Status-Details-Bin"), "="))
			st := &spb.Status{}
			if err != nil || proto.Unmarshal(raw, st) != nil || !hasInfo(st) {
				t.Fatalf("grpc-status-details-bin without an ErrorInfo: %v", tr)
			}
		})
	}
}

// grpcWebTrailers is a gRPC-Web response's trailers: its headers, and
// those of the body's trailer frame, if it has one.
func grpcWebTrailers(h http.Header, b []byte) http.Header {
	out := h.Clone()
	for len(b) >= 5 {
		n := int(b[1])<<24 | int(b[2])<<16 | int(b[3])<<8 | int(b[4])
		if len(b) < 5+n {
			break
		}
		if b[0]&0x80 != 0 {
			for _, line := range strings.Split(string(b[5:5+n]), "\r\n") {
				if k, v, ok := strings.Cut(line, ":"); ok {
					out.Set(strings.TrimSpace(k), strings.TrimSpace(v))
				}
			}
		}
		b = b[5+n:]
	}
	return out
}

func hasInfo(st *spb.Status) bool {
	return len(st.GetDetails()) > 0 && st.GetDetails()[0].GetTypeUrl() == "type.googleapis.com/google.rpc.ErrorInfo"
}
