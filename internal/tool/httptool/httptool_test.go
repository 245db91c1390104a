package httptool_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/tool"
	"github.com/runsvc/runsvc/internal/tool/httptool"
)

const secretToken = "s3cr3t-t0ken-value"

// serve starts an httptest server on 127.0.0.1.
func serve(t *testing.T, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	if !strings.HasPrefix(srv.URL, "http://127.0.0.1:") {
		t.Fatalf("test server listens on %s, want 127.0.0.1", srv.URL)
	}
	return srv
}

func call(url string) tool.Call {
	return tool.Call{
		Tenant: "default", RunID: "run_1", CallID: "call_7", Name: "lookup",
		Arguments: json.RawMessage(`{"q":"weather","days":3}`),
		Tool:      spec.Tool{Name: "lookup", Kind: spec.KindHTTP, HTTP: &spec.HTTPTool{URL: url}},
	}
}

func ctxT(t *testing.T) context.Context {
	t.Helper()
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

// responseWant is what Execute should make of one response.
type responseWant struct {
	// result is the expected output; set for success.
	result string
	// kind is "tool" (*errs.ToolFailed or *errs.ToolRejected) or
	// "transient" (*errs.TransientFailure).
	kind       string
	retryable  bool
	message    string // contained in the error's message
	retryAfter time.Duration
}

// responseCases are the responses of an http tool's endpoint and what
// Execute makes of each.
var responseCases = []struct {
	name    string
	status  int
	headers map[string]string
	body    string
	want    responseWant
}{
	{"JSON object", 200, nil, `{"temp":21,"unit":"C"}`, responseWant{result: `{"temp":21,"unit":"C"}`}},
	{"JSON array", 200, nil, `[1,2,3]`, responseWant{result: `[1,2,3]`}},
	{"JSON string with 201", 201, nil, `"created"`, responseWant{result: `"created"`}},
	{"error null is a result", 200, nil, `{"error":null,"ok":true}`, responseWant{result: `{"error":null,"ok":true}`}},
	{"tool error retryable", 200, nil, `{"error":"index is rebuilding","retryable":true}`, responseWant{kind: "tool", retryable: true, message: "index is rebuilding"}},
	{"tool error not retryable", 200, nil, `{"error":"no such city"}`, responseWant{kind: "tool", message: "no such city"}},
	{"nested error message", 200, nil, `{"error":{"message":"quota for city lookups used up","code":17},"retryable":false}`, responseWant{kind: "tool", message: "quota for city lookups used up"}},
	{"nested error retryable", 200, nil, `{"error":{"message":"busy"},"retryable":true}`, responseWant{kind: "tool", retryable: true, message: "busy"}},
	{"non-JSON 200", 200, nil, `<html>hello</html>`, responseWant{kind: "tool", message: "not JSON"}},
	{"empty 200", 200, nil, ``, responseWant{kind: "tool", message: "not JSON"}},
	{"400 with the body's message", 400, nil, `{"error":"q is required"}`, responseWant{kind: "tool", message: "q is required"}},
	{"400 with a nested message", 400, nil, `{"error":{"message":"days must be positive"}}`, responseWant{kind: "tool", message: "days must be positive"}},
	{"404 without a body", 404, nil, ``, responseWant{kind: "tool", message: "404"}},
	{"429 with Retry-After seconds", 429, map[string]string{"Retry-After": "2"}, `{"error":"slow down"}`, responseWant{kind: "transient", retryable: true, message: "slow down", retryAfter: 2 * time.Second}},
	{"429 without Retry-After", 429, nil, ``, responseWant{kind: "transient", retryable: true, message: "429"}},
	{"429 with fractional Retry-After", 429, map[string]string{"Retry-After": "0.5"}, ``, responseWant{kind: "transient", retryable: true, retryAfter: 500 * time.Millisecond}},
	{"429 with unreadable Retry-After", 429, map[string]string{"Retry-After": "soon"}, ``, responseWant{kind: "transient", retryable: true}},
	{"408", 408, nil, ``, responseWant{kind: "transient", retryable: true, message: "408"}},
	{"500", 500, nil, `{"error":"database down"}`, responseWant{kind: "transient", retryable: true, message: "database down"}},
	{"502 with HTML", 502, nil, `<html>bad gateway</html>`, responseWant{kind: "transient", retryable: true, message: "502"}},
	{"503 with Retry-After", 503, map[string]string{"Retry-After": "7"}, ``, responseWant{kind: "transient", retryable: true, message: "503", retryAfter: 7 * time.Second}},
}

func TestExecuteResponses(t *testing.T) {
	for _, tt := range responseCases {
		t.Run(tt.name, func(t *testing.T) {
			srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
				for k, v := range tt.headers {
					w.Header().Set(k, v)
				}
				w.WriteHeader(tt.status)
				_, _ = io.WriteString(w, tt.body)
			})
			out, err := httptool.New(nil).Execute(ctxT(t), call(srv.URL))
			if tt.want.kind == "" {
				if err != nil {
					t.Fatalf("Execute = %v, want result %s", err, tt.want.result)
				}
				if string(out) != tt.want.result {
					t.Errorf("result = %s, want %s", out, tt.want.result)
				}
				return
			}
			checkFailure(t, err, tt.want)
			if out != nil {
				t.Errorf("a failure also returned output %s", out)
			}
			if _, retryable := errs.IsRetryable(err); retryable != tt.want.retryable {
				t.Errorf("IsRetryable = %v, want %v", retryable, tt.want.retryable)
			}
		})
	}
}

