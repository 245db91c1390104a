package mcptool_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runsvc/runsvc/internal/tool/mcptool"
)

// mcpServer is a real MCP server from the SDK, served over streamable HTTP
// on 127.0.0.1, that can be stopped and started again on the same address.
type mcpServer struct {
	t         *testing.T
	stateless bool
	addr      string
	http      *httptest.Server
	release   chan struct{}
	entered   chan struct{} // a call of the block tool began

	mu         sync.Mutex
	auth       []string // the Authorization header of every request
	parents    []string // the traceparent header of every request
	handshakes int      // server/discover requests, which begin every handshake
}

// startServer serves the test tools, statelessly (the protocol from
// 2026-07-28 on) or with sessions (the handshake of 2025-11-25).
func startServer(t *testing.T, stateless bool) *mcpServer {
	t.Helper()
	s := &mcpServer{t: t, stateless: stateless, release: make(chan struct{}), entered: make(chan struct{}, 64)}
	s.start("127.0.0.1:0")
	t.Cleanup(func() {
		close(s.release)
		s.stop()
	})
	return s
}

func (s *mcpServer) url() string { return "http://" + s.addr + "/mcp" }

func (s *mcpServer) start(addr string) {
	s.t.Helper()
	var ln net.Listener
	var err error
	for range 50 {
		if ln, err = net.Listen("tcp", addr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		s.t.Fatalf("listen on %s: %v", addr, err)
	}
	s.addr = ln.Addr().String()
	tools := s.tools()
	mux := http.NewServeMux()
	mux.Handle("/mcp", s.record(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return tools }, &mcp.StreamableHTTPOptions{Stateless: s.stateless})))
	mux.HandleFunc("/unavailable", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Retry-After", "7")
		http.Error(w, "try later", http.StatusServiceUnavailable)
	})
	mux.HandleFunc("/forbidden", func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "no", http.StatusForbidden)
	})
	s.http = httptest.NewUnstartedServer(mux)
	s.http.Listener = ln
	s.http.Start()
}

func (s *mcpServer) stop() {
	if s.http != nil {
		s.http.CloseClientConnections()
		s.http.Close()
		s.http = nil
	}
}

// restart stops the server and starts a new one, with no memory of the
// old one's sessions, on the same address.
func (s *mcpServer) restart() {
	s.stop()
	s.start(s.addr)
}

// record notes each request's Authorization header and handshakes.
func (s *mcpServer) record(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		s.mu.Lock()
		s.auth = append(s.auth, r.Header.Get("Authorization"))
		s.parents = append(s.parents, r.Header.Get("traceparent"))
		if bytes.Contains(body, []byte(`"method":"server/discover"`)) {
			s.handshakes++
		}
		s.mu.Unlock()
		next.ServeHTTP(w, r)
	})
}

func (s *mcpServer) seen() (auth []string, handshakes int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.auth...), s.handshakes
}

// traceparents returns the traceparent header of every request so far.
func (s *mcpServer) traceparents() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.parents...)
}

type textIn struct {
	Text string `json:"text,omitempty"`
}

type sumIn struct {
	A int `json:"a"`
	B int `json:"b"`
}

type sumOut struct {
	Sum int `json:"sum"`
}

func (s *mcpServer) tools() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "echo"}, func(_ context.Context, _ *mcp.CallToolRequest, in textIn) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "lines"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "one"}, &mcp.TextContent{Text: "two"}}}, nil, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "pixel"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{Data: []byte{1}, MIMEType: "image/png"}}}, nil, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "mixed"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{
			&mcp.TextContent{Text: "see"},
			&mcp.ImageContent{Data: []byte("png!"), MIMEType: "image/png"},
			&mcp.AudioContent{Data: make([]byte, mcptool.MaxInlineBytes+1), MIMEType: "audio/wav"},
			&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "test://notes", MIMEType: "text/plain", Text: "note"}},
			&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "test://blob", MIMEType: "application/octet-stream", Blob: []byte{0, 1}}},
			&mcp.ResourceLink{URI: "test://far", Name: "far", MIMEType: "text/html"},
		}}, nil, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "sum"}, func(_ context.Context, _ *mcp.CallToolRequest, in sumIn) (*mcp.CallToolResult, sumOut, error) {
		return nil, sumOut{Sum: in.A + in.B}, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "fail"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return nil, nil, errors.New("disk full")
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "leak"}, func(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		return nil, nil, errors.New("refused token " + strings.TrimPrefix(req.Extra.Header.Get("Authorization"), "Bearer "))
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "idem"}, func(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		key, _ := req.Params.GetMeta()[mcptool.MetaIdempotencyKey].(string)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: key}}}, nil, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "block"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		s.entered <- struct{}{}
		select {
		case <-ctx.Done():
		case <-s.release:
		}
		return nil, nil, errors.New("released")
	})
	return srv
}
