package a2a

import (
	"context"
	"io"
	"net/http"
	"sync"
)

// inproc is an http.RoundTripper that serves a request with a handler in
// this process (the HTTP API's, so through the gRPC server's interceptor
// chain) and streams its response back through a pipe. The A2A request a
// call is made for rides in the context: its credentials (Authorization,
// the client certificate) and address are the inner request's.
type inproc struct{ h http.Handler }

type callerKey struct{}

// withCaller returns ctx carrying the A2A request r.
func withCaller(ctx context.Context, r *http.Request) context.Context {
	return context.WithValue(ctx, callerKey{}, r)
}

func (t inproc) RoundTrip(r *http.Request) (*http.Response, error) {
	inner := r.Clone(r.Context())
	inner.RequestURI = r.URL.RequestURI()
	if caller, ok := r.Context().Value(callerKey{}).(*http.Request); ok {
		inner.RemoteAddr, inner.TLS = caller.RemoteAddr, caller.TLS
		if a := caller.Header.Get("Authorization"); a != "" {
			inner.Header.Set("Authorization", a)
		}
	}
	pr, pw := io.Pipe()
	w := &pipeWriter{header: http.Header{}, pw: pw, ready: make(chan struct{})}
	go func() {
		defer func() {
			w.WriteHeader(http.StatusOK)
			_ = pw.Close()
		}()
		t.h.ServeHTTP(w, inner)
	}()
	<-w.ready
	return &http.Response{StatusCode: w.code, Status: http.StatusText(w.code), Header: w.sent, Body: pr,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, ContentLength: -1, Request: r}, nil
}

// pipeWriter is the inner response: its headers, once written, and then
// its body through the pipe.
type pipeWriter struct {
	header http.Header
	sent   http.Header
	pw     *io.PipeWriter
	once   sync.Once
	ready  chan struct{}
	code   int
}

func (w *pipeWriter) Header() http.Header { return w.header }

func (w *pipeWriter) WriteHeader(code int) {
	w.once.Do(func() {
		w.code, w.sent = code, w.header.Clone()
		close(w.ready)
	})
}

func (w *pipeWriter) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.pw.Write(b)
}

// Flush implements http.Flusher: the pipe passes every write at once.
func (w *pipeWriter) Flush() { w.WriteHeader(http.StatusOK) }