// checkFailure checks a failed Execute's error against want.
func checkFailure(t *testing.T, err error, want responseWant) {
	t.Helper()
	switch want.kind {
	case "tool":
		var failed *errs.ToolFailed
		var rejected *errs.ToolRejected
		var tool, message string
		switch {
		case want.retryable && errors.As(err, &failed):
			tool, message = failed.Tool, failed.Message
		case !want.retryable && errors.As(err, &rejected):
			tool, message = rejected.Tool, rejected.Message
		default:
			t.Fatalf("Execute = %T %v, want ToolFailed when retryable (%v), else ToolRejected", err, err, want.retryable)
		}
		if tool != "lookup" {
			t.Errorf("tool = %q, want lookup", tool)
		}
		if !strings.Contains(message, want.message) {
			t.Errorf("message = %q, want it to hold %q", message, want.message)
		}
	case "transient":
		var tr *errs.TransientFailure
		if !errors.As(err, &tr) {
			t.Fatalf("Execute = %T %v, want *errs.TransientFailure", err, err)
		}
		if tr.Operation != "tool lookup" {
			t.Errorf("TransientFailure.Operation = %q, want %q", tr.Operation, "tool lookup")
		}
		if tr.RetryAfter != want.retryAfter {
			t.Errorf("TransientFailure.RetryAfter = %v, want %v", tr.RetryAfter, want.retryAfter)
		}
		if !strings.Contains(tr.Message, want.message) {
			t.Errorf("TransientFailure.Message = %q, want it to hold %q", tr.Message, want.message)
		}
	}
}

func TestExecuteRetryAfterDate(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", time.Now().Add(time.Hour).UTC().Format(http.TimeFormat))
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	_, err := httptool.New(nil).Execute(ctxT(t), call(srv.URL))
	var tr *errs.TransientFailure
	if !errors.As(err, &tr) {
		t.Fatalf("Execute = %T %v, want *errs.TransientFailure", err, err)
	}
	if tr.RetryAfter < 59*time.Minute {
		t.Errorf("RetryAfter = %v for a date an hour ahead, want about an hour", tr.RetryAfter)
	}
}

func TestExecuteOversizedResponse(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(200)
		_, _ = io.WriteString(w, `"`+strings.Repeat("x", 8<<20)+`"`)
	})
	_, err := httptool.New(nil).Execute(ctxT(t), call(srv.URL))
	var tf *errs.ToolRejected
	if !errors.As(err, &tf) {
		t.Fatalf("Execute = %T %v, want *errs.ToolRejected", err, err)
	}
}

func TestExecuteRequest(t *testing.T) {
	type seen struct {
		method, contentType, accept, callID, runID, idemKey, auth string
		hasAuth                                                   bool
		body                                                      string
	}
	tests := []struct {
		name       string
		args       string
		credential string
		wantBody   string
		wantAuth   string
	}{
		{"arguments and credential", `{"q":"weather","nested":{"a":[1,2]}}`, secretToken, `{"q":"weather","nested":{"a":[1,2]}}`, "Bearer " + secretToken},
		{"no credential means no Authorization", `{"q":"x"}`, "", `{"q":"x"}`, ""},
		{"no arguments is an empty object", ``, "", `{}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := make(chan seen, 1)
			srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				_, hasAuth := r.Header["Authorization"]
				got <- seen{
					method: r.Method, contentType: r.Header.Get("Content-Type"), accept: r.Header.Get("Accept"),
					callID: r.Header.Get("Runsvc-Call-Id"), runID: r.Header.Get("Runsvc-Run-Id"), idemKey: r.Header.Get("Idempotency-Key"),
					auth: r.Header.Get("Authorization"), hasAuth: hasAuth, body: string(b),
				}
				_, _ = io.WriteString(w, `{"ok":true}`)
			})
			c := call(srv.URL + "/tools/lookup")
			c.Arguments = json.RawMessage(tt.args)
			c.Credential = tt.credential
			if _, err := httptool.New(nil).Execute(ctxT(t), c); err != nil {
				t.Fatalf("Execute = %v", err)
			}
			s := <-got
			if s.method != http.MethodPost {
				t.Errorf("method = %s, want POST", s.method)
			}
			if s.contentType != "application/json" {
				t.Errorf("Content-Type = %q, want application/json", s.contentType)
			}
			if s.accept != "application/json" {
				t.Errorf("Accept = %q, want application/json", s.accept)
			}
			if s.body != tt.wantBody {
				t.Errorf("body = %s, want %s", s.body, tt.wantBody)
			}
			if s.callID != "run_1/call_7" || s.idemKey != s.callID {
				t.Errorf("Runsvc-Call-Id = %q, Idempotency-Key = %q, want both run_1/call_7", s.callID, s.idemKey)
			}
			if s.runID != "run_1" {
				t.Errorf("Runsvc-Run-Id = %q, want run_1", s.runID)
			}
			if tt.wantAuth == "" {
				if s.hasAuth {
					t.Errorf("Authorization = %q sent without a credential", s.auth)
				}
			} else if s.auth != tt.wantAuth {
				t.Errorf("Authorization = %q, want %q", s.auth, tt.wantAuth)
			}
		})
	}
	t.Run("the call id is stable across retries", func(t *testing.T) {
		ids := make(chan string, 2)
		srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
			ids <- r.Header.Get("Runsvc-Call-Id") + " " + r.Header.Get("Idempotency-Key")
			w.WriteHeader(http.StatusServiceUnavailable)
		})
		x := httptool.New(nil)
		for range 2 {
			_, _ = x.Execute(ctxT(t), call(srv.URL))
		}
		if a, b := <-ids, <-ids; a != b || a == "" {
			t.Errorf("call ids of two tries = %q and %q, want the same", a, b)
		}
	})
}

// refusedURL returns a URL on 127.0.0.1 where nothing listens.
func refusedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return "http://" + addr + "/tool"
}

// roundTripFunc is an http.RoundTripper from a function.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestExecuteTransportFailures(t *testing.T) {
	tests := []struct {
		name   string
		client func(t *testing.T) *http.Client
		url    func(t *testing.T) string
	}{
		{
			name:   "connection refused",
			client: func(*testing.T) *http.Client { return nil },
			url:    refusedURL,
		},
		{
			name:   "connection dropped without an answer",
			client: func(*testing.T) *http.Client { return nil },
			url: func(t *testing.T) string {
				return serve(t, func(w http.ResponseWriter, r *http.Request) {
					conn, _, err := w.(http.Hijacker).Hijack()
					if err == nil {
						_ = conn.Close()
					}
				}).URL
			},
		},
		{
			name:   "connection dropped in the middle of the body",
			client: func(*testing.T) *http.Client { return nil },
			url: func(t *testing.T) string {
				return serve(t, func(w http.ResponseWriter, r *http.Request) {
					conn, buf, err := w.(http.Hijacker).Hijack()
					if err != nil {
						return
					}
					_, _ = buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"partial\":")
					_ = buf.Flush()
					_ = conn.Close()
				}).URL
			},
		},
		{
			// A transport whose error repeats the request's Authorization
			// header, as some proxies and instrumented transports do.
			name: "transport error that echoes the request",
			client: func(*testing.T) *http.Client {
				return &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
					return nil, fmt.Errorf("proxy refused request with header %q", r.Header.Get("Authorization"))
				})}
			},
			url: func(*testing.T) string { return "http://127.0.0.1:1/tool" },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := call(tt.url(t))
			c.Credential = secretToken
			_, err := httptool.New(tt.client(t)).Execute(ctxT(t), c)
			var tr *errs.TransientFailure
			if !errors.As(err, &tr) {
				t.Fatalf("Execute = %T %v, want *errs.TransientFailure", err, err)
			}
			if _, ok := errs.IsRetryable(err); !ok {
				t.Errorf("a transport failure is not retryable")
			}
			if strings.Contains(err.Error(), secretToken) || strings.Contains(tr.Message, secretToken) {
				t.Errorf("the error carries the credential: %q", err)
			}
		})
	}
}

func TestExecuteContextEnds(t *testing.T) {
	tests := []struct {
		name string
		// ctx is the caller's context; a cancellable one is cancelled once
		// the request reached the server.
		ctx  func() (context.Context, context.CancelFunc)
		want error
	}{
		{"cancelled", func() (context.Context, context.CancelFunc) { return context.WithCancel(context.Background()) }, context.Canceled},
		{"deadline", func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 100*time.Millisecond)
		}, context.DeadlineExceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			arrived := make(chan struct{}, 1)
			release := make(chan struct{})
			defer close(release)
			srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
				arrived <- struct{}{}
				select {
				case <-r.Context().Done():
				case <-release:
				}
			})
			ctx, cancel := tt.ctx()
			defer cancel()
			go func() {
				<-arrived
				if tt.want == context.Canceled {
					cancel()
				}
			}()
			_, err := httptool.New(nil).Execute(ctx, call(srv.URL))
			if !errors.Is(err, tt.want) {
				t.Fatalf("Execute = %T %v, want %v", err, err, tt.want)
			}
			var tr *errs.TransientFailure
			if errors.As(err, &tr) {
				t.Errorf("the caller's own context ending was reported as a transient failure")
			}
		})
	}
	t.Run("already cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := httptool.New(nil).Execute(ctx, call(refusedURL(t)))
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Execute = %v, want context.Canceled", err)
		}
	})
}

func TestExecuteConfiguration(t *testing.T) {
	tests := []struct {
		name string
		tool spec.Tool
	}{
		{"no http settings", spec.Tool{Name: "lookup", Kind: spec.KindHTTP}},
		{"unusable url", spec.Tool{Name: "lookup", Kind: spec.KindHTTP, HTTP: &spec.HTTPTool{URL: "http://[::1"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := call("")
			c.Tool = tt.tool
			_, err := httptool.New(nil).Execute(ctxT(t), c)
			var ci *errs.ConfigurationInvalid
			if !errors.As(err, &ci) {
				t.Fatalf("Execute = %T %v, want *errs.ConfigurationInvalid", err, err)
			}
			if ci.Subject != "tool lookup" {
				t.Errorf("Subject = %q, want %q", ci.Subject, "tool lookup")
			}
		})
	}
}
